package editdist

import (
	"fmt"
	"slices"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/tree"
)

// selkow holds the distance of every pair of nodes at the same depth of two
// forests. Nodes are numbered locally (post-order over the forest), so the
// trees' Post fields are neither used nor changed.
//
// Every slice is kept from one use to the next (see FlatMatcher), so that
// matching many small forests allocates once.
type selkow struct {
	a, b           forest
	levelA, levelB [][]int32 // the nodes of each depth level, in post-order
	// dist holds the distances of depth d from distAt[d]:
	// dist[distAt[d]+rankA*len(levelB[d])+rankB].
	dist         []int32
	distAt       []int
	rankA, rankB []int32 // index of each node within its depth level
	// table is align's result, reused from one call to the next: every
	// caller reads it before aligning again; suffix and like are prefer's.
	table, suffix, like []int32
	// path is onPath's.
	path []bool
	// wordsA and wordsB are the words of the subtrees, for prefer.
	wordsA, wordsB subtreeWords
	// stack is backtrack's, and roots forestRoots's.
	stack          []alignTask
	rootsA, rootsB []int32
}

// alignTask is two lists of subtrees to align and backtrack.
type alignTask struct{ ka, kb []int32 }

// forest is a list of subtrees numbered in post-order. The children of
// node i are kids[kidStart[i]:kidStart[i]+len(children)], recorded during
// the traversal, so that no map from nodes to numbers is needed.
type forest struct {
	// nodes are the forest's nodes, or, for a forest of a flat tree, at
	// holds their indexes in flat.
	nodes    []*tree.Node
	flat     *tree.Flat
	at       []int32
	depth    []int32 // 0 for the forest's roots
	size     []int32
	kids     []int32
	kidStart []int32 // node i's children are kids[kidStart[i]:kidStart[i+1]]
}

// len returns the number of nodes of the forest.
func (f forest) len() int { return len(f.size) }

func newForest(roots []*tree.Node) forest {
	var f forest
	type frame struct {
		node  *tree.Node
		next  int
		depth int32
		first int // index in pending of this node's first child number
	}
	var pending []int32 // numbers of finished children, by open frame
	for _, r := range roots {
		stack := []frame{{node: r, first: len(pending)}}
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next < len(top.node.Children) {
				c := top.node.Children[top.next]
				top.next++
				stack = append(stack, frame{node: c, depth: top.depth + 1, first: len(pending)})
				continue
			}
			i := int32(len(f.nodes))
			f.nodes = append(f.nodes, top.node)
			f.depth = append(f.depth, top.depth)
			f.kidStart = append(f.kidStart, int32(len(f.kids)))
			size := int32(1)
			for _, k := range pending[top.first:] {
				f.kids = append(f.kids, k)
				size += f.size[k]
			}
			f.size = append(f.size, size)
			pending = pending[:top.first]
			stack = stack[:len(stack)-1]
			pending = append(pending, i)
		}
		pending = pending[:0]
	}
	f.kidStart = append(f.kidStart, int32(len(f.kids)))
	return f
}

// fillFlat makes f the forest of subtrees of a flat tree, given by their
// roots (each subtree is already a post-order range of t), reusing f's
// slices.
func (f *forest) fillFlat(t *tree.Flat, roots []int32) {
	f.nodes, f.flat = nil, t
	f.at, f.depth, f.size, f.kids, f.kidStart = f.at[:0], f.depth[:0], f.size[:0], f.kids[:0], f.kidStart[:0]
	for _, r := range roots {
		start := r - t.Size[r] + 1
		base := int32(len(f.at)) - start // local number of t's node k: base+k
		for k := start; k <= r; k++ {
			f.at = append(f.at, k)
			f.size = append(f.size, t.Size[k])
			f.kidStart = append(f.kidStart, int32(len(f.kids)))
			// t.Children goes right to left: the children are appended so,
			// then put in document order.
			first := len(f.kids)
			t.Children(k, func(c int32) { f.kids = append(f.kids, base+c) })
			slices.Reverse(f.kids[first:])
		}
		// Depths from the root down: a parent comes after its children.
		at := len(f.depth)
		f.depth = slices.Grow(f.depth, int(t.Size[r]))[:at+int(t.Size[r])]
		f.depth[len(f.depth)-1] = 0
		for k := r - 1; k >= start; k-- {
			f.depth[base+k] = f.depth[base+t.Parent[k]] + 1
		}
	}
	f.kidStart = append(f.kidStart, int32(len(f.kids)))
}

