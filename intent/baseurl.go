package intent

import (
	"net/url"
	"strings"

	"github.com/vigil-web/vigil/spec"
	"github.com/vigil-web/vigil/tree"
)

// at sets the address c's document was read from, against which its links
// and image sources resolve (through its <base href>, in HTML), and
// returns c.
func (c *content) at(page string) *content {
	if page == "" {
		return c
	}
	base, err := url.Parse(page)
	if err != nil || !base.IsAbs() {
		return c
	}
	if c.html && c.doc.Root != nil {
		// The first base element with an href, as browsers take it.
		found := false
		tree.Walk(c.doc.Root, func(n *tree.Node) bool {
			if found {
				return false
			}
			if elementIs(n, "base") {
				if href, ok := attrFold(n, "href"); ok {
					if b, err := base.Parse(strings.TrimSpace(href)); err == nil {
						base = b
					}
					found = true
				}
			}
			return !elementIs(n, "body")
		})
	}
	c.base = base
	return c
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
	return resolveAgainst(c.base, ref)
}

// resolveAgainst is content.resolve against base (nil: none).
func resolveAgainst(base *url.URL, ref string) string {
	if base == nil || ref == "" {
		return ref
	}
	u, err := base.Parse(ref)
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
	}
	return u.String()
}
