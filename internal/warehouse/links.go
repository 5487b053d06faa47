package warehouse

import (
	"cmp"
	"net/url"
	"strings"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/spec"
	"github.com/vigil-web/vigil/tree"
)

// ExtractLinks returns the outgoing links of a document fetched from
// pageURL, in document order: every <a> or <area> with an href (HTML,
// matched case-insensitively) and every element with an xlink:href (XML),
// but those inside a <template>, whose content is inert (a browser
// neither shows nor follows it; markup.HTMLLinks leaves them out too), or
// a <noscript>, whose content a browser that runs scripts does not show
// (intent.HoldsNoLinks: the HTML parser reads it as text; an XHTML page's
// is left out alike),
// resolved against pageURL and its base (intent.PageBase, as the page's
// views and change records resolve them: the first base element with an
// href, passed over for pageURL when it is not http or https, an ftp: or
// javascript: one) and canonicalised (the fragment kept), with the anchor's text (white space collapsed) and the
// WHOWEDA link type (vigil.ClassifyLink). A feed's links are its feed
// links instead (intent.FeedLinks: the hrefs of Atom links to content,
// not self, edit or replies ones, and content src, resolved against
// xml:base; RSS links, enclosures and permalink guids; RSS 1.0 items'
// rdf:about), as a links sentinel reads them, each named by the title of
// its entry, else by its target. A host spelt in Unicode or
// percent-encoded in UTF-8 ("bücher.example", "b%C3%BCcher.example") is
// given in its ASCII (punycode) form, as every stored URL is; hrefs that
// are not http(s) (mailto:, javascript:...) and hosts IDNA or DNS refuse
// (spec.CheckHostName: an empty label, "a..example" or "a.example..", a
// label over 63 bytes, a name over 253) are left out, as are other
// invalid hrefs. The monitor,
// which parses every version anyway, passes the result in Fetch.Links; Put
// extracts them itself only with Options.ExtractLinks.
func ExtractLinks(doc *tree.Document, pageURL string) []*vigil.Link {
	return extractLinks(doc, pageURL, false)
}

// ExtractSiteLinks returns the links of a document fetched from pageURL
// that a site crawl follows: ExtractLinks's, and for a feed its links to
// its own other pages too, in document order among them
// (intent.FeedLinksWithPages: the Atom links whose rel is a paging
// relation of RFC 5005, next, previous, first, last, prev-archive,
// next-archive or current), so that a crawl reaches the entries of the
// older pages of a feed split in pages, which a links sentinel does not
// count as links of the feed. Of an XML sitemap of sitemaps.org (a urlset
// or a sitemapindex, intent.IsSitemap) they are instead its <loc> URLs,
// the pages of a urlset or the child sitemaps of an index, in document
// order (intent.SitemapLinks), each labelled by its target, so that a
// crawl starting at /sitemap.xml reaches the pages it lists; ExtractLinks
// reads a sitemap as any other XML document.
func ExtractSiteLinks(doc *tree.Document, pageURL string) []*vigil.Link {
	return extractLinks(doc, pageURL, true)
}

// extractLinks is ExtractLinks, and with crawl set ExtractSiteLinks: a
// feed's paging links and a sitemap's locs too.
func extractLinks(doc *tree.Document, pageURL string, crawl bool) []*vigil.Link {
	source, ok := linkSource(doc, pageURL)
	if !ok {
		return nil
	}
	base, err := url.Parse(source)
	if err != nil {
		return nil
	}
	var out []*vigil.Link
	sitemap := crawl && intent.IsSitemap(doc)
	if sitemap || intent.IsFeed(doc) {
		feedLinks := intent.FeedLinks
		switch {
		case sitemap:
			feedLinks = intent.SitemapLinks
		case crawl:
			feedLinks = intent.FeedLinksWithPages
		}
		for _, l := range feedLinks(doc, base) {
			if link, ok := newLink(source, base, l.URL, l.Text); ok {
				if link.Anchor == "" {
					link.Anchor = link.Target
				}
				out = append(out, link)
			}
		}
		return out
	}
	// The page's base is the one its views and change records take
	// (intent.PageBase): its first base element with an href, if that
	// is http or https, else the page's own address.
	if b := intent.PageBase(source, doc); b != nil {
		base = b
	}
	tree.Walk(doc.Root, func(n *tree.Node) bool {
		if n.Kind != tree.Element {
			return true
		}
		href, ok := "", false
		if intent.HoldsNoLinks(n) {
			// A template's content is inert, a noscript's not shown
			// where scripts run: no link of the page.
			return false
		}
		switch strings.ToLower(n.Name) {
		case "a", "area":
			href, ok = attr(n, "href")
		}
		if !ok {
			href, ok = n.Attr("xlink:href")
		}
		if !ok {
			return true
		}
		if link, ok := newLink(source, base, href, anchorText(n)); ok {
			out = append(out, link)
		}
		return true
	})
	return out
}

// newLink returns the link from the page source to href, resolved against
// base (read as written when base is nil), named anchor: its target
// canonical (CanonicalLink), the fragment kept; false for an href that is
// not http(s) or is invalid.
func newLink(source string, base *url.URL, href, anchor string) (*vigil.Link, bool) {
	var u *url.URL
	var err error
	if base != nil {
		u, err = base.Parse(intent.CleanRef(href))
	} else {
		u, err = url.Parse(intent.CleanRef(href))
	}
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, false
	}
	target, err := CanonicalLink(u)
	if err != nil {
		return nil, false
	}
	if u.Fragment != "" {
		target += "#" + u.EscapedFragment()
	}
	return &vigil.Link{Source: source, Target: target, Anchor: anchor, Type: vigil.ClassifyLink(source, target)}, true
}

