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
	// AttrValue, when set, is how WriteChanges and WriteText show the
	// old and new values of a changed attribute: given the element's
	// name, the attribute's and one of its values, the text to show. Nil
	// shows the value as written. A viewer that names a page's images and
	// links by absolute URL sets it to resolve a relative src or href as
	// it does. Either way a long value is cut (see WriteText). Two values
	// written otherwise that it shows alike (a src rewritten to the URL
	// it resolved to) are shown as written, followed by "(both resolve
	// to URL)" (AttrChange, the words of every view of a diff): a change
	// is never shown with two sides that read the same.
	AttrValue func(element, attr, value string) string
	// OldAttrValue, when set, is AttrValue for the old value of a changed
	// attribute, which the old version may resolve otherwise (its <base
	// href> another); nil shows it as AttrValue does.
	OldAttrValue func(element, attr, value string) string

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
//
// It takes time linear in the size of the documents however many
// siblings were deleted: each old parent's children are numbered once
// (tree.Indexes),
// and the deleted subtrees are threaded after their anchors in a
// siblingList, each parent's children rebuilt at the end in one pass.
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
	var oldIndex tree.Indexes
	lists := map[*tree.Node]*siblingList{} // by parent in doc
	var parents []*tree.Node               // the keys of lists, in the order first met
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
		// The anchor is the nearest left sibling in the old version that
		// is now a child of parent, surviving or put back before; nil puts
		// c first.
		var anchor *tree.Node
		for j := oldIndex.Of(old) - 1; j >= 0; j-- {
			if s := byXID[old.Parent.Children[j].XID]; s != nil && s.Parent == parent {
				anchor = s
				break
			}
		}
		list := lists[parent]
		if list == nil {
			list = newSiblingList(parent)
			lists[parent] = list
			parents = append(parents, parent)
		}
		list.insertAfter(anchor, c)
		c.Parent = parent
		tree.Walk(c, func(n *tree.Node) bool {
			if n.XID != 0 {
				byXID[n.XID] = n
			}
			return true
		})
		marks[c] = Deleted
	}
	for _, p := range parents {
		p.Children = lists[p].nodes()
	}
	return doc, marks, texts
}

// siblingList is a parent's children as a linked list, so that a node
// can be inserted right after another without shifting the rest, as
// parent.InsertChild(anchor.Index()+1, c) would.
type siblingList struct {
	first *tree.Node
	next  map[*tree.Node]*tree.Node // the next sibling; absent for the last
}

// newSiblingList returns the children of parent as a siblingList.
func newSiblingList(parent *tree.Node) *siblingList {
	l := &siblingList{next: make(map[*tree.Node]*tree.Node, len(parent.Children))}
	for i, c := range parent.Children {
		if i == 0 {
			l.first = c
		} else {
			l.next[parent.Children[i-1]] = c
		}
	}
	return l
}

// insertAfter puts c right after anchor, or first when anchor is nil.
// anchor must be in the list.
func (l *siblingList) insertAfter(anchor, c *tree.Node) {
	if anchor == nil {
		if l.first != nil {
			l.next[c] = l.first
		}
		l.first = c
		return
	}
	if n, ok := l.next[anchor]; ok {
		l.next[c] = n
	}
	l.next[anchor] = c
}

// nodes returns the list in order.
func (l *siblingList) nodes() []*tree.Node {
	out := make([]*tree.Node, 0, len(l.next)+1)
	for n := l.first; n != nil; n = l.next[n] {
		out = append(out, n)
	}
	return out
}
