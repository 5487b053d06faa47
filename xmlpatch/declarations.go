package xmlpatch

import (
	"fmt"
	"slices"

	"github.com/vigil-web/vigil/tree"
)

// A namespace step locates a namespace node: one of the namespaces in
// scope at an element, which it declares itself or inherits (XPath 1.0,
// section 5.4). Vigil's trees hold namespaces as the declarations the
// document makes (xmlns attributes), so an operation on a namespace node
// is one on a declaration: the element must make it (RFC 5261, sections
// 4.4.3 and 4.5), and one that names still use cannot be removed.

// inheritedNamespace is the failure of a replace or a remove of a
// namespace node that the element inherits: its declaration is on an
// ancestor (or, for xml, nowhere).
func inheritedNamespace(loc *located) (Condition, string) {
	return problem(InvalidNamespaceURI, "element %s inherits prefix %s: it has no declaration of it to change", loc.node.Name, loc.prefix)
}

// removeDeclaration removes the declaration of a namespace node, which
// no name in its scope may use: they would be left with a prefix nothing
// binds (RFC 5261, section 4.5).
func (a *applier) removeDeclaration(loc *located) (Condition, string) {
	if loc.attr < 0 {
		return inheritedNamespace(loc)
	}
	n := loc.node
	// xml is bound without a declaration: removing one changes no name.
	if loc.prefix != "xml" {
		if use := prefixUse(n, loc.prefix, a.w); use != "" {
			return problem(InvalidNamespacePrefix, "%s uses prefix %s: the declaration on %s cannot be removed", use, loc.prefix, n.Name)
		}
	}
	n.Attrs = slices.Delete(n.Attrs, loc.attr, loc.attr+1)
	a.declarationsChanged()
	return "", ""
}

// prefixUse returns the first name in the scope of n's declaration of
// prefix that uses it: n's name or one of its attributes, or those of a
// descendant that does not declare prefix again; "" for none. It
// describes the name for a message (pref:foo, attribute pref:a of doc).
// w counts the nodes it visits; it stops once the work is over its limit.
func prefixUse(n *tree.Node, prefix string, w *work) string {
	var use string
	tree.Walk(n, func(m *tree.Node) bool {
		w.add(1 + len(m.Attrs))
		if use != "" || m.Kind != tree.Element || w.over() {
			return false
		}
		if m != n {
			if _, redeclared := m.Attr("xmlns:" + prefix); redeclared {
				return false
			}
		}
		if p, _ := splitQName(m.Name); p == prefix {
			use = m.Name
			return false
		}
		for _, a := range m.Attrs {
			if _, decl := declaration(a.Name); decl {
				continue
			}
			if p, _ := splitQName(a.Name); p == prefix {
				use = fmt.Sprintf("attribute %s of %s", a.Name, m.Name)
				return false
			}
		}
		return true
	})
	return use
}
