package intent

import "strings"

// URLAttr reports whether the attribute attr of an HTML element holds a
// URL that a reader is shown resolved (ResolveURL against PageBase)
// rather than as the page wrote it: any element's href, src or cite (a
// link's target, an image's source, a quotation's), whatever the element.
func URLAttr(attr string) bool {
	switch strings.ToLower(attr) {
	case "href", "src", "cite":
		return true
	}
	return false
}

// shown returns value, the value of leaf l of c as a record holds it, as
// a reader is shown it: an attribute of a page that holds a URL
// (URLAttr) resolved against the page's address (ResolveURL), with its
// signing parameters as the page wrote them (a leaf's src or href has
// none: attrValue), any other as it is.
func (c *content) shown(l *leaf, value string) string {
	if l != nil && l.kind == leafAttr && c.html && (strings.EqualFold(c.attrName(l), "src") || strings.EqualFold(c.attrName(l), "href")) {
		// The leaf's value is without its signing parameters
		// (attrValue); a reader is shown the URL the page wrote.
		value = normalizeSpaceOnly(l.node.Attrs[l.attr].Value, false)
	}
	if !c.resolves(l) {
		return value
	}
	return ResolveURL(c.base, value)
}

// sameURL reports whether r, a record of any change shown as c, is an
// update of a URL attribute of a page (URLAttr) whose old value, resolved
// against the old version's address and <base href>, is the URL its new
// value resolves to against the new version's: a page that came to write
// its images absolute, or its links relative, shows a reader what it
// showed, whatever its signing parameters (unsignedURL). Without a
// version's address nothing is resolved, and a rewrite is a change.
func sameURL(cp *contentPair, r cxRecord, c Change) bool {
	if r.op != Update || r.old == nil || r.new == nil || unsignedURL(c.Old) != unsignedURL(c.New) {
		return false
	}
	return cp.old.resolves(r.old.leaf) && cp.new.resolves(r.new.leaf) &&
		strings.EqualFold(cp.old.attrName(r.old.leaf), cp.new.attrName(r.new.leaf))
}

// resolves reports whether c shows l, a leaf of it, resolved (shown):
// an attribute of a page that holds a URL, when the page has an address.
func (c *content) resolves(l *leaf) bool {
	return l != nil && l.kind == leafAttr && c.html && c.base != nil && URLAttr(c.attrName(l))
}

// attrName returns the name of l, an attribute leaf.
func (c *content) attrName(l *leaf) string {
	return l.node.Attrs[l.attr].Name
}
