package crawl

import (
	"strings"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/tree"
)

// readsBody reports whether the crawl reads the body of a page of a
// media type, as the warehouse reads it (warehouse.ReadBody), for its
// title and links: the types of pages and of lists of pages, HTML
// (text/html, application/xhtml+xml), feeds (application/atom+xml,
// application/rss+xml, application/rdf+xml) and generic XML
// (application/xml, text/xml: a sitemap's, a feed's or XHTML's, as
// readsLinks tells), and a page served as text that is not markup
// (text/plain, JSON, CSV...: warehouse.ServedAsText), read as its source
// text unless it begins as markup. Other XML (image/svg+xml,
// application/mathml+xml, text/xsl, application/vnd.*+xml...) is a leaf,
// as a binary document is, though its version is its hash: an SVG's
// xlink:href or a vendor format's URLs are no pages of the site. Before,
// every XML type was read, and its xlink:href and <a href> followed; and
// before that, XML was a leaf.
func readsBody(mediaType string) bool {
	mt := vigil.MediaType(mediaType)
	return pageType(mt) || mt == "application/xml" || mt == "text/xml" || warehouse.ServedAsText(mediaType)
}

// pageType reports whether mt (vigil.MediaType's) is the type of a page
// or a list of pages by itself: HTML, XHTML or a feed.
func pageType(mt string) bool {
	switch mt {
	case "text/html", "application/xhtml+xml", "application/atom+xml", "application/rss+xml", "application/rdf+xml":
		return true
	}
	return false
}

// readsLinks reports whether a document read as a page (not as its
// source text), served as mediaType, which readsBody reads, is a page or
// a list of pages, whose title and links the crawl reads: HTML, XHTML and
// a feed by their types, and a document served otherwise (generic XML,
// or text that begins as markup) when its root is a feed's (intent.IsFeed),
// a sitemap's (intent.IsSitemap) or html, in the XHTML namespace or none
// (an HTML page parses to one). Another document is a leaf, without
// title or links.
func readsLinks(doc *tree.Document, mediaType string) bool {
	return pageType(vigil.MediaType(mediaType)) || intent.IsFeed(doc) || intent.IsSitemap(doc) || hasHTMLRoot(doc)
}

// xhtmlNamespace is the namespace of XHTML's elements.
const xhtmlNamespace = "http://www.w3.org/1999/xhtml"

// hasHTMLRoot reports whether doc's root element is html, in the XHTML
// namespace or in none.
func hasHTMLRoot(doc *tree.Document) bool {
	if doc == nil || doc.Root == nil || doc.Root.Kind != tree.Element {
		return false
	}
	prefix, local, found := strings.Cut(doc.Root.Name, ":")
	if !found {
		prefix, local = "", doc.Root.Name
	}
	if local != "html" {
		return false
	}
	decl := "xmlns"
	if prefix != "" {
		decl += ":" + prefix
	}
	ns, _ := doc.Root.Attr(decl)
	return ns == "" || ns == xhtmlNamespace
}

// isHTML reports whether a media type is an HTML or XHTML page.
func isHTML(mediaType string) bool {
	return mediaType == "text/html" || mediaType == "application/xhtml+xml"
}
