package xmlpatch

import (
	"slices"

	"github.com/vigil-web/vigil/tree"
)

// adopt returns the nodes an operation adds, made for the document: the
// content as written in the patch (names read in the patch's scope at the
// operation, ps), named so that each element and attribute keeps its
// namespace where it goes (under an element with scope ts, nil at the
// document level), RFC 5261 section 4.2's "namespace mangling". A name
// keeps its prefix where the document binds it to the same namespace;
// otherwise it takes no prefix if the namespace is the document's default
// there, or another prefix the document binds to it, or, failing all,
// its own prefix with a declaration added to the element. The content's
// own namespace declarations are kept as they are.
func adopt(doc *tree.Document, content []*tree.Node, ps, ts *scope) ([]*tree.Node, *locateError) {
	type frame struct {
		src, dst *tree.Node
		ps, ts   *scope
	}
	out := make([]*tree.Node, len(content))
	var stack []frame
	for i, c := range content {
		out[i] = doc.NewNode(c.Kind, c.Name, c.Value)
		stack = append(stack, frame{c, out[i], ps, ts})
	}
	for len(stack) > 0 {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if f.src.Kind != tree.Element {
			continue
		}
		psc := f.ps.push(f.src.Attrs)
		attrs := slices.Clone(f.src.Attrs)
		tsc := f.ts.push(attrs)
		declare := func(prefix, uri string) {
			name := "xmlns"
			if prefix != "" {
				name += ":" + prefix
			}
			attrs = append(attrs, tree.Attr{Name: name, Value: uri})
			tsc = tsc.bind(prefix, uri)
		}
		if elementName(f.src.Name) {
			p, l := splitQName(f.src.Name)
			u, ok := psc.lookup(p)
			if !ok && p != "" {
				return nil, locErr(InvalidNamespacePrefix, "prefix %s of <%s> is not declared in the patch", p, f.src.Name)
			}
			switch q, found := tsc.prefixFor(u); {
			case p != "" && tsc.uri(p) == u:
			case tsc.uri("") == u:
				f.dst.Name = l
			case found && u != "":
				f.dst.Name = q + ":" + l
			default:
				declare(p, u)
			}
		}
		for i, a := range attrs {
			p, l := splitQName(a.Name)
			if _, decl := declaration(a.Name); decl || p == "" || !isQName(a.Name) {
				continue
			}
			u, ok := psc.lookup(p)
			if !ok {
				return nil, locErr(InvalidNamespacePrefix, "prefix %s of attribute %s is not declared in the patch", p, a.Name)
			}
			if tsc.uri(p) == u {
				continue
			}
			if q, found := tsc.prefixFor(u); found {
				attrs[i].Name = q + ":" + l
				continue
			}
			declare(p, u)
		}
		if len(attrs) > 0 {
			f.dst.Attrs = attrs
		}
		if len(f.src.Children) > 0 {
			f.dst.Children = make([]*tree.Node, len(f.src.Children))
		}
		for i, c := range f.src.Children {
			cc := doc.NewNode(c.Kind, c.Name, c.Value)
			cc.Parent = f.dst
			f.dst.Children[i] = cc
			stack = append(stack, frame{c, cc, psc, tsc})
		}
	}
	return out, nil
}
