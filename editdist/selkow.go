package editdist

import (
	"fmt"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/tree"
)

// selkow holds the distance of every pair of nodes at the same depth of two
// forests. Nodes are numbered locally (post-order over the forest), so the
// trees' Post fields are neither used nor changed.
type selkow struct {
	a, b         forest
	levelB       [][]int32
	dist         [][]int32 // dist[depth][rankA*len(levelB[depth])+rankB]
	rankA, rankB []int32   // index of each node within its depth level
	// table is align's result, reused from one call to the next: every
	// caller reads it before aligning again.
	table []int32
}

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

// newFlatForest is newForest of subtrees of a flat tree, given by their
// roots: each subtree is already a post-order range of t.
func newFlatForest(t *tree.Flat, roots []int32) forest {
	f := forest{flat: t}
	var buf []int32
	for _, r := range roots {
		start := r - t.Size[r] + 1
		base := int32(len(f.at)) - start // local number of t's node k: base+k
		for k := start; k <= r; k++ {
			f.at = append(f.at, k)
			f.size = append(f.size, t.Size[k])
			f.kidStart = append(f.kidStart, int32(len(f.kids)))
			buf = t.ChildList(k, buf)
			for _, c := range buf {
				f.kids = append(f.kids, base+c)
			}
		}
		// Depths from the root down: a parent comes after its children.
		f.depth = append(f.depth, make([]int32, t.Size[r])...)
		for k := r - 1; k >= start; k-- {
			f.depth[base+k] = f.depth[base+t.Parent[k]] + 1
		}
	}
	f.kidStart = append(f.kidStart, int32(len(f.kids)))
	return f
}

// children returns the numbers of node i's children.
func (f forest) children(i int32) []int32 {
	return f.kids[f.kidStart[i]:f.kidStart[i+1]]
}

func (f forest) levels() (rank []int32, byLevel [][]int32) {
	rank = make([]int32, f.len())
	for i := range f.len() {
		d := int(f.depth[i])
		for len(byLevel) <= d {
			byLevel = append(byLevel, nil)
		}
		rank[i] = int32(len(byLevel[d]))
		byLevel[d] = append(byLevel[d], int32(i))
	}
	return rank, byLevel
}

func newSelkow(rootsA, rootsB []*tree.Node, maxPairs int) (*selkow, error) {
	return newSelkowOf(newForest(rootsA), newForest(rootsB), maxPairs)
}

func newSelkowOf(a, b forest, maxPairs int) (*selkow, error) {
	s := &selkow{a: a, b: b}
	var levelA [][]int32
	s.rankA, levelA = s.a.levels()
	s.rankB, s.levelB = s.b.levels()
	pairs := 0
	for d := 0; d < len(levelA) && d < len(s.levelB); d++ {
		pairs += len(levelA[d]) * len(s.levelB[d])
	}
	if pairs > maxPairs {
		return nil, fmt.Errorf("editdist: %d node pairs exceed the limit of %d; the exact reference is for small documents", pairs, maxPairs)
	}
	s.dist = make([][]int32, min(len(levelA), len(s.levelB)))
	for d := range s.dist {
		s.dist[d] = make([]int32, len(levelA[d])*len(s.levelB[d]))
	}
	// Post-order on both sides: children pairs are known before parents.
	for i := range s.a.len() {
		da := s.a.depth[i]
		if int(da) >= len(s.dist) {
			continue
		}
		for _, j := range s.levelB[da] {
			s.dist[da][s.index(int32(i), j)] = s.compute(int32(i), j)
		}
	}
	return s, nil
}

func (s *selkow) index(i, j int32) int {
	return int(s.rankA[i])*len(s.levelB[s.a.depth[i]]) + int(s.rankB[j])
}

func (s *selkow) get(i, j int32) int32 {
	if s.a.depth[i] != s.b.depth[j] {
		return forbidden
	}
	return s.dist[s.a.depth[i]][s.index(i, j)]
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
// of every matched pair's descendants.
func (s *selkow) backtrack(ka, kb []int32, pairs [][2]int32) [][2]int32 {
	type task struct{ ka, kb []int32 }
	stack := []task{{ka, kb}}
	for len(stack) > 0 {
		tk := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		t := s.align(tk.ka, tk.kb)
		x, y, cb := len(tk.ka), len(tk.kb), len(tk.kb)
		for x > 0 && y > 0 {
			ax, by := tk.ka[x-1], tk.kb[y-1]
			cur := t[x*(cb+1)+y]
			if d := s.get(ax, by); d < forbidden && cur == t[(x-1)*(cb+1)+y-1]+d {
				pairs = append(pairs, [2]int32{ax, by})
				stack = append(stack, task{s.children(s.a, ax), s.children(s.b, by)})
				x, y = x-1, y-1
			} else if cur == t[(x-1)*(cb+1)+y]+s.a.size[ax] {
				x--
			} else {
				y--
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
	local := s.backtrack(forestRoots(s.a, len(a)), forestRoots(s.b, len(b)), nil)
	pairs := make([][2]*tree.Node, len(local))
	for k, p := range local {
		pairs[k] = [2]*tree.Node{s.a.nodes[p[0]], s.b.nodes[p[1]]}
	}
	return pairs, nil
}

// MatchFlatForests is MatchForests of subtrees of flat trees, given by the
// indexes of their roots in ta and tb; the pairs are indexes too.
func MatchFlatForests(ta *tree.Flat, a []int32, tb *tree.Flat, b []int32, maxPairs int) ([][2]int32, error) {
	s, err := newSelkowOf(newFlatForest(ta, a), newFlatForest(tb, b), maxPairs)
	if err != nil {
		return nil, err
	}
	pairs := s.backtrack(forestRoots(s.a, len(a)), forestRoots(s.b, len(b)), nil)
	for k, p := range pairs {
		pairs[k] = [2]int32{s.a.at[p[0]], s.b.at[p[1]]}
	}
	return pairs, nil
}

// forestRoots returns the numbers of the n roots of a forest: each root is
// the last node of its subtree, and the subtrees follow each other.
func forestRoots(f forest, n int) []int32 {
	roots := make([]int32, n)
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
