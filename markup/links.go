package markup

import (
	"bytes"

	"golang.org/x/net/html"
)

// HTMLLinks returns, in document order, the raw href values of the links
// of an HTML page (a and area elements' href, any element's xlink:href)
// and of its base elements, its character references decoded, without
// building a tree: a crawler that wants only a page's out-links (its
// importance) reads them at the cost of tokenising the page. The values
// are as written: the caller resolves them against the page's URL and
// its bases in turn (a base resolved against the one before). An element
// with both an href and an xlink:href gives its href. A body cut short
// gives the links read so far.
func HTMLLinks(b []byte) (hrefs, bases []string) {
	z := html.NewTokenizer(bytes.NewReader(b))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return hrefs, bases // io.EOF, or what was read before an error
		case html.StartTagToken, html.SelfClosingTagToken:
		default:
			continue
		}
		name, more := z.TagName()
		if !more {
			continue
		}
		anchor := string(name) == "a" || string(name) == "area"
		isBase := string(name) == "base"
		var href, xlink string
		var hasHref, hasXlink bool
		for more {
			var k, v []byte
			k, v, more = z.TagAttr()
			switch {
			case (anchor || isBase) && !hasHref && string(k) == "href":
				href, hasHref = string(v), true
			case !hasXlink && string(k) == "xlink:href":
				xlink, hasXlink = string(v), true
			}
		}
		switch {
		case isBase:
			if hasHref {
				bases = append(bases, href)
			}
		case anchor && hasHref:
			hrefs = append(hrefs, href)
		case hasXlink:
			hrefs = append(hrefs, xlink)
		}
	}
}
