package simulate_test

import (
	"testing"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/simulate"
	"github.com/vigil-web/vigil/tree"
)

func TestGenerateDeterministic(t *testing.T) {
	for _, shape := range simulate.Shapes {
		t.Run(string(shape), func(t *testing.T) {
			a, err := simulate.Generate(shape, 20000, 7)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := simulate.Generate(shape, 20000, 7)
			if d := tree.Diff(a.Root, b.Root, tree.ContentAndXIDs); d != "" {
				t.Fatalf("same seed, different documents: %s", d)
			}
			c, _ := simulate.Generate(shape, 20000, 8)
			if tree.Equal(a.Root, c.Root) {
				t.Fatal("different seeds gave the same document")
			}
			if n := a.Root.Size(); n < 100 {
				t.Fatalf("only %d nodes for 20 KB", n)
			}
		})
	}
}

func TestGenerateUnknownShape(t *testing.T) {
	if _, err := simulate.Generate("blob", 100, 1); err == nil {
		t.Fatal("no error for an unknown shape")
	}
}

// TestChangeRates checks that the simulator changes about the share of nodes
// asked for and leaves the old version alone.
func TestChangeRates(t *testing.T) {
	old, _ := simulate.Generate(simulate.Records, 200000, 1)
	before := old.Clone()
	for _, p := range []float64{0.01, 0.1, 0.3} {
		newDoc, perfect, err := simulate.Change(old, simulate.Uniform(p), 42)
		if err != nil {
			t.Fatal(err)
		}
		if d := tree.Diff(old.Root, before.Root, tree.ContentAndXIDs); d != "" {
			t.Fatalf("Change modified the old version: %s", d)
		}
		s := perfect.Stats()
		n := old.Root.Size()
		changed := s.Deletes + s.Inserts + s.Moves + s.Updates
		// Four kinds of change at rate p each, over n nodes (texts only for
		// updates, elements only for inserts): at least p*n/2 in all, at most 4*p*n.
		if float64(changed) < p*float64(n)/2 || float64(changed) > 4*p*float64(n) {
			t.Errorf("p=%v: %d changes for %d nodes (%+v)", p, changed, n, s)
		}
		if newDoc.NextXID <= old.NextXID && s.Inserts > 0 {
			t.Errorf("p=%v: NextXID not advanced", p)
		}
		again, perfect2, _ := simulate.Change(old, simulate.Uniform(p), 42)
		if tree.Diff(again.Root, newDoc.Root, tree.ContentAndXIDs) != "" || perfect2.Cost(1) != perfect.Cost(1) {
			t.Errorf("p=%v: same seed, different change", p)
		}
	}
}

func TestChangeNoTextNextToText(t *testing.T) {
	old, _ := simulate.Generate(simulate.Deep, 100000, 3)
	newDoc, _, err := simulate.Change(old, simulate.Uniform(0.3), 9)
	if err != nil {
		t.Fatal(err)
	}
	tree.Walk(newDoc.Root, func(n *tree.Node) bool {
		for i := 1; i < len(n.Children); i++ {
			if n.Children[i].Kind == tree.Text && n.Children[i-1].Kind == tree.Text {
				t.Fatalf("two texts side by side under %s", tree.Path(n))
			}
		}
		return true
	})
}

func TestRatesValidate(t *testing.T) {
	old, _ := simulate.Generate(simulate.FlatList, 1000, 1)
	if _, _, err := simulate.Change(old, simulate.Rates{Delete: 1.5}, 1); err == nil {
		t.Fatal("rate 1.5 accepted")
	}
}

// TestChangeHeavy changes every shape at high rates, where most siblings of
// a list go in one pass: the new version is a well-formed tree (each child
// knows its parent, no two texts side by side), and the perfect delta
// leads to it.
func TestChangeHeavy(t *testing.T) {
	for _, shape := range simulate.Shapes {
		old, err := simulate.Generate(shape, 30000, 4)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range []simulate.Rates{simulate.Uniform(0.9), {Delete: 1}, {Move: 1}, {Delete: 0.5, Move: 0.5}} {
			newDoc, perfect, err := simulate.Change(old, r, 5)
			if err != nil {
				t.Fatal(err)
			}
			tree.Walk(newDoc.Root, func(n *tree.Node) bool {
				for i, c := range n.Children {
					if c.Parent != n {
						t.Fatalf("%s %+v: a child of %s does not know its parent", shape, r, tree.Path(n))
					}
					if i > 0 && c.Kind == tree.Text && n.Children[i-1].Kind == tree.Text {
						t.Fatalf("%s %+v: two texts side by side under %s", shape, r, tree.Path(n))
					}
				}
				return true
			})
			got, err := delta.Apply(old, perfect)
			if err != nil {
				t.Fatalf("%s %+v: the perfect delta does not apply: %v", shape, r, err)
			}
			if d := tree.Diff(got.Root, newDoc.Root, tree.ContentAndXIDs); d != "" {
				t.Fatalf("%s %+v: the perfect delta leads elsewhere: %s", shape, r, d)
			}
			if r.Delete == 1 && shape == simulate.FlatList && newDoc.Root.Size() > old.Root.Size()/2 {
				t.Errorf("%s: deleting at rate 1 kept %d of %d nodes", shape, newDoc.Root.Size(), old.Root.Size())
			}
		}
	}
}