// children returns the numbers of node i's children.
func (f forest) children(i int32) []int32 {
	return f.kids[f.kidStart[i]:f.kidStart[i+1]]
}

// levels returns the index of each node within its depth level and the
// nodes of each level, in post-order, reusing rank and byLevel.
func (f forest) levels(rank []int32, byLevel [][]int32) ([]int32, [][]int32) {
	rank = slices.Grow(rank[:0], f.len())[:f.len()]
	for d := range byLevel {
		byLevel[d] = byLevel[d][:0]
	}
	byLevel = byLevel[:0]
	for i := range f.len() {
		d := int(f.depth[i])
		for len(byLevel) <= d {
			if len(byLevel) < cap(byLevel) {
				byLevel = byLevel[:len(byLevel)+1] // a level kept from before, emptied
			} else {
				byLevel = append(byLevel, nil)
			}
		}
		rank[i] = int32(len(byLevel[d]))
		byLevel[d] = append(byLevel[d], int32(i))
	}
	return rank, byLevel
}

func newSelkow(rootsA, rootsB []*tree.Node, maxPairs int) (*selkow, error) {
	s := &selkow{a: newForest(rootsA), b: newForest(rootsB)}
	return s, s.fill(maxPairs)
}

// fill computes the distance of every pair of nodes at equal depths of s.a
// and s.b, or fails if there are more than maxPairs.
func (s *selkow) fill(maxPairs int) error {
	s.rankA, s.levelA = s.a.levels(s.rankA, s.levelA)
	s.rankB, s.levelB = s.b.levels(s.rankB, s.levelB)
	depths := min(len(s.levelA), len(s.levelB))
	s.distAt = s.distAt[:0]
	pairs := 0
	for d := range depths {
		s.distAt = append(s.distAt, pairs)
		pairs += len(s.levelA[d]) * len(s.levelB[d])
	}
	if pairs > maxPairs {
		return fmt.Errorf("editdist: %d node pairs exceed the limit of %d; the exact reference is for small documents", pairs, maxPairs)
	}
	s.wordsA.reset(s.a.len())
	s.wordsB.reset(s.b.len())
	s.dist = slices.Grow(s.dist[:0], pairs)[:pairs]
	// Post-order on both sides: children pairs are known before parents.
	for i := range s.a.len() {
		da := s.a.depth[i]
		if int(da) >= depths {
			continue
		}
		for _, j := range s.levelB[da] {
			s.dist[s.index(int32(i), j)] = s.compute(int32(i), j)
		}
	}
	return nil
}

func (s *selkow) index(i, j int32) int {
	d := s.a.depth[i]
	return s.distAt[d] + int(s.rankA[i])*len(s.levelB[d]) + int(s.rankB[j])
}

func (s *selkow) get(i, j int32) int32 {
	if s.a.depth[i] != s.b.depth[j] {
		return forbidden
	}
	return s.dist[s.index(i, j)]
}

// compute returns the distance between subtrees i and j from their
// children's distances: relabel the roots, then align the children.
func (s *selkow) compute(i, j int32) int32 {
	var r int
	if s.a.flat != nil {
		r = relabelFlatCost(s.a.flat, s.a.at[i], s.b.flat, s.b.at[j])
	} else {
		r = relabelCost(s.a.nodes[i], s.b.nodes[j])
	}
	if r >= forbidden {
		return forbidden
	}
	ka, kb := s.children(s.a, i), s.children(s.b, j)
	t := s.align(ka, kb)
	return int32(r) + t[len(ka)*(len(kb)+1)+len(kb)]
}

func (s *selkow) children(f forest, i int32) []int32 { return f.children(i) }

