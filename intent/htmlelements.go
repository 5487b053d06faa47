package intent

import (
	"strings"

	"github.com/vigil-web/vigil/tree"
)

// walkHTMLElements calls visit with each element under root, in document
// order, that a browser takes for an HTML element of the document: not
// one a template holds (its content is inert), nor one of foreign
// content, an svg or math element and what it holds (SVG and MathML
// elements, whatever their names), but what their HTML integration
// points hold, which is HTML again: svg's foreignObject, desc and title,
// MathML's mi, mo, mn, ms and mtext, and an annotation-xml whose encoding
// is text/html or application/xhtml+xml. The tree keeps no namespace: it
// tells foreign content by these elements' names, as the HTML parser
// gave them. visit returns false to end the walk.
func walkHTMLElements(root *tree.Node, visit func(n *tree.Node) bool) {
	done := false
	var walk func(n *tree.Node, space string)
	// walk walks the subtree of n in space: "" for HTML, else "svg" or
	// "math".
	walk = func(n *tree.Node, space string) {
		tree.Walk(n, func(m *tree.Node) bool {
			if done || m.Kind != tree.Element {
				return false
			}
			switch {
			case space == "" && elementIs(m, "template"):
				return false
			case space == "" && elementIs(m, "svg", "math"):
				walkChildren(m, strings.ToLower(localName(m.Name)), walk)
				return false
			case space == "":
				if !visit(m) {
					done = true
				}
				return !done
			case integrationPoint(m, space):
				walkChildren(m, "", walk)
				return false
			case space == "math" && elementIs(m, "svg") && m.Parent != nil && elementIs(m.Parent, "annotation-xml"):
				// An annotation-xml's svg is SVG, not MathML.
				walkChildren(m, "svg", walk)
				return false
			}
			return true
		})
	}
	walk(root, "")
}

// walkChildren walks each child of n in space.
func walkChildren(n *tree.Node, space string, walk func(*tree.Node, string)) {
	for _, c := range n.Children {
		walk(c, space)
	}
}

// integrationPoint reports whether n, an element of foreign content of
// space ("svg" or "math"), holds HTML: an HTML integration point or a
// MathML text integration point.
func integrationPoint(n *tree.Node, space string) bool {
	if space == "svg" {
		return elementIs(n, "foreignobject", "desc", "title")
	}
	if elementIs(n, "mi", "mo", "mn", "ms", "mtext") {
		return true
	}
	if elementIs(n, "annotation-xml") {
		enc, _ := attrFold(n, "encoding")
		return strings.EqualFold(enc, "text/html") || strings.EqualFold(enc, "application/xhtml+xml")
	}
	return false
}
