package intent

import (
	"slices"
	"strings"

	"github.com/vigil-web/vigil/tree"
)

// An HTML attribute is content, a leaf of any change, when a reader of
// the page sees it, hears it or acts on it, and a page does not rewrite it
// at every fetch. Each rule and its reason:
//
//   - href, src and alt, on any element (but link, below): where a link
//     leads, which image is shown, and the text that stands for it.
//   - title and aria-label, on any element: text a reader gets, as a
//     tooltip or from a screen reader ("Sold out" on an icon).
//   - disabled, checked, selected, hidden and open, on any element: the
//     state of a control or a region. Their presence is the change (a buy
//     button that loses disabled is back in stock), so their leaf's value
//     is the attribute's name, whatever is written after it (disabled,
//     disabled="" and disabled="disabled" are one state), and the leaf
//     appears and disappears with the attribute.
//   - value and placeholder of an input that is not hidden (a quantity, a
//     search field's hint), placeholder of a textarea, value of a meter
//     and a progress (a gauge's level), label of an option, an optgroup
//     and a track: what the control shows. An input is hidden when it is
//     type="hidden", has the hidden attribute or sits in an element that
//     has it: its value is a form's token (or a honeypot's), new at every
//     fetch, and no reader sees it. Texts under hidden stay content, as
//     a page hides a notice to show it later ("Back soon"); a hidden
//     field is there to be sent. When the hidden attribute goes, its
//     removal is the change, and the field's value and placeholder come
//     as leaves added.
//   - content of a meta whose name or property (in any case) is
//     description, keywords or author, or starts with og:, twitter: or
//     product: (og:title, twitter:description, product:price:amount): the
//     page's description to its readers, to search engines and to the
//     cards that share it, og:site_name, twitter:site and
//     twitter:creator included, which a link's preview shows. Not those
//     of them for machines (machineMetaKeys): an image's, a video's or a
//     player's address, size and type (og:image, og:image:width,
//     twitter:image), the page's address, type and locale (og:url,
//     og:type, og:locale), the card's kind (twitter:card), an app's ids;
//     nor any whose content is an absolute URL (https://, //): a signed
//     CDN address changes at every fetch. An image's alternative text
//     (og:image:alt) stays. Other metas are for machines, and some change
//     at every fetch (csrf-token).
//
// Every other attribute is not content: style, class and id only style
// or name an element, data-* attributes are a script's, nonces and
// srcset's cache busters change at every fetch, and a form's values
// (a button's, an option's) are sent, not shown. A link element's
// attributes are none (a style sheet's new version is no change of the
// page, nor is an icon's or a canonical address's), but the href of one
// whose rel is a paging relation, next, prev or previous: where the next
// page of a listing is, as the "Next" link of its body says, which a site
// crawl follows (before, a <link rel="next"> added or gone was no change).
// In XML every attribute but a namespace declaration is content.
//
// An element without text or content attributes (an <hr> added) holds no
// leaf, so any change does not see it come or go.

// contentAttrs returns the indexes in n.Attrs of the attributes of element
// n that are content leaves, by name: the order attributes are written in
// is no change (an image's alt before its src or after). The list is valid
// until the next call.
func (c *content) contentAttrs(n *tree.Node) []int32 {
	if len(n.Attrs) == 0 {
		return nil
	}
	var elem string
	if c.html {
		elem = strings.ToLower(localName(n.Name))
		if elem == "link" && !IsPagingLink(n) {
			return nil
		}
	}
	out := c.attrBuf[:0]
	for i, a := range n.Attrs {
		if c.isContentAttr(n, elem, a.Name) {
			out = append(out, int32(i))
		}
	}
	c.attrBuf = out
	if len(out) > 1 {
		slices.SortStableFunc(out, func(x, y int32) int { return strings.Compare(n.Attrs[x].Name, n.Attrs[y].Name) })
	}
	return out
}

// isContentAttr reports whether the attribute called name of element n
// (elem, its local name in lower case, in HTML) is content: in HTML by the
// rules above, in XML any but a namespace declaration.
func (c *content) isContentAttr(n *tree.Node, elem, name string) bool {
	if !c.html {
		return name != "xmlns" && !strings.HasPrefix(name, "xmlns:")
	}
	name = strings.ToLower(name)
	if elem == "link" {
		return name == "href" // a paging link's (contentAttrs)
	}
	if isStateAttr(name) {
		return true
	}
	switch name {
	case "href", "src", "alt", "title", "aria-label":
		return true
	case "value":
		switch elem {
		case "input":
			return !isHiddenInput(n)
		case "meter", "progress":
			return true
		}
	case "placeholder":
		return elem == "textarea" || elem == "input" && !isHiddenInput(n)
	case "label":
		return elem == "option" || elem == "optgroup" || elem == "track"
	case "content":
		return elem == "meta" && isReaderMeta(n)
	}
	return false
}