// versionLinks returns the links Put stores of doc, the tree of a version
// of the resource at resourceURL whose body was read from pageURL
// (vigil.Version.PageURL: the final URL of a redirect, else
// resourceURL): ExtractLinks's, or for a body read as its source text
// (asText) ExtractTextLinks's, resolved against pageURL, the address the
// page's relative links name pages from, each with resourceURL as its
// Source (vigil.Link.Source is the version's resource). Its Type is that
// of the link from the page as read (an href="#top" is interior).
func versionLinks(doc *tree.Document, asText bool, resourceURL, pageURL string) []*vigil.Link {
	if doc == nil {
		return nil
	}
	extract := ExtractLinks
	if asText {
		// Read as its source text: the URLs written in it.
		extract = ExtractTextLinks
	}
	links := extract(doc, pageURL)
	if pageURL != resourceURL {
		for _, l := range links {
			l.Source = resourceURL
		}
	}
	return links
}

// ExtractTextLinks returns the outgoing links of a document read as its
// source text (ReadBody's readAsText: a body served as text that is not
// markup, or one that does not parse), fetched from pageURL, in the order
// they are written, as a links sentinel reads them (intent.SourceLinks):
// the absolute http(s) URLs written in its text, as intent.TextLinks
// finds them (JSON's escaped https:\/\/ and www.example.org\/ ones
// unescaped, GitHub's www. ones with http:// before them), each named by
// its Markdown label ([label](URL)) or else by the URL as written (so
// unescaped, with its http://); and the URLs its a and area elements'
// href (and any xlink:href) write relative (HTML read as text, markup in
// a JSON string: <a href="/docs/a">), the links ExtractLinks would give
// of the page parsed, not an img's or a script's src nor a stylesheet's
// href, written relative or absolute (which a links sentinel reading the
// text takes too), resolved against pageURL or the text's first base
// element, each named by its target. A target is canonical as
// ExtractLinks's are (its host in ASCII, its fragment kept), and a URL
// ExtractLinks would leave out (not http(s), a host IDNA or DNS refuses)
// is left out. Only the caller knows that a document is read as text: a
// page's own <pre> of URLs has no links but its <a> elements, which
// ExtractLinks gives. An absolute URL is read within one text node, one a
// line of the source (ReadBody), so never across a line; a tag may run
// over lines. Before, the URLs written relative were not read: the crawl
// of an HTML page too deep to parse did not follow its relative links.
func ExtractTextLinks(doc *tree.Document, pageURL string) []*vigil.Link {
	source, ok := linkSource(doc, pageURL)
	if !ok {
		return nil
	}
	base, err := url.Parse(source)
	if err != nil {
		return nil
	}
	var out []*vigil.Link
	for _, l := range intent.SourceLinks(doc.Root, base) {
		if l.Resource {
			continue // an img's or a script's src, a stylesheet's href
		}
		if !l.Relative {
			// Read as written: its host as the text spells it, so
			// that one IDNA or DNS refuses is left out.
			if link, ok := newLink(source, nil, l.Ref, cmp.Or(l.Label, l.Ref)); ok {
				out = append(out, link)
			}
		} else if link, ok := newLink(source, l.Base, l.Ref, ""); ok {
			link.Anchor = link.Target
			out = append(out, link)
		}
	}
	return out
}

// linkSource returns the canonical URL of the page a document was read
// from, the Source of its links; false when there is no document or the
// URL cannot key one (a page has then no links to store).
func linkSource(doc *tree.Document, pageURL string) (string, bool) {
	if doc == nil || doc.Root == nil {
		return "", false
	}
	page, err := url.Parse(strings.TrimSpace(pageURL))
	if err != nil {
		return "", false
	}
	source, err := CanonicalLink(page)
	return source, err == nil
}

// CanonicalLink returns the canonical form of u (vigil.CanonicalURL), its
// host in ASCII first (spec.ASCIIHost): an href, a <base href> or a page's
// URL may spell an internationalised host in Unicode or percent-encoded,
// and a link's target is stored in the punycode form every stored URL
// holds, so that one host has one key. It sets u's host to that form. A
// host IDNA or DNS refuses (spec.CheckHostName, which CanonicalURL leaves
// to its callers) is EINVALID, naming it: no resource is stored under it,
// and no fetch can reach it.
func CanonicalLink(u *url.URL) (string, error) {
	if err := spec.CheckASCIIHost(u); err != nil {
		return "", vigil.Errorf(vigil.EINVALID, "url %q: %v", vigil.RedactURL(u.String()), err)
	}
	return vigil.CanonicalURL(u.String())
}

// anchorText is the text of an anchor, its text nodes joined by a space
// (the parser's white-space policy may have trimmed the space between
// "About" and <b>us</b>) and white space collapsed.
func anchorText(n *tree.Node) string {
	var parts []string
	tree.Walk(n, func(m *tree.Node) bool {
		if m.Kind == tree.Text {
			parts = append(parts, m.Value)
		}
		return true
	})
	return strings.Join(strings.Fields(strings.Join(parts, " ")), " ")
}

func attr(n *tree.Node, name string) (string, bool) {
	for _, a := range n.Attrs {
		if strings.EqualFold(a.Name, name) {
			return a.Value, true
		}
	}
	return "", false
}