// align fills the sequence edit table of two lists of subtrees:
// t[x*(len(kb)+1)+y] is the cost of turning the first x of ka into the first
// y of kb by deleting, inserting or matching whole subtrees. The table is
// valid until the next call.
func (s *selkow) align(ka, kb []int32) []int32 {
	ca, cb := len(ka), len(kb)
	n := (ca + 1) * (cb + 1)
	if cap(s.table) < n {
		s.table = make([]int32, max(n, 2*cap(s.table)))
	}
	t := s.table[:n]
	t[0] = 0
	for y := 1; y <= cb; y++ {
		t[y] = t[y-1] + s.b.size[kb[y-1]]
	}
	for x := 1; x <= ca; x++ {
		ax := ka[x-1]
		t[x*(cb+1)] = t[(x-1)*(cb+1)] + s.a.size[ax]
		for y := 1; y <= cb; y++ {
			by := kb[y-1]
			best := t[(x-1)*(cb+1)+y] + s.a.size[ax] // delete x
			if c := t[x*(cb+1)+y-1] + s.b.size[by]; c < best {
				best = c // insert y
			}
			if d := s.get(ax, by); d < forbidden {
				if c := t[(x-1)*(cb+1)+y-1] + d; c < best {
					best = c // match x with y
				}
			}
			t[x*(cb+1)+y] = best
		}
	}
	return t
}

// backtrack appends to pairs the matching of the aligned lists ka and kb and
// of every matched pair's descendants: of minimum cost, of the most alike
// words among those (see prefer), and the leftmost among those. It walks
// the tables of suffixes from the start, a match first.
func (s *selkow) backtrack(ka, kb []int32, pairs [][2]int32) [][2]int32 {
	stack := append(s.stack[:0], alignTask{ka, kb})
	defer func() { s.stack = stack }()
	for len(stack) > 0 {
		tk := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		t, u := s.prefer(tk.ka, tk.kb)
		ca, cb := len(tk.ka), len(tk.kb)
		for x, y := 0, 0; x < ca && y < cb; {
			ax, by := tk.ka[x], tk.kb[y]
			at := x*(cb+1) + y
			diag, down := at+cb+2, at+cb+1
			if d := s.get(ax, by); d < forbidden && t[at] == t[diag]+d && (u == nil || u[at] == u[diag]+s.unlike(ax, by, d)) {
				pairs = append(pairs, [2]int32{ax, by})
				stack = append(stack, alignTask{s.children(s.a, ax), s.children(s.b, by)})
				x, y = x+1, y+1
			} else if t[at] == t[down]+s.a.size[ax] && (u == nil || u[at] == u[down]) {
				x++
			} else {
				y++
			}
		}
	}
	return pairs
}

// Distance returns the minimum cost of turning old into new with subtree
// inserts and deletes, text updates, renames and attribute changes, the
// matched nodes keeping their parent and their order (Selkow's model). The
// roots are always matched.
func Distance(old, new *tree.Document) (int, error) {
	if old.Root == nil || new.Root == nil {
		return 0, fmt.Errorf("editdist: both documents need a root")
	}
	s, err := newSelkow([]*tree.Node{old.Root}, []*tree.Node{new.Root}, MaxPairs)
	if err != nil {
		return 0, err
	}
	return int(s.rootCost()), nil
}

// rootCost is the distance of the two roots, renaming if their names differ.
func (s *selkow) rootCost() int32 {
	ra, rb := int32(s.a.len()-1), int32(s.b.len()-1)
	d := s.get(ra, rb)
	if d >= forbidden { // the roots are always kept
		t := s.align(s.children(s.a, ra), s.children(s.b, rb))
		d = 1 + t[len(t)-1]
	}
	return d
}

// MatchForests returns a minimum-cost matching between two ordered lists of
// subtrees in Selkow's model: the pairs of matched nodes, roots and
// descendants. It fails if the forests have more than maxPairs node pairs at
// equal depths.
func MatchForests(a, b []*tree.Node, maxPairs int) ([][2]*tree.Node, error) {
	s, err := newSelkow(a, b, maxPairs)
	if err != nil {
		return nil, err
	}
	local := s.backtrack(forestRoots(s.a, len(a), nil), forestRoots(s.b, len(b), nil), nil)
	pairs := make([][2]*tree.Node, len(local))
	for k, p := range local {
		pairs[k] = [2]*tree.Node{s.a.nodes[p[0]], s.b.nodes[p[1]]}
	}
	return pairs, nil
}