// isStateAttr reports whether an HTML attribute called name (in lower
// case) is a state whose presence is its value.
func isStateAttr(name string) bool {
	switch name {
	case "disabled", "checked", "selected", "hidden", "open":
		return true
	}
	return false
}

// IsPagingLink reports whether HTML link element n is a link to another
// page of a listing split in pages: its rel names, among its
// space-separated tokens in any case, next, prev or previous (RFC 5005's
// spelling, which some pages write). Its href is content (a change of
// any change), and a site crawl follows it.
func IsPagingLink(n *tree.Node) bool {
	for _, a := range n.Attrs {
		if !strings.EqualFold(a.Name, "rel") {
			continue
		}
		for _, tok := range strings.Fields(a.Value) {
			if strings.EqualFold(tok, "next") || strings.EqualFold(tok, "prev") || strings.EqualFold(tok, "previous") {
				return true
			}
		}
		return false
	}
	return false
}

// attrValue returns the value of content attribute a as a leaf holds it:
// its value, white space normalised (and, but in a URL, the invisible
// characters left out: normalizeSpace), for an HTML state attribute its
// name in lower case, and for an HTML src or href without its signing
// parameters (unsignedURL: a signed image URL or download link is new at
// every fetch; a record shows the URL as written, content.shown).
func (c *content) attrValue(a tree.Attr) string {
	if c.html {
		name := strings.ToLower(a.Name)
		if isStateAttr(name) {
			return name
		}
		if name == "src" || name == "href" {
			return unsignedURL(normalizeSpaceOnly(a.Value, false))
		}
	}
	// A URL is another address with an invisible character in it; a
	// text (an alt, a title) is the same text without one.
	return normalizeSpaceOnly(a.Value, !URLAttr(a.Name))
}

// isHiddenInput reports whether input element n is hidden from a reader:
// type="hidden", or n or an element it sits in has the hidden attribute.
func isHiddenInput(n *tree.Node) bool {
	t, _ := attrFold(n, "type")
	if strings.EqualFold(strings.TrimSpace(t), "hidden") {
		return true
	}
	for m := n; m != nil; m = m.Parent {
		if m.Kind != tree.Element {
			continue
		}
		if _, ok := attrFold(m, "hidden"); ok {
			return true
		}
	}
	return false
}

// readerMetaNames are the names (and properties) of the meta elements
// whose content is the page's description to its readers, and
// readerMetaPrefixes the prefixes of those of Open Graph, Twitter cards
// and Open Graph's products.
var (
	readerMetaNames    = []string{"description", "keywords", "author"}
	readerMetaPrefixes = []string{"og:", "twitter:", "product:"}
)

// machineMetaKeys are the names (and properties) among the reader metas'
// whose content is for machines: an address, a type, a size, a locale,
// an id. A key is one of them when it is one or starts with one and ":"
// (og:image:width), unless it ends with ":alt" (og:image:alt, an image's
// text).
var machineMetaKeys = []string{
	"og:url", "og:type", "og:locale", "og:determiner",
	"og:image", "og:video", "og:audio",
	"twitter:card", "twitter:url", "twitter:image", "twitter:player", "twitter:app",
	"twitter:site:id", "twitter:creator:id",
}

// isMachineMetaKey reports whether a meta's name or property, in lower
// case, is one of machineMetaKeys or under one of them.
func isMachineMetaKey(key string) bool {
	if strings.HasSuffix(key, ":alt") {
		return false
	}
	for _, k := range machineMetaKeys {
		if rest, ok := strings.CutPrefix(key, k); ok && (rest == "" || rest[0] == ':') {
			return true
		}
	}
	return false
}

// isURL reports whether s, a meta's content, is an absolute URL (with a
// scheme or from //).
func isURL(s string) bool {
	s = strings.ToLower(strings.TrimSpace(s))
	return strings.HasPrefix(s, "https://") || strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "//")
}

// isReaderMeta reports whether meta element n describes the page to its
// readers, by its name or property, in any case, and its content is not
// for machines (isMachineMetaKey, isURL).
func isReaderMeta(n *tree.Node) bool {
	if content, _ := attrFold(n, "content"); isURL(content) {
		return false
	}
	for _, key := range []string{"name", "property"} {
		v, ok := attrFold(n, key)
		if !ok {
			continue
		}
		v = strings.ToLower(strings.TrimSpace(v))
		if slices.Contains(readerMetaNames, v) {
			return true
		}
		for _, p := range readerMetaPrefixes {
			if strings.HasPrefix(v, p) && !isMachineMetaKey(v) {
				return true
			}
		}
	}
	return false
}
