package xmlpatch

import (
	"maps"
	"strings"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/tree"
)

// An element may have thousands of attributes, and a delta may change
// each of them: the export of an element's attribute operations reads
// its attributes, its scope and its selector once for them all, not once
// an operation, so that it costs work linear in the attributes and the
// operations.

// changeAttrs writes the attribute operations ops on n, an element that
// stays in place, as attribute operations (<add type="@a">, <replace
// sel=".../@a">, <remove sel=".../@a">), and makes them in the working
// copy. None of them is a namespace declaration (attrsExpressible holds),
// so that n's selector and scope stay as they are from one to the next.
func (x *exporter) changeAttrs(n *tree.Node, ops []*delta.Op) {
	s := scopeOf(n, x.w)
	type located struct {
		sel string
		b   *binder
	}
	// The selector of n, by the prefix an added attribute binds before
	// it ("" for none), which the selector's own names may then use.
	sels := map[string]located{}
	selector := func(pre string) (string, *binder) {
		l, ok := sels[pre]
		if !ok {
			l.b = x.binder()
			if pre != "" {
				l.b.need(pre, s.uri(pre))
			}
			l.sel = x.selectorOf(n, l.b)
			sels[pre] = l
		}
		return l.sel, l.b.clone()
	}
	for _, op := range ops {
		var out Op
		var b *binder
		switch op.Kind {
		case delta.AttrInsert:
			pre, _ := splitQName(op.Name)
			out.Sel, b = selector(pre)
			out.Kind, out.Type, out.Content = Add, "@"+op.Name, textContent(op.NewValue)
		case delta.AttrUpdate:
			out.Sel, b = selector("")
			out.Sel += "/" + attrStep(op.Name, s, b)
			out.Kind, out.Content = Replace, textContent(op.NewValue)
		case delta.AttrDelete:
			out.Sel, b = selector("")
			out.Sel += "/" + attrStep(op.Name, s, b)
			out.Kind = Remove
		}
		x.w.add(1)
		x.emit(out, b)
	}
	x.change(n, func() { applyAttrs(n, ops, x.w) })
}

// clone returns a copy of b, which binds what b binds.
func (b *binder) clone() *binder {
	return &binder{binds: maps.Clone(b.binds), fresh: b.fresh}
}

// attrsExpressible reports whether every attribute operation on n can be
// written as an attribute operation: a name that is an XML name and not a
// namespace declaration, that no other attribute of n shares the
// expanded name of. w counts the attributes it reads.
func attrsExpressible(n *tree.Node, ops []*delta.Op, w *work) bool {
	if len(ops) == 0 {
		return true
	}
	s := scopeOf(n, w)
	w.add(len(n.Attrs) + len(ops))
	// The name of n's attributes of each expanded name, "" where two
	// names share one.
	names := make(map[expanded]string, len(n.Attrs))
	for _, a := range n.Attrs {
		if !isQName(a.Name) {
			continue
		}
		x := attrExpanded(a.Name, s)
		if q, ok := names[x]; !ok {
			names[x] = a.Name
		} else if q != a.Name {
			names[x] = ""
		}
	}
	for _, op := range ops {
		if _, decl := declaration(op.Name); decl || !isQName(op.Name) || strings.HasPrefix(op.Name, "xmlns:") {
			return false
		}
		if q, ok := names[attrExpanded(op.Name, s)]; ok && q != op.Name {
			return false
		}
	}
	return true
}

// applyAttrs makes the attribute operations ops on n, in the order
// given: an insert or an update sets the attribute (appending it if it is
// new), a delete removes it. It finds the attributes by their names in
// an index built once, and removes them all in one pass; w counts the
// attributes it reads.
func applyAttrs(n *tree.Node, ops []*delta.Op, w *work) {
	if len(ops) == 0 {
		return
	}
	w.add(len(n.Attrs) + len(ops))
	at := make(map[string]int, len(n.Attrs))
	for i, a := range n.Attrs {
		if _, dup := at[a.Name]; dup {
			// Two attributes of one name: the first of them is the one
			// an operation changes, and the next one after a delete.
			for _, op := range ops {
				w.add(len(n.Attrs))
				applyAttr(n, op)
			}
			return
		}
		at[a.Name] = i
	}
	var gone []bool // by index in n.Attrs, those deleted
	for _, op := range ops {
		i, ok := at[op.Name]
		switch {
		case op.Kind == delta.AttrDelete && ok:
			for len(gone) <= i {
				gone = append(gone, false)
			}
			gone[i] = true
			delete(at, op.Name)
		case op.Kind == delta.AttrDelete:
		case ok:
			n.Attrs[i].Value = op.NewValue
		default:
			at[op.Name] = len(n.Attrs)
			n.Attrs = append(n.Attrs, tree.Attr{Name: op.Name, Value: op.NewValue})
		}
	}
	if gone == nil {
		return
	}
	// Into a new array, as RemoveAttr does: the old one may be shared.
	kept := make([]tree.Attr, 0, len(n.Attrs))
	for i, a := range n.Attrs {
		if i >= len(gone) || !gone[i] {
			kept = append(kept, a)
		}
	}
	n.Attrs = kept
}

// applyAttr makes one attribute operation on n.
func applyAttr(n *tree.Node, op *delta.Op) {
	switch op.Kind {
	case delta.AttrInsert, delta.AttrUpdate:
		n.SetAttr(op.Name, op.NewValue)
	case delta.AttrDelete:
		n.RemoveAttr(op.Name)
	}
}
