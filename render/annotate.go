package render

import (
	"fmt"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/tree"
)

// Mark is what a delta did to a node.
type Mark uint8

const (
	Unchanged   Mark = iota
	Inserted         // the subtree is new
	Deleted          // the subtree is gone
	Moved            // the subtree moved (marked at both ends)
	Updated          // the text changed (OldText holds the old value)
	AttrChanged      // an attribute was inserted, deleted or updated, or the element renamed
)

// String returns the value of the data-vigil attribute for the mark.
func (m Mark) String() string {
	switch m {
	case Inserted:
		return "ins"
	case Deleted:
		return "del"
	case Moved:
		return "move"
	case Updated:
		return "upd"
	case AttrChanged:
		return "attr"
	}
	return ""
}

// Annotated is a delta laid over both versions of a document.
type Annotated struct {
	Old, New *tree.Document
	Delta    *delta.Delta
	// OldMarks and NewMarks mark the roots of changed subtrees (and changed
	// text and elements) in each version.
	OldMarks, NewMarks map[*tree.Node]Mark
	// OldText is the old value of each updated text node of New.
	OldText map[*tree.Node]string

	oldByXID, newByXID map[tree.XID]*tree.Node
}

// Annotate applies d to old and marks both versions. old must carry the
// XIDs d refers to (as delta.Apply requires); it is not modified.
func Annotate(old *tree.Document, d *delta.Delta) (*Annotated, error) {
	if old == nil || old.Root == nil {
		return nil, fmt.Errorf("render: document without a root element")
	}
	if d == nil {
		d = &delta.Delta{}
	}
	newDoc := old.Clone()
	if !d.Empty() {
		var err error
		if newDoc, err = delta.Apply(old, d); err != nil {
			return nil, fmt.Errorf("render: %w", err)
		}
	}
	a := &Annotated{
		Old: old, New: newDoc, Delta: d,
		OldMarks: map[*tree.Node]Mark{}, NewMarks: map[*tree.Node]Mark{},
		OldText:  map[*tree.Node]string{},
		oldByXID: old.ByXID(), newByXID: newDoc.ByXID(),
	}
	for i := range d.Ops {
		op := &d.Ops[i]
		switch op.Kind {
		case delta.Delete:
			n := a.oldByXID[op.Root()]
			if n == nil {
				continue
			}
			switch {
			case op.Move:
				a.OldMarks[n] = Moved
			case op.Update:
				a.OldMarks[n] = Updated
			default:
				a.OldMarks[n] = Deleted
			}
		case delta.Insert:
			n := a.newByXID[op.Root()]
			if n == nil {
				continue
			}
			switch {
			case op.Move:
				a.NewMarks[n] = Moved
			case op.Update:
				a.NewMarks[n] = Updated
				if o := a.oldByXID[op.Root()]; o != nil {
					a.OldText[n] = o.Value
				}
			default:
				a.NewMarks[n] = Inserted
			}
		case delta.AttrDelete, delta.AttrInsert, delta.AttrUpdate, delta.Rename:
			if n := a.oldByXID[op.Node]; n != nil && a.OldMarks[n] == Unchanged {
				a.OldMarks[n] = AttrChanged
			}
			if n := a.newByXID[op.Node]; n != nil && a.NewMarks[n] == Unchanged {
				a.NewMarks[n] = AttrChanged
			}
		}
	}
	return a, nil
}

// merged returns a copy of New with each deleted subtree put back after
// its nearest surviving left sibling, and the marks of that copy.
func (a *Annotated) merged() (*tree.Document, map[*tree.Node]Mark, map[*tree.Node]string) {
	doc := a.New.Clone()
	byXID := doc.ByXID()
	marks := map[*tree.Node]Mark{}
	texts := map[*tree.Node]string{}
	for n, m := range a.NewMarks {
		if c := byXID[n.XID]; c != nil {
			marks[c] = m
			if t, ok := a.OldText[n]; ok {
				texts[c] = t
			}
		}
	}
	// Deletes are in XyScript order (descendants first, right to left):
	// walk them backwards so that an ancestor is placed before what was
	// deleted inside it.
	for i := len(a.Delta.Ops) - 1; i >= 0; i-- {
		op := &a.Delta.Ops[i]
		if op.Kind != delta.Delete || op.Move || op.Update || op.Content == nil {
			continue
		}
		parent := byXID[op.Parent]
		old := a.oldByXID[op.Root()]
		if parent == nil || old == nil || old.Parent == nil {
			continue
		}
		c := doc.CloneNode(op.Content)
		at := 0
		for j := old.Index() - 1; j >= 0; j-- {
			if s := byXID[old.Parent.Children[j].XID]; s != nil && s.Parent == parent {
				at = s.Index() + 1
				break
			}
		}
		parent.InsertChild(at, c)
		tree.Walk(c, func(n *tree.Node) bool {
			if n.XID != 0 {
				byXID[n.XID] = n
			}
			return true
		})
		marks[c] = Deleted
	}
	return doc, marks, texts
}
