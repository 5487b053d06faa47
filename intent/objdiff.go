package intent

import (
	"slices"

	"github.com/vigil-web/vigil/tree"
)

// object is a presentation object of a version: a link, an image, a table
// row, a list item or a regular-expression match.
type object struct {
	key  string   // identity: equal keys are the same object
	keys []string // partial identities, tried in order to pair an updated object ("" never pairs)
	node *tree.Node
	pos  int // 1-based among the objects of its kind

	href, text, src, alt string   // links and images
	cells                []string // table rows
	context              string   // the container: table or list name, or the element a link sits in
}

// objEdit is an operation on objects: indexes into the old and new lists,
// -1 when absent.
type objEdit struct {
	op   Operation
	a, b int
}

// diffObjects aligns two object sequences as CX-Diff aligns leaves: an LCS
// over the keys keeps the objects in common order; an object off the LCS
// whose key is in the other version too has moved; between two LCS anchors,
// leftover objects are paired as updates by their partial keys in order,
// then one to one by position when both sides have the same number left
// (when positional is set); the rest are inserted or deleted.
func diffObjects(old, new []object, positional bool) []objEdit {
	in := &interner{m: make(map[tokenKey]int32, len(old)+len(new))}
	t1 := make([]int32, len(old))
	t2 := make([]int32, len(new))
	for i := range old {
		t1[i] = in.id(0, old[i].key, "")
	}
	for j := range new {
		t2[j] = in.id(0, new[j].key, "")
	}
	pairs := lcs(t1, t2)
	usedA := make([]bool, len(old))
	usedB := make([]bool, len(new))
	gapA := make([]int, len(old)) // number of anchors before
	gapB := make([]int, len(new))
	for _, p := range pairs {
		usedA[p.a], usedB[p.b] = true, true
	}
	g := 0
	for i := range old {
		if usedA[i] {
			g++
		}
		gapA[i] = g
	}
	g = 0
	for j := range new {
		if usedB[j] {
			g++
		}
		gapB[j] = g
	}
	var edits []objEdit
	// moves: same key, off the LCS
	queue := map[int32][]int{}
	for j := range new {
		if !usedB[j] {
			queue[t2[j]] = append(queue[t2[j]], j)
		}
	}
	for i := range old {
		if usedA[i] {
			continue
		}
		if q := queue[t1[i]]; len(q) > 0 {
			j := q[0]
			queue[t1[i]] = q[1:]
			usedA[i], usedB[j] = true, true
			edits = append(edits, objEdit{Move, i, j})
		}
	}
	// updates within each gap
	type bucket struct{ as, bs []int }
	gaps := map[int]*bucket{}
	get := func(g int) *bucket {
		b := gaps[g]
		if b == nil {
			b = &bucket{}
			gaps[g] = b
		}
		return b
	}
	for i := range old {
		if !usedA[i] {
			b := get(gapA[i])
			b.as = append(b.as, i)
		}
	}
	for j := range new {
		if !usedB[j] {
			b := get(gapB[j])
			b.bs = append(b.bs, j)
		}
	}
	gapIDs := make([]int, 0, len(gaps))
	for g := range gaps {
		gapIDs = append(gapIDs, g)
	}
	slices.Sort(gapIDs)
	for _, g := range gapIDs {
		b := gaps[g]
		if len(b.as) == 0 || len(b.bs) == 0 {
			continue
		}
		nk := 0
		if len(old) > 0 {
			nk = len(old[b.as[0]].keys)
		}
		for k := 0; k < nk; k++ {
			for _, i := range b.as {
				if usedA[i] || k >= len(old[i].keys) || old[i].keys[k] == "" {
					continue
				}
				for _, j := range b.bs {
					if !usedB[j] && k < len(new[j].keys) && new[j].keys[k] == old[i].keys[k] {
						usedA[i], usedB[j] = true, true
						edits = append(edits, objEdit{Update, i, j})
						break
					}
				}
			}
		}
		if positional {
			var ra, rb []int
			for _, i := range b.as {
				if !usedA[i] {
					ra = append(ra, i)
				}
			}
			for _, j := range b.bs {
				if !usedB[j] {
					rb = append(rb, j)
				}
			}
			if len(ra) == len(rb) {
				for k := range ra {
					usedA[ra[k]], usedB[rb[k]] = true, true
					edits = append(edits, objEdit{Update, ra[k], rb[k]})
				}
			}
		}
	}
	for i := range old {
		if !usedA[i] {
			edits = append(edits, objEdit{Delete, i, -1})
		}
	}
	for j := range new {
		if !usedB[j] {
			edits = append(edits, objEdit{Insert, -1, j})
		}
	}
	order := map[Operation]int{Delete: 0, Update: 1, Insert: 2, Move: 3}
	slices.SortStableFunc(edits, func(x, y objEdit) int {
		if d := order[x.op] - order[y.op]; d != 0 {
			return d
		}
		rx, ry := x.b, y.b
		if x.op == Delete {
			rx, ry = x.a, y.a
		}
		return rx - ry
	})
	return edits
}
