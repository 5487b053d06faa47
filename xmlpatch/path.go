package xmlpatch

import (
	"strconv"

	"github.com/vigil-web/vigil/tree"
)

// binder collects the namespace bindings one operation of an export
// needs: exact ones for the prefixes its content and attribute names use
// as written, and chosen ones for the namespaces its selector names.
type binder struct {
	binds map[string]string
	fresh *freshPrefixes
}

// need binds prefix to uri exactly; it reports false if the operation
// already binds the prefix to another namespace.
func (b *binder) need(prefix, uri string) bool {
	if prefix == "" || prefix == "xml" {
		return true
	}
	if u, ok := b.binds[prefix]; ok {
		return u == uri
	}
	if b.binds == nil {
		b.binds = map[string]string{}
	}
	b.binds[prefix] = uri
	return true
}

// prefixFor returns a prefix bound to uri for a selector, preferring the
// name's own prefix, binding one if none is.
func (b *binder) prefixFor(uri, own string) string {
	if uri == xmlNamespace {
		return "xml"
	}
	if own != "" && b.binds[own] == uri {
		return own
	}
	for _, k := range sortedKeys(b.binds) {
		if b.binds[k] == uri {
			return k
		}
	}
	if own != "" && own != "xml" && own != "xmlns" && b.need(own, uri) {
		return own
	}
	f := b.fresh.get(uri)
	b.need(f, uri)
	return f
}

// freshPrefixes gives each namespace that needs one a prefix that neither
// version of the document uses: ns1, ns2...
type freshPrefixes struct {
	used  map[string]bool
	byURI map[string]string
	next  int
}

func newFreshPrefixes(docs ...*tree.Document) *freshPrefixes {
	f := &freshPrefixes{used: map[string]bool{}, byURI: map[string]string{}}
	for _, d := range docs {
		tree.Walk(d.Root, func(n *tree.Node) bool {
			if n.Kind != tree.Element {
				return true
			}
			p, _ := splitQName(n.Name)
			f.used[p] = true
			for _, a := range n.Attrs {
				p, l := splitQName(a.Name)
				f.used[p] = true
				if p == "xmlns" {
					f.used[l] = true
				}
			}
			return true
		})
	}
	return f
}

func (f *freshPrefixes) get(uri string) string {
	if p, ok := f.byURI[uri]; ok {
		return p
	}
	for {
		f.next++
		p := "ns" + strconv.Itoa(f.next)
		if !f.used[p] {
			f.used[p] = true
			f.byURI[uri] = p
			return p
		}
	}
}

// appendSelector appends to dst a selector that locates n, an attached
// node of doc, and only n: an absolute path of element names with
// positions among the siblings of the same name where there are several
// (/catalog/product[2]/price), ending in text()[k], comment()[k] or
// processing-instruction('t')[k] for those nodes. An element whose name
// cannot stand in a selector is *[k]. The positions come from sib when
// it is not nil; root is the scope at the document node. It builds the
// path in place, without a string a step.
func appendSelector(dst []byte, doc *tree.Document, n *tree.Node, b *binder, sib *siblings, root *scope) []byte {
	if n.Parent == nil && n != doc.Root {
		// A comment or processing instruction around the root.
		dst = append(dst, '/')
		return append(dst, leafStep(n, docChildren(doc))...)
	}
	leaf := n.Kind != tree.Element
	start := n
	if leaf {
		start = n.Parent
	}
	// The elements from n's parent (or n) up to the root.
	var buf [32]*tree.Node
	chain := buf[:0]
	for m := start; m != nil; m = m.Parent {
		chain = append(chain, m)
	}
	s := root
	for i := len(chain) - 1; i >= 0; i-- {
		e := chain[i]
		ps := s
		s = s.push(e.Attrs)
		dst = append(dst, '/')
		dst = appendElementStep(dst, e, ps, s, b, sib)
	}
	if leaf {
		dst = append(dst, '/')
		if sib != nil {
			ent := sib.of(n.Parent, s).lookup(n)
			k := int(ent.ords[0])
			if n.Kind == tree.ProcInst {
				k = int(ent.ords[1]) // among those of its target
			}
			dst = appendLeafStep(dst, n, k)
		} else {
			dst = append(dst, leafStep(n, n.Parent.Children)...)
		}
	}
	return dst
}

// elementStep writes the step for element e, whose parent's scope is ps
// and whose own is s, counting its siblings with sib when it is not nil.
func elementStep(e *tree.Node, ps, s *scope, b *binder, sib *siblings) string {
	return string(appendElementStep(nil, e, ps, s, b, sib))
}

// appendElementStep appends the step elementStep writes to dst.
func appendElementStep(dst []byte, e *tree.Node, ps, s *scope, b *binder, sib *siblings) []byte {
	var t test
	if elementName(e.Name) {
		x := elementExpanded(e.Name, s)
		t.name = x
		if x.uri == "" {
			dst = append(dst, x.local...)
		} else {
			own, _ := splitQName(e.Name)
			dst = append(dst, b.prefixFor(x.uri, own)...)
			dst = append(dst, ':')
			dst = append(dst, x.local...)
		}
	} else {
		t.any = true
		dst = append(dst, '*')
	}
	if e.Parent == nil {
		return dst
	}
	k, total := 0, 0
	if sib != nil {
		ci := sib.of(e.Parent, ps)
		ent := ci.lookup(e)
		if t.any {
			k, total = int(ent.ords[0]), ci.total(ent.ids[0])
		} else {
			// The third group: by expanded name, among the elements whose
			// name can stand in a selector.
			k, total = int(ent.ords[2]), ci.total(ent.ids[2])
		}
	} else {
		for _, c := range e.Parent.Children {
			if c.Kind != tree.Element {
				continue
			}
			if c == e {
				total++
				k = total
				continue
			}
			if t.any || t.mayMatch(c.Name) && elementName(c.Name) && t.matches(c.Name, ps.push(c.Attrs)) {
				total++
			}
		}
	}
	if total > 1 {
		dst = append(dst, '[')
		dst = strconv.AppendInt(dst, int64(k), 10)
		dst = append(dst, ']')
	}
	return dst
}

// leafStep writes text()[k], comment()[k] or
// processing-instruction('t')[k] for n among its siblings.
func leafStep(n *tree.Node, siblings []*tree.Node) string {
	k := 0
	for _, c := range siblings {
		if c.Kind == n.Kind && (n.Kind != tree.ProcInst || c.Name == n.Name) {
			k++
		}
		if c == n {
			break
		}
	}
	return leafStepAt(n, k)
}

// leafStepAt writes the step of leaf n, the k-th of its kind (and target)
// among its siblings.
func leafStepAt(n *tree.Node, k int) string {
	return string(appendLeafStep(nil, n, k))
}

// appendLeafStep appends the step leafStepAt writes to dst.
func appendLeafStep(dst []byte, n *tree.Node, k int) []byte {
	switch n.Kind {
	case tree.Text:
		dst = append(dst, "text()["...)
	case tree.Comment:
		dst = append(dst, "comment()["...)
	default:
		dst = append(dst, "processing-instruction('"...)
		dst = append(dst, n.Name...)
		dst = append(dst, "')["...)
	}
	dst = strconv.AppendInt(dst, int64(k), 10)
	return append(dst, ']')
}

// attrStep writes @name for an attribute of an element whose scope is s.
func attrStep(name string, s *scope, b *binder) string {
	p, l := splitQName(name)
	if p == "" {
		return "@" + name
	}
	return "@" + b.prefixFor(s.uri(p), p) + ":" + l
}
