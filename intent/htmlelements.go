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
// MathML text integration point (isIntegrationPoint).
func integrationPoint(n *tree.Node, space string) bool {
	return isIntegrationPoint(localName(n.Name), space, func() string {
		enc, _ := attrFold(n, "encoding")
		return enc
	})
}

// isIntegrationPoint reports whether an element called name (in any case)
// of foreign content of space ("svg" or "math") holds HTML: svg's
// foreignObject, desc and title, MathML's mi, mo, mn, ms and mtext, and an
// annotation-xml whose encoding (read only for one) is text/html or
// application/xhtml+xml. walkHTMLElements reads a parsed page's elements
// by it, markupRefs the tags of a text.
func isIntegrationPoint(name, space string, encoding func() string) bool {
	name = strings.ToLower(name)
	if space == "svg" {
		return name == "foreignobject" || name == "desc" || name == "title"
	}
	switch name {
	case "mi", "mo", "mn", "ms", "mtext":
		return true
	case "annotation-xml":
		enc := encoding()
		return strings.EqualFold(enc, "text/html") || strings.EqualFold(enc, "application/xhtml+xml")
	}
	return false
}
