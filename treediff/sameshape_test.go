package treediff

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/vigil-web/vigil/editdist"
	"github.com/vigil-web/vigil/tree"
)

// randomShapeTree returns a random small tree: elements named a, b or c,
// some with an attribute, and texts of a few values, as many lists of
// records and fields are.
func randomShapeTree(r *rand.Rand, d *tree.Document, depth int) *tree.Node {
	if depth == 0 || r.IntN(4) == 0 {
		return d.NewText([]string{"x", "y", "z", "w"}[r.IntN(4)])
	}
	e := d.NewElement([]string{"a", "b", "c"}[r.IntN(3)])
	if r.IntN(3) == 0 {
		e.SetAttr("id", []string{"1", "2"}[r.IntN(2)])
	}
	for range r.IntN(5) {
		e.AppendChild(randomShapeTree(r, d, depth-1))
	}
	return e
}

// changeValues returns a copy of d's tree with each text changed to a
// random value with probability p, and, with probability q, an
// attribute or a name changed, or a child left out: the shape kept, or
// not.
func changeValues(r *rand.Rand, d *tree.Document, p, q float64) *tree.Document {
	c := d.Clone()
	tree.Walk(c.Root, func(n *tree.Node) bool {
		switch {
		case n.Kind == tree.Text && r.Float64() < p:
			n.Value = []string{"x", "y", "z", "w", "v"}[r.IntN(5)]
		case n.Kind == tree.Element && r.Float64() < q:
			switch r.IntN(3) {
			case 0:
				n.SetAttr("id", "3")
			case 1:
				n.Name = "d"
			default:
				if len(n.Children) > 0 {
					n.Children = n.Children[1:]
				}
			}
		}
		return true
	})
	return c
}

// TestPairSameShapeIsExact: whenever pairSameShape pairs two subtrees, it
// pairs exactly what the exact matcher (Selkow's, as the recovery runs
// it) pairs, over 20 000 random pairs of small trees: lists whose texts
// shift, fields that all change, attributes and names that change, and
// shapes that differ. It must also pair often enough for the test to say
// something.
func TestPairSameShapeIsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(33, 1))
	paired := 0
	for trial := range 20000 {
		old := &tree.Document{}
		old.Root = randomShapeTree(r, old, 1+r.IntN(4))
		if old.Root.Kind != tree.Element {
			continue
		}
		newDoc := changeValues(r, old, r.Float64(), r.Float64()*0.2)
		of, _ := tree.FlattenDocument(old)
		nf, _ := tree.FlattenDocument(newDoc)
		m := newMatching(of, nf, nil)
		i, j := of.Root(), nf.Root()
		want, err := editdist.MatchFlatForests(of, []int32{i}, nf, []int32{j}, recoveryBudget)
		if err != nil {
			t.Fatal(err)
		}
		if !m.pairSameShape(i, j) {
			continue
		}
		paired++
		var got [][2]int32
		for x, y := range m.oldMatch {
			if y >= 0 {
				got = append(got, [2]int32{int32(x), y})
			}
		}
		want = slices.Clone(want)
		cmp := func(a, b [2]int32) int { return int(a[0] - b[0]) }
		slices.SortFunc(got, cmp)
		slices.SortFunc(want, cmp)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: pairSameShape paired %v, the exact matcher %v", trial, got, want)
		}
	}
	if paired < 2000 {
		t.Errorf("pairSameShape paired %d of 20 000 random pairs: too few for the test to say anything", paired)
	}
	t.Logf("%d pairs checked", paired)
}

// editChildren returns a copy of d's tree with each text changed to a
// random value with probability p, and each element, with probability
// q, given one edit: children inserted at random places (copies of a
// sibling's shape with their own texts, texts, or small random trees),
// children deleted (one, or up to four), a name or an attribute changed,
// all attributes changed, a child replaced, or a child moved within the
// list. A record
// that gains or loses fields, a field that loses its text, a tag list a
// tag longer: the edits the simulator makes inside a changed record.
func editChildren(r *rand.Rand, d *tree.Document, p, q float64) *tree.Document {
	c := d.Clone()
	times := func() int {
		if r.IntN(2) == 0 {
			return 1
		}
		return 1 + r.IntN(4)
	}
	for _, n := range tree.PostOrderNodes(c.Root) {
		switch {
		case n.Kind == tree.Text && r.Float64() < p:
			n.Value = []string{"x", "y", "z", "w", "v"}[r.IntN(5)]
		case n.Kind == tree.Element && r.Float64() < q:
			switch k := r.IntN(11); {
			case k < 3:
				for range times() {
					n.InsertChild(r.IntN(len(n.Children)+1), newChild(r, c, n))
				}
			case k < 6:
				for range times() {
					if len(n.Children) > 0 {
						n.RemoveChild(r.IntN(len(n.Children)))
					}
				}
			case k == 6:
				n.Name = "d"
			case k == 7:
				n.SetAttr("id", "3")
			case k == 8:
				// Attributes all changed: a relabel that costs more
				// than a delete and an insert.
				for _, a := range []string{"p", "q", "r"} {
					n.SetAttr(a, []string{"1", "2"}[r.IntN(2)])
				}
			case k == 9:
				// A child replaced: a text by an element, a field by
				// another.
				if len(n.Children) > 0 {
					at := r.IntN(len(n.Children))
					n.RemoveChild(at)
					n.InsertChild(at, newChild(r, c, n))
				}
			default:
				// A child moved within the list.
				if len(n.Children) > 1 {
					x := n.RemoveChild(r.IntN(len(n.Children)))
					n.InsertChild(r.IntN(len(n.Children)+1), x)
				}
			}
		}
	}
	return c
}