// MatchFlatForests is MatchForests of subtrees of flat trees, given by the
// indexes of their roots in ta and tb; the pairs are indexes too.
func MatchFlatForests(ta *tree.Flat, a []int32, tb *tree.Flat, b []int32, maxPairs int) ([][2]int32, error) {
	var fm FlatMatcher
	return fm.Match(ta, a, tb, b, maxPairs)
}

// FlatMatcher is MatchFlatForests with its working space kept from one call
// to the next, for a caller that matches many small forests (treediff's
// recovery matches thousands of gaps of a few nodes, where allocating the
// tables would cost more than filling them). The zero value is ready to
// use; a FlatMatcher must not be used by two goroutines at once.
type FlatMatcher struct {
	s     selkow
	pairs [][2]int32
}

// Match is MatchFlatForests. The pairs it returns are valid until the next
// call.
func (fm *FlatMatcher) Match(ta *tree.Flat, a []int32, tb *tree.Flat, b []int32, maxPairs int) ([][2]int32, error) {
	fm.pairs = fm.pairs[:0]
	if len(a) == 1 && len(b) == 1 && ta.Size[a[0]] == 1 && tb.Size[b[0]] == 1 {
		// Two leaves, the commonest gap (a text that changed): the table
		// has one cell, and the leaves are matched when relabelling one
		// costs no more than deleting it and inserting the other (2).
		if relabelFlatCost(ta, a[0], tb, b[0]) <= 2 {
			fm.pairs = append(fm.pairs, [2]int32{a[0], b[0]})
		}
		return fm.pairs, nil
	}
	s := &fm.s
	s.a.fillFlat(ta, a)
	s.b.fillFlat(tb, b)
	if err := s.fill(maxPairs); err != nil {
		return nil, err
	}
	s.rootsA = forestRoots(s.a, len(a), s.rootsA)
	s.rootsB = forestRoots(s.b, len(b), s.rootsB)
	fm.pairs = s.backtrack(s.rootsA, s.rootsB, fm.pairs)
	for k, p := range fm.pairs {
		fm.pairs[k] = [2]int32{s.a.at[p[0]], s.b.at[p[1]]}
	}
	return fm.pairs, nil
}

// forestRoots returns the numbers of the n roots of a forest, in roots'
// space: each root is the last node of its subtree, and the subtrees follow
// each other.
func forestRoots(f forest, n int, roots []int32) []int32 {
	roots = slices.Grow(roots[:0], n)[:n]
	end := int32(f.len())
	for k := n - 1; k >= 0; k-- {
		roots[k] = end - 1
		end -= f.size[end-1]
	}
	return roots
}

// Script returns a minimum-cost delta from old to new in Selkow's model, and
// its cost. It gives old the XIDs of a first version if it has none, and new
// the XIDs of the minimum matching (fresh ones for inserted nodes), as
// treediff.Diff does.
func Script(old, new *tree.Document) (*delta.Delta, int, error) {
	if old.Root == nil || new.Root == nil {
		return nil, 0, fmt.Errorf("editdist: both documents need a root")
	}
	if old.Root.XID == 0 {
		old.AssignXIDs()
	}
	s, err := newSelkow([]*tree.Node{old.Root}, []*tree.Node{new.Root}, MaxPairs)
	if err != nil {
		return nil, 0, err
	}
	cost := s.rootCost()
	ra, rb := int32(s.a.len()-1), int32(s.b.len()-1)
	pairs := s.backtrack(s.children(s.a, ra), s.children(s.b, rb), [][2]int32{{ra, rb}})
	matched := make(map[*tree.Node]tree.XID, len(pairs))
	for _, p := range pairs {
		matched[s.b.nodes[p[1]]] = s.a.nodes[p[0]].XID
	}
	next := old.NextXID
	tree.Walk(old.Root, func(n *tree.Node) bool {
		if n.XID >= next {
			next = n.XID + 1
		}
		return true
	})
	tree.PostOrder(new.Root, func(n *tree.Node) {
		if x, ok := matched[n]; ok {
			n.XID = x
		} else {
			n.XID = next
			next++
		}
	})
	new.NextXID = next
	d, err := delta.Build(old, new)
	if err != nil {
		return nil, 0, fmt.Errorf("editdist: %w", err)
	}
	return d, int(cost), nil
}
