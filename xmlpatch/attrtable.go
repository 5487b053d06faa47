package xmlpatch

import (
	"slices"

	"github.com/vigil-web/vigil/tree"
)

// An element may have thousands of attributes, and a patch an operation
// for each (<replace sel="/r/@a367">, as Export writes them). Finding the
// attribute by a scan, and reading all of them again to push the
// element's scope at each step through it, would cost every operation
// the element's size: Apply indexes the attributes of a large element
// once, charges that once, and then finds an attribute, or the element's
// namespace declarations, at a unit of work an operation.
//
// The index holds positions in the element's attributes, which a removal
// would shift: a removal leaves an empty attribute (no name) in its place
// instead, which no name test, lookup or scope reads as an attribute,
// and Apply takes the empty ones out at its end. Every other change to a
// large element's attributes must be reported: appended after one is
// appended, reset after a namespace declaration changes.

// attrTableMin is the least number of attributes an element has for
// Apply to index them; fewer are read faster than an index is built.
const attrTableMin = 16

// attrTable indexes the attributes of one element.
type attrTable struct {
	decls []tree.Attr // the element's namespace declarations
	// byName gives the index in the element's attributes of the one
	// (not a declaration) of each expanded name, -2 where two share one;
	// nil until an attribute step needs it.
	byName map[expanded]int
}

// attrTables holds the tables of the large elements Apply went through.
type attrTables struct {
	byNode map[*tree.Node]*attrTable
	gutted map[*tree.Node]bool // the elements holding removed attributes, not yet taken out
	w      *work               // counts the attributes read
}

func newAttrTables(w *work) *attrTables {
	return &attrTables{byNode: map[*tree.Node]*attrTable{}, gutted: map[*tree.Node]bool{}, w: w}
}

// table returns the table of n, nil for an element too small to index.
func (at *attrTables) table(n *tree.Node) *attrTable {
	if at == nil || len(n.Attrs) < attrTableMin {
		return nil
	}
	if t := at.byNode[n]; t != nil {
		return t
	}
	at.w.add(len(n.Attrs))
	t := &attrTable{}
	for _, a := range n.Attrs {
		if _, ok := declaration(a.Name); ok {
			t.decls = append(t.decls, a)
		}
	}
	at.byNode[n] = t
	return t
}

// push returns the scope inside element n, whose parent's scope is s.
func (at *attrTables) push(s *scope, n *tree.Node) *scope {
	if t := at.table(n); t != nil {
		return s.push(t.decls)
	}
	return s.push(n.Attrs)
}

// scopeOf returns the bindings in scope at n, as scopeOf does, counting
// the walk.
func (at *attrTables) scopeOf(n *tree.Node) *scope {
	var chain []*tree.Node
	for m := n; m != nil; m = m.Parent {
		if m.Kind == tree.Element {
			chain = append(chain, m)
		}
	}
	at.w.add(len(chain))
	s := docScope(at.w)
	for i := len(chain) - 1; i >= 0; i-- {
		s = at.push(s, chain[i])
	}
	return s
}

// index returns the index of the attribute of n named name (an expanded
// name) that is not a namespace declaration, -1 for none, -2 for more
// than one, as attrIndex does; s is the scope at n.
func (at *attrTables) index(n *tree.Node, s *scope, name expanded) int {
	t := at.table(n)
	if t == nil {
		at.w.add(1 + len(n.Attrs))
		return attrIndex(n, s, name)
	}
	at.w.add(1)
	if t.byName == nil {
		at.w.add(len(n.Attrs))
		t.byName = make(map[expanded]int, len(n.Attrs))
		for i, a := range n.Attrs {
			if _, decl := declaration(a.Name); decl || a.Name == "" {
				continue
			}
			x := attrExpanded(a.Name, s)
			if _, dup := t.byName[x]; dup {
				t.byName[x] = -2
			} else {
				t.byName[x] = i
			}
		}
	}
	if i, ok := t.byName[name]; ok {
		return i
	}
	return -1
}

// appended is called after an attribute (not a declaration) of expanded
// name x was appended to n's.
func (at *attrTables) appended(n *tree.Node, x expanded) {
	if t := at.byNode[n]; t != nil && t.byName != nil {
		t.byName[x] = len(n.Attrs) - 1
	}
}

// remove removes attribute i of n, of expanded name x, which is not a
// declaration: from the table of n, leaving an empty attribute in its
// place, or from the attributes where n has no table.
func (at *attrTables) remove(n *tree.Node, i int, x expanded) {
	t := at.byNode[n]
	if t == nil || t.byName == nil {
		n.Attrs = slices.Delete(n.Attrs, i, i+1)
		return
	}
	n.Attrs[i] = tree.Attr{}
	delete(t.byName, x)
	at.gutted[n] = true
}

// reset drops every table, after a namespace declaration changed, which
// may change the expanded names of every attribute below.
func (at *attrTables) reset() { clear(at.byNode) }

// compact takes the empty attributes that removals left out.
func (at *attrTables) compact() {
	for n := range at.gutted {
		n.Attrs = slices.DeleteFunc(n.Attrs, func(a tree.Attr) bool { return a.Name == "" })
	}
	clear(at.gutted)
}
