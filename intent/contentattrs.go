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
//   - value and placeholder of an input that is not type="hidden" (a
//     quantity, a search field's hint), placeholder of a textarea, value
//     of a meter and a progress (a gauge's level), label of an option, an
//     optgroup and a track: what the control shows. A hidden input's value
//     is a form's token, new at every fetch.
//   - content of a meta whose name or property (in any case) is
//     description, keywords or author, or starts with og:, twitter: or
//     product: (product:price:amount): the page's description to its
//     readers, to search engines and to the cards that share it. Other
//     metas are for machines, and some change at every fetch
//     (csrf-token).
//
// Every other attribute is not content: style, class and id only style
// or name an element, data-* attributes are a script's, nonces and
// srcset's cache busters change at every fetch, and a form's values
// (a button's, an option's) are sent, not shown. A link element's
// attributes are none: a style sheet's new version is no change of the
// page. In XML every attribute but a namespace declaration is content.
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
		if elem == "link" {
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

// attrValue returns the value of content attribute a as a leaf holds it:
// its value, white space normalised, and for an HTML state attribute its
// name in lower case.
func (c *content) attrValue(a tree.Attr) string {
	if c.html {
		if name := strings.ToLower(a.Name); isStateAttr(name) {
			return name
		}
	}
	return normalizeSpace(a.Value)
}

// isHiddenInput reports whether input element n is type="hidden".
func isHiddenInput(n *tree.Node) bool {
	t, _ := attrFold(n, "type")
	return strings.EqualFold(strings.TrimSpace(t), "hidden")
}

// readerMetaNames are the names (and properties) of the meta elements
// whose content is the page's description to its readers, and
// readerMetaPrefixes the prefixes of those of Open Graph, Twitter cards
// and Open Graph's products.
var (
	readerMetaNames    = []string{"description", "keywords", "author"}
	readerMetaPrefixes = []string{"og:", "twitter:", "product:"}
)

// isReaderMeta reports whether meta element n describes the page to its
// readers, by its name or property, in any case.
func isReaderMeta(n *tree.Node) bool {
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
			if strings.HasPrefix(v, p) {
				return true
			}
		}
	}
	return false
}
