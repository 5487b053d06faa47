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