// newChild returns a child to insert under n: a copy of one of n's
// children with some texts changed, a text, or a small random tree.
func newChild(r *rand.Rand, d *tree.Document, n *tree.Node) *tree.Node {
	switch {
	case len(n.Children) > 0 && r.IntN(2) == 0:
		x := d.CloneNode(n.Children[r.IntN(len(n.Children))])
		tree.Walk(x, func(t *tree.Node) bool {
			if t.Kind == tree.Text && r.IntN(2) == 0 {
				t.Value = []string{"x", "y", "v"}[r.IntN(3)]
			}
			return true
		})
		return x
	case r.IntN(2) == 0:
		return d.NewText([]string{"x", "y", "z", "v"}[r.IntN(4)])
	default:
		return randomShapeTree(r, d, r.IntN(3))
	}
}

// TestPairSameShapeIsExactChildrenApart: whenever pairSameShape pairs
// two subtrees whose lists of children are children apart (inserted or
// deleted, one or several a list, on one side or both, at any depth,
// and texts, names and attributes changed), it pairs exactly what the exact matcher pairs,
// over 40 000 random pairs of small trees. It must pair often enough,
// often enough subtrees of different sizes, lists several children
// apart, and lists with children left over on both sides, for the test to
// say something.
func TestPairSameShapeIsExactChildrenApart(t *testing.T) {
	r := rand.New(rand.NewPCG(34, 2))
	paired, apart, several, both := 0, 0, 0, 0
	for trial := range 40000 {
		old := &tree.Document{}
		old.Root = randomShapeTree(r, old, 1+r.IntN(4))
		if old.Root.Kind != tree.Element {
			continue
		}
		tree.Walk(old.Root, func(n *tree.Node) bool {
			if n.Kind == tree.Element && r.IntN(4) == 0 {
				for _, a := range []string{"p", "q", "r"} {
					n.SetAttr(a, "1")
				}
			}
			return true
		})
		newDoc := editChildren(r, old, r.Float64()*0.6, r.Float64()*0.5)
		of, _ := tree.FlattenDocument(old)
		nf, _ := tree.FlattenDocument(newDoc)
		m := newMatching(of, nf, nil)
		i, j := of.Root(), nf.Root()
		want, err := editdist.MatchFlatForests(of, []int32{i}, nf, []int32{j}, recoveryBudget)
		if err != nil {
			t.Fatal(err)
		}
		if !m.pairSameShape(i, j) {
			continue
		}
		paired++
		if of.Len() != nf.Len() {
			apart++
		}
		var got [][2]int32
		for x, y := range m.oldMatch {
			if y >= 0 {
				got = append(got, [2]int32{int32(x), y})
			}
		}
		want = slices.Clone(want)
		cmp := func(a, b [2]int32) int { return int(a[0] - b[0]) }
		slices.SortFunc(got, cmp)
		slices.SortFunc(want, cmp)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: pairSameShape paired %v, the exact matcher %v", trial, got, want)
		}
		for _, p := range want {
			if d := of.ChildCount(p[0]) - nf.ChildCount(p[1]); d > 1 || d < -1 {
				several++
				break
			}
		}
		for _, p := range want {
			if unmatchedChild(of, p[0], m.oldMatch) && unmatchedChild(nf, p[1], m.newMatch) {
				both++
				break
			}
		}
	}
	if paired < 16000 || apart < 2800 || several < 800 || both < 120 {
		t.Errorf("pairSameShape paired %d of 40 000 random pairs, %d of different sizes, %d with lists several children apart, %d with children left on both sides: too few for the test to say anything", paired, apart, several, both)
	}
	t.Logf("%d pairs checked, %d of different sizes, %d with lists several children apart, %d with children left on both sides", paired, apart, several, both)
}

// unmatchedChild reports whether node i of f has a child that match
// leaves unmatched.
func unmatchedChild(f *tree.Flat, i int32, match []int32) bool {
	for _, c := range f.ChildList(i, nil) {
		if match[c] < 0 {
			return true
		}
	}
	return false
}

// TestLowerBoundIsBelowDistance: lowerBound, on which pairSameShape's
// checks rest, never exceeds Selkow's distance (editdist.Distance, the
// roots matched) at any depth, over 20 000 random pairs of small trees.
// It must also reach the distance often, or the checks would refuse
// most plans.
func TestLowerBoundIsBelowDistance(t *testing.T) {
	r := rand.New(rand.NewPCG(35, 3))
	reached := 0
	for trial := range 20000 {
		old := &tree.Document{}
		old.Root = randomShapeTree(r, old, 1+r.IntN(3))
		if old.Root.Kind != tree.Element {
			continue
		}
		newDoc := editChildren(r, old, r.Float64()*0.6, r.Float64()*0.5)
		want, err := editdist.Distance(old, newDoc)
		if err != nil {
			t.Fatal(err)
		}
		of, _ := tree.FlattenDocument(old)
		nf, _ := tree.FlattenDocument(newDoc)
		m := newMatching(of, nf, nil)
		for depth := range 4 {
			got := m.lowerBound(of.Root(), nf.Root(), depth)
			if got > want {
				t.Fatalf("trial %d: lowerBound at depth %d is %d, above the distance %d", trial, depth, got, want)
			}
			if depth == shapeLookDepth && got == want {
				reached++
			}
		}
	}
	if reached < 9000 {
		t.Errorf("lowerBound reached the distance in %d of 20 000 random pairs: too few for the checks to prove much", reached)
	}
	t.Logf("lowerBound reached the distance %d times", reached)
}
