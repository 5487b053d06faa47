package simulate

import (
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// TestDetacher removes children during a pass in document order: a child
// may go unless its nearest siblings still there on both sides are texts,
// the removed ones skipped, and the lists are compacted at the end.
func TestDetacher(t *testing.T) {
	d := &tree.Document{}
	p := d.NewElement("p")
	// t0 e1 e2 t3 e4 t5
	kinds := []tree.Kind{tree.Text, tree.Element, tree.Element, tree.Text, tree.Element, tree.Text}
	var kids []*tree.Node
	for _, k := range kinds {
		var n *tree.Node
		if k == tree.Text {
			n = d.NewText("x")
		} else {
			n = d.NewElement("e")
		}
		p.AppendChild(n)
		kids = append(kids, n)
	}
	d.Root = p
	var at detacher
	steps := []struct {
		child int
		can   bool
	}{
		{1, true},  // t0 | e2: fine
		{2, false}, // t0 and t3 would touch, e1 being gone already
		{4, false}, // t3 and t5 would touch
		{5, true},  // the last child
	}
	for _, s := range steps {
		if got := at.canDetach(kids[s.child]); got != s.can {
			t.Fatalf("child %d: canDetach %v, want %v", s.child, got, s.can)
		}
		if s.can {
			at.remove(kids[s.child])
		}
	}
	at.finish()
	want := []*tree.Node{kids[0], kids[2], kids[3], kids[4]}
	if len(p.Children) != len(want) {
		t.Fatalf("%d children left, want %d", len(p.Children), len(want))
	}
	for i, c := range want {
		if p.Children[i] != c || c.Parent != p {
			t.Fatalf("child %d after the pass is not the one kept", i)
		}
	}
	if kids[1].Parent != nil || kids[5].Parent != nil {
		t.Error("a removed child still has a parent")
	}
}
