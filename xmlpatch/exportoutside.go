package xmlpatch

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vigil-web/vigil/tree"
)

// A part of what stands around the root, as Export changes it: the
// comments and processing instructions before the DOCTYPE, those after
// it (all of the prolog in a document without one), and the epilog.
const (
	beforeTheDoctype = iota
	beforeTheRoot
	afterTheRoot
)

// parts returns the three parts of what stands around doc's root, the XML
// declaration that leads the prolog aside.
func parts(doc *tree.Document) [3][]*tree.Node {
	_, before, after := doc.SplitProlog()
	if doc.Doctype == "" {
		before, after = nil, append(before[:len(before):len(before)], after...)
	}
	return [3][]*tree.Node{before, after, doc.Epilog}
}

// outside makes what stands around the root in the working copy what it
// is in the target, part by part: the nodes between the first and the
// last that stay are replaced in place when as many of the same kinds
// take their places, else the new ones are added beside a neighbour that
// stays (or beside the first of the old ones, or the root) and the old
// ones removed. Each add lands next to its anchor, on its side of the
// DOCTYPE: the one place no selector reaches is before a DOCTYPE that
// nothing but the XML declaration precedes.
func (x *exporter) outside() error {
	o := x.d.Outside
	if o == nil {
		return nil
	}
	if strings.Join(strings.Fields(o.Old.Doctype), " ") != strings.Join(strings.Fields(o.New.Doctype), " ") {
		return fmt.Errorf("xml patch: %w: the DOCTYPE changes (%q to %q)", ErrInexpressible, clip(o.Old.Doctype, 40), clip(o.New.Doctype, 40))
	}
	want := parts(x.target)
	for part := range want {
		if err := x.outsidePart(part, want[part]); err != nil {
			return err
		}
	}
	if got := parts(x.work); !tree.SameLeaves(got[0], want[0]) || !tree.SameLeaves(got[1], want[1]) || !tree.SameLeaves(got[2], want[2]) {
		return internalError("what stands around the root is not the delta's after the export")
	}
	return nil
}

// outsidePart changes one part of what stands around the root in the
// working copy to want.
func (x *exporter) outsidePart(part int, want []*tree.Node) error {
	have := slices.Clone(parts(x.work)[part]) // the adds and removes below shift the lists
	if tree.SameLeaves(have, want) {
		return nil
	}
	p := 0
	for p < len(have) && p < len(want) && tree.SameLeaf(have[p], want[p]) {
		p++
	}
	q := 0
	for q < len(have)-p && q < len(want)-p && tree.SameLeaf(have[len(have)-1-q], want[len(want)-1-q]) {
		q++
	}
	oldNodes, newNodes := have[p:len(have)-q], want[p:len(want)-q]
	if len(oldNodes) == len(newNodes) && sameKinds(oldNodes, newNodes) {
		for i, n := range oldNodes {
			if w := newNodes[i]; !tree.SameLeaf(n, w) {
				b := x.binder()
				x.emit(Op{Kind: Replace, Sel: x.selectorOf(n, b), Content: []*tree.Node{{Kind: w.Kind, Name: w.Name, Value: w.Value}}}, b)
				n.Name, n.Value = w.Name, w.Value
			}
		}
		return nil
	}
	if len(newNodes) > 0 {
		anchor, after := x.work.Root, part == afterTheRoot
		switch {
		case p > 0:
			anchor, after = have[p-1], true
		case q > 0:
			anchor, after = have[len(have)-q], false
		case len(oldNodes) > 0:
			anchor, after = oldNodes[0], false
		case part == beforeTheDoctype:
			more := ""
			if len(newNodes) > 1 {
				more = fmt.Sprintf(" and %d more", len(newNodes)-1)
			}
			return fmt.Errorf("xml patch: %w: an add of %s%s before the DOCTYPE, which no comment or processing instruction precedes: no selector addresses that place", ErrInexpressible, describeLeaf(newNodes[0]), more)
		}
		b := x.binder()
		var sel string
		if anchor == x.work.Root {
			sel = "/" + elementStep(x.work.Root, nil, (*scope)(nil).push(x.work.Root.Attrs), b, nil)
		} else {
			sel = x.selectorOf(anchor, b)
		}
		pos := "before"
		if after {
			pos = "after"
		}
		content := make([]*tree.Node, len(newNodes))
		added := make([]*tree.Node, len(newNodes))
		for i, n := range newNodes {
			content[i] = &tree.Node{Kind: n.Kind, Name: n.Name, Value: n.Value}
			added[i] = x.work.NewNode(n.Kind, n.Name, n.Value)
		}
		x.emit(Op{Kind: Add, Sel: sel, Pos: pos, Content: content}, b)
		insertAround(x.work, anchor, after, added)
	}
	for i := len(oldNodes) - 1; i >= 0; i-- {
		b := x.binder()
		x.emit(Op{Kind: Remove, Sel: x.selectorOf(oldNodes[i], b)}, b)
		removeAround(x.work, oldNodes[i])
	}
	return nil
}

// describeLeaf names a comment by its text, a processing instruction by
// its target, for an error.
func describeLeaf(n *tree.Node) string {
	if n.Kind == tree.ProcInst {
		return fmt.Sprintf("processing instruction %q", clip(n.Name, 40))
	}
	return fmt.Sprintf("comment %q", clip(n.Value, 40))
}

func sameKinds(a, b []*tree.Node) bool {
	return slices.EqualFunc(a, b, func(x, y *tree.Node) bool { return x.Kind == y.Kind })
}
