package intent

import "strings"

// URLAttr reports whether the attribute attr of an HTML element holds a
// URL that a reader is shown resolved (ResolveURL against PageBase)
// rather than as the page wrote it: any element's href, src or cite (a
// link's target, an image's source, a quotation's). The element does not
// matter in HTML; it is named so that a caller need not know that.
func URLAttr(element, attr string) bool {
	switch strings.ToLower(attr) {
	case "href", "src", "cite":
		return true
	}
	return false
}

// shown returns value, the value of leaf l of c as a record holds it, as
// a reader is shown it: an attribute of a page that holds a URL
// (URLAttr) resolved against the page's address (ResolveURL), any other
// as it is.
func (c *content) shown(l *leaf, value string) string {
	if l == nil || l.kind != leafAttr || !c.html || c.base == nil {
		return value
	}
	if !URLAttr(l.node.Name, l.node.Attrs[l.attr].Name) {
		return value
	}
	return ResolveURL(c.base, value)
}
