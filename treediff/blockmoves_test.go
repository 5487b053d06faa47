package treediff

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/tree"
)

// TestFlatListBlockMoves: a flat list of 3 000 items, most of them
// repeated (one value, or a few), with 10 blocks of 20 consecutive items
// moved elsewhere, is at most 200 moves (one a moved item) and nothing
// else. The long gaps between anchors among repeated items used up the
// common run's budget, and the repeated items were paired across the
// moved blocks: 1 200 to 1 800 moves.
func TestFlatListBlockMoves(t *testing.T) {
	const n, blocks, size = 3000, 10, 20
	// The labels: one value repeated; three values in turn; two, three
	// or four values at random; and those with one item in ten, or in fifty,
	// unique.
	one := func(int) string { return "x" }
	abc := func(v int) string { return []string{"a", "b", "c"}[v%3] }
	r := rand.New(rand.NewPCG(7, 8))
	two, three, few := make([]string, n), make([]string, n), make([]string, n)
	for i := range few {
		two[i] = fmt.Sprint("v", r.IntN(2))
		three[i] = fmt.Sprint("v", r.IntN(3))
		few[i] = fmt.Sprint("v", r.IntN(4))
	}
	twoValues := func(v int) string { return two[v] }
	threeValues := func(v int) string { return three[v] }
	fewValues := func(v int) string { return few[v] }
	unique := func(every int, label func(int) string) func(int) string {
		return func(v int) string {
			if v%every == 3 {
				return fmt.Sprint("unique ", v)
			}
			return label(v)
		}
	}
	// moveBlocks moves blocks of size items, starting at the given old
	// positions, to the given places in the list of the others (forward
	// or backward of where they stood).
	moveBlocks := func(starts, places []int) []int {
		items := make([]int, n)
		for i := range items {
			items[i] = i
		}
		in := map[int]bool{}
		var moved [][]int
		for _, s := range starts {
			moved = append(moved, items[s:s+size])
			for v := s; v < s+size; v++ {
				in[v] = true
			}
		}
		var rest []int
		for _, v := range items {
			if !in[v] {
				rest = append(rest, v)
			}
		}
		// Insert from the last place on, so earlier places stand.
		for k := len(places) - 1; k >= 0; k-- {
			rest = slices.Insert(rest, places[k], moved[k]...)
		}
		return rest
	}
	var starts, forward, backward, shuffled []int
	for k := range blocks {
		starts = append(starts, 100+k*280)
		forward = append(forward, min(100+k*280+400, n-blocks*size))
		backward = append(backward, max(100+k*280-400, 0))
	}
	slices.Sort(forward)
	slices.Sort(backward)
	shuffled = r.Perm(n - blocks*size)[:blocks]
	slices.Sort(shuffled)
	moves := []struct {
		name   string
		places []int
	}{{"forward", forward}, {"backward", backward}, {"random", shuffled}}
	for _, lb := range []struct {
		name  string
		label func(int) string
	}{
		{"abc", abc},
		{"two-values", twoValues},
		{"three-values", threeValues},
		{"few-values", fewValues},
		{"one-value+unique/10", unique(10, one)},
		{"one-value+unique/50", unique(50, one)},
		{"abc+unique/10", unique(10, abc)},
		{"two-values+unique/50", unique(50, twoValues)},
		{"few-values+unique/10", unique(10, fewValues)},
	} {
		for _, mv := range moves {
			// The list is the root, or a child of the root beside one
			// that changed (aligned then as a similar element).
			for _, nested := range []bool{false, true} {
				items := make([]int, n)
				for i := range items {
					items[i] = i
				}
				list := func(items []int, title string) string {
					var b strings.Builder
					if nested {
						fmt.Fprintf(&b, "<doc><h>%s</h>", title)
					}
					b.WriteString("<list>")
					for _, v := range items {
						fmt.Fprintf(&b, "<i>%s</i>", lb.label(v))
					}
					b.WriteString("</list>")
					if nested {
						b.WriteString("</doc>")
					}
					return b.String()
				}
				old, newDoc := parse(t, list(items, "old")), parse(t, list(moveBlocks(starts, mv.places), "new"))
				d, err := Diff(old, newDoc, nil)
				if err != nil {
					t.Fatal(err)
				}
				s := d.Stats()
				want := delta.Stats{Moves: s.Moves}
				if nested {
					want.Updates = 1 // the title
				}
				if s.Moves > blocks*size || s != want {
					t.Errorf("%s, %s, nested %v: %d moves, %d inserts, %d deletes, %d updates; want at most %d moves and %d updates", lb.name, mv.name, nested, s.Moves, s.Inserts, s.Deletes, s.Updates, blocks*size, want.Updates)
				}
				got, err := delta.Apply(old, d)
				if err != nil {
					t.Fatal(err)
				}
				if diff := tree.Diff(got.Root, newDoc.Root, tree.ContentAndXIDs); diff != "" {
					t.Fatalf("%s, %s, nested %v: %s", lb.name, mv.name, nested, diff)
				}
			}
		}
	}
}
