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

	lists []*container // list items: the lists nested in the item, in document order
	term  string       // definition-list items: their terms, which name them (label) and pair them (keys)

	href, text, src, alt string   // links and images, as the page has them
	ref                  string   // links: href without its signing parameters (unsignedURL), the target that identifies it
	srcs                 []string // images in a picture: every source it shows, src first, its img's own last (pictureSources)
	cells                []string // table rows
	cols                 []int    // table rows: each cell's first column, its place in the table's slots (slotGrid)
	spans                []int    // table rows: each cell's colspan (cellAt)
	head                 bool     // a table's header row (container.headers)
	rowName              string   // table rows: what names the row (TableInfo.Row, rowName): its first cell shown, after the body cells above whose rowspans cover the columns before it
}

// sources returns the sources of image o: those of its picture (srcs),
// or its src.
func (o *object) sources() []string {
	if o.srcs != nil {
		return o.srcs
	}
	return []string{o.src}
}

// objEdit is an operation on objects: indexes into the old and new lists,
// -1 when absent.
type objEdit struct {
	op   Operation
	a, b int
}

// diffObjects aligns two object sequences as CX-Diff aligns leaves. An
// LCS over the objects' identities (their first partial key, such as a
// row's first cell or a link's target, or the whole key when there is
// none) keeps the objects in common order, as CX-Diff's signature tokens
// do; an aligned pair whose keys differ is an update. Off the LCS, an
// object whose whole key is in the other version too has moved; leftover
// objects are then paired as updates by each partial key in turn, and
// between two LCS anchors one to one by position when both sides have the
// same number left (when positional is set); the rest are inserted or
// deleted.
func diffObjects(old, new []object, positional bool) []objEdit {
	return alignObjects(old, new, positional, nil)
}

// alignObjects is diffObjects that also calls same, when not nil, for
// each pair of equal objects the LCS keeps in place (which the edits leave
// out), in order.
func alignObjects(old, new []object, positional bool, same func(a, b int)) []objEdit {
	if len(old) == len(new) {
		equal := true
		for i := range old {
			if old[i].key != new[i].key {
				equal = false
				break
			}
		}
		if equal {
			for i := 0; same != nil && i < len(old); i++ {
				same(i, i)
			}
			return nil
		}
	}
	in := &interner{m: make(map[tokenKey]int32, len(old)+len(new))}
	ident := func(o *object) int32 {
		if len(o.keys) > 0 && o.keys[0] != "" {
			return in.idn(1, 0, o.keys[0])
		}
		return in.idn(0, 0, o.key)
	}
	t1 := make([]int32, len(old))
	t2 := make([]int32, len(new))
	for i := range old {
		t1[i] = ident(&old[i])
	}
	for j := range new {
		t2[j] = ident(&new[j])
	}
	pairs := lcs(t1, t2)
	usedA := make([]bool, len(old))
	usedB := make([]bool, len(new))
	gapA := make([]int, len(old)) // number of anchors before
	gapB := make([]int, len(new))
	var edits []objEdit
	for _, p := range pairs {
		usedA[p.a], usedB[p.b] = true, true
		if old[p.a].key != new[p.b].key {
			edits = append(edits, objEdit{Update, p.a, p.b})
		} else if same != nil {
			same(p.a, p.b)
		}
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
	for i := range old {
		t1[i] = in.idn(0, 0, old[i].key)
	}
	for j := range new {
		t2[j] = in.idn(0, 0, new[j].key)
	}
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
	// updates by partial keys, in order
	// Objects of one kind may have partial keys or not (a definition
	// without a term has none): the most any has.
	nk := 0
	for _, o := range old {
		nk = max(nk, len(o.keys))
	}
	for k := 0; k < nk; k++ {
		byKey := map[string][]int{}
		for j := range new {
			if !usedB[j] && k < len(new[j].keys) && new[j].keys[k] != "" {
				byKey[new[j].keys[k]] = append(byKey[new[j].keys[k]], j)
			}
		}
		for i := range old {
			if usedA[i] || k >= len(old[i].keys) || old[i].keys[k] == "" {
				continue
			}
			q := byKey[old[i].keys[k]]
			for len(q) > 0 && usedB[q[0]] {
				q = q[1:]
			}
			if len(q) > 0 {
				j := q[0]
				q = q[1:]
				usedA[i], usedB[j] = true, true
				edits = append(edits, objEdit{Update, i, j})
			}
			byKey[old[i].keys[k]] = q
		}
	}
	// positional updates within each gap
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
