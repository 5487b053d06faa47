package intent

import (
	"net/url"
	"strings"

	"github.com/vigil-web/vigil/spec"
	"github.com/vigil-web/vigil/tree"
)

// at sets the address c's document was read from, against which its links
// and image sources resolve (through its <base href>, in HTML: PageBase,
// as p found it for that document: Pair.pageBase), and returns c.
func (c *content) at(p *Pair, page string) *content {
	doc := c.doc
	if !c.html {
		doc = nil
	}
	if base := p.pageBase(page, doc); base != nil {
		c.base = base
	}
	return c
}

// pageBaseKey is a document of a pair and the address it was read from.
type pageBaseKey struct {
	page string
	doc  *tree.Document
}

// pageBase returns PageBase(page, doc), found once for the pair: every
// change type's content (each scope and ignore list its own) resolves
// against the same base, and a page without a base element is walked
// whole to find none, which each version should cost once, not once a
// scope. The URL is shared: it must not be modified. p.mu is held, as
// for content.
func (p *Pair) pageBase(page string, doc *tree.Document) *url.URL {
	k := pageBaseKey{page, doc}
	if b, ok := p.bases[k]; ok {
		return b
	}
	b := PageBase(page, doc)
	if p.bases == nil {
		p.bases = make(map[pageBaseKey]*url.URL)
	}
	p.bases[k] = b
	return b
}

// PageBase returns the URL the relative URLs of doc, a page read from the
// address page, resolve against: the href of its first base element with
// one, wherever it stands (a base in the body is the document's base too,
// for the links before it as well, as browsers take it) but in a
// template, whose content is inert, or in svg or math, whose base is an
// SVG or MathML element and no HTML one (in their HTML integration points,
// a foreignObject, an mi, it is HTML again: walkHTMLElements), resolved
// against page, if that is an http or https URL, else page; nil if page
// is not an absolute URL. A base of another scheme (data:, javascript:,
// ftp:, about:blank, blob:) is passed over for page. Here Vigil departs
// from browsers, which pass over only data: and javascript: bases: a URL
// resolved against an ftp: or blob: base is none Vigil may fetch or a view
// may link to, and the page's address names what the author most likely
// meant. A nil doc (a document that is not a page) has no base
// element. Every place that shows a user a URL of a page (the change
// records, the dashboard's views of a diff, the notifications) resolves
// it against this base with ResolveURL.
func PageBase(page string, doc *tree.Document) *url.URL {
	if page == "" {
		return nil
	}
	base, err := url.Parse(page)
	if err != nil || !base.IsAbs() {
		return nil
	}
	if doc == nil || doc.Root == nil {
		return base
	}
	// A base in a template (inert) or in svg or math (an SVG or MathML
	// element) is none.
	walkHTMLElements(doc.Root, func(n *tree.Node) bool {
		if elementIs(n, "base") {
			if href, ok := attrFold(n, "href"); ok {
				// A base that is not http or https is passed over:
				// only the first base element with an href counts.
				if b, ok := baseHref(base, href); ok {
					base = b
				}
				return false
			}
		}
		return true
	})
	return base
}

// baseHref returns href, a base element's, resolved against from, the
// document's address (an empty URL if unknown), and whether it can be the
// document's base: not an absolute URL of another scheme than http or
// https (ftp:, javascript:, data:, about:blank, blob:), which browsers
// pass over for the document's address. PageBase and SourceLinks (a
// document read as text) take their base with it.
func baseHref(from *url.URL, href string) (*url.URL, bool) {
	b, err := from.Parse(CleanRef(href))
	if err != nil || (b.IsAbs() && !webScheme(b)) {
		return nil, false
	}
	return b, true
}

// webScheme reports whether u is an http or https URL (url.Parse gives
// its scheme in lower case).
func webScheme(u *url.URL) bool {
	return u.Scheme == "http" || u.Scheme == "https"
}

// resolve returns ref as it resolves against c's address, or as written
// when c has none or ref does not parse (a javascript: or mailto: link
// resolves to itself). An http(s) host is given by its key (spec.HostKey):
// spelt in Unicode or percent-encoded, in its ASCII (punycode) form, as
// the page's address is, in lower case, without a trailing dot and without
// its scheme's default port, so that one host has one spelling:
// url.URL.String wrote it percent-encoded, and each spelling was another
// link; and an empty path is the root's (https://a.example is
// https://a.example/).
func (c *content) resolve(ref string) string {
	return ResolveURL(c.base, ref)
}

// ResolveURL is content.resolve against base (nil: none; PageBase gives a
// page's): ref as it resolves, an http(s) host by its key, as written
// when there is no base or ref does not parse.
func ResolveURL(base *url.URL, ref string) string {
	if base == nil || ref == "" {
		return ref
	}
	u, err := base.Parse(CleanRef(ref))
	if err != nil {
		return ref
	}
	if u.Scheme == "http" || u.Scheme == "https" {
		// A host IDNA refuses is keyed as written, percent-encoded by
		// String: it is a link all the same.
		u.Host, _ = spec.HostKey(u)
		if u.Path == "" && u.Opaque == "" && u.Host != "" {
			// https://a.example is https://a.example/ (RFC 3986,
			// 6.2.3).
			u.Path = "/"
		}
		normalizeURLPercent(u)
	}
	return u.String()
}

// normalizeURLPercent normalises the percent-encoding of u's path and
// query as vigil.CanonicalURL does (RFC 3986, 6.2.2): an unreserved
// character (a letter, a digit, - . _ ~) is decoded, any other keeps its
// encoding with its hex digits in upper case, so that /%7Euser, /%7euser
// and /~user are one link, and ?q=a%2Fb and ?q=a/b two. A library may not
// import the domain, hence this copy of its rule (vigil's url.go).
func normalizeURLPercent(u *url.URL) {
	if u.Opaque != "" {
		return
	}
	if p := u.EscapedPath(); strings.IndexByte(p, '%') >= 0 {
		escaped := normalizePercent(p)
		if decoded, err := url.PathUnescape(escaped); err == nil {
			u.Path, u.RawPath = decoded, escaped
		}
	}
	if strings.IndexByte(u.RawQuery, '%') >= 0 {
		u.RawQuery = normalizePercent(u.RawQuery)
	}
}

// normalizePercent decodes the percent-encoded unreserved characters of s
// and upper-cases the hex digits of the others.
func normalizePercent(s string) string {
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHexDigit(s[i+1]) && isHexDigit(s[i+2]) {
			c := unhexDigit(s[i+1])<<4 | unhexDigit(s[i+2])
			if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-._~", c) >= 0 {
				b.WriteByte(c)
			} else {
				b.WriteByte('%')
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&15])
			}
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func unhexDigit(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// CleanRef returns a URL reference written in an attribute (an href, a
// src) as a browser reads it before resolving it (the WHATWG URL
// standard's basic URL parser): without the ASCII tabs and newlines inside
// it, which an editor's line wrapping leaves in a long href
// ("guide/very-\nlong.html" is "guide/very-long.html"), and without white
// space at either end. url.Parse refuses a control character anywhere, so
// a link that every browser follows was no link: neither stored, nor
// followed by a site's crawl, nor counted for importance, nor resolved in
// the views. The links a page stores, those a crawl follows, those that
// count for importance and those the views show all clean their
// references with it, so that they resolve alike.
func CleanRef(ref string) string {
	if strings.ContainsAny(ref, "\t\n\r") {
		ref = strings.Map(func(r rune) rune {
			if r == '\t' || r == '\n' || r == '\r' {
				return -1
			}
			return r
		}, ref)
	}
	return strings.TrimSpace(ref)
}
