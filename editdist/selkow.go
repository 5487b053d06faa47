package editdist

import (
	"fmt"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/tree"
)

// selkow holds the distance of every pair of nodes at the same depth.
type selkow struct {
	a, b         *tree.Measure
	depthA       []int32 // depth of each node
	depthB       []int32
	rankA, rankB []int32 // index of each node within its depth level
	levelB       [][]int32
	dist         [][]int32 // dist[depth][rankA*len(levelB[depth])+rankB]
	sizeA, sizeB []int32
}

// Distance returns the minimum cost of turning old into new with subtree
// inserts and deletes, text updates, renames and attribute changes, the
// matched nodes keeping their parent and their order (Selkow's model).
func Distance(old, new *tree.Document) (int, error) {
	s, err := newSelkow(old, new)
	if err != nil {
		return 0, err
	}
	return int(s.get(int32(len(s.a.Nodes)-1), int32(len(s.b.Nodes)-1))), nil
}

// Script returns a minimum-cost delta from old to new in Selkow's model, and
// its cost. It gives old the XIDs of a first version if it has none, and new
// the XIDs of the minimum matching (fresh ones for inserted nodes), as
// treediff.Diff does.
func Script(old, new *tree.Document) (*delta.Delta, int, error) {
	if old.Root != nil && old.Root.XID == 0 {
		old.AssignXIDs()
	}
	s, err := newSelkow(old, new)
	if err != nil {
		return nil, 0, err
	}
	cost := int(s.get(int32(len(s.a.Nodes)-1), int32(len(s.b.Nodes)-1)))
	match := make([]int32, len(s.b.Nodes)) // new index -> old index, or -1
	for i := range match {
		match[i] = -1
	}
	s.backtrack(int32(len(s.a.Nodes)-1), int32(len(s.b.Nodes)-1), match)
	next := old.NextXID
	for _, n := range s.a.Nodes {
		if n.XID >= next {
			next = n.XID + 1
		}
	}
	for j, n := range s.b.Nodes {
		if i := match[j]; i >= 0 {
			n.XID = s.a.Nodes[i].XID
		} else {
			n.XID = next
			next++
		}
	}
	new.NextXID = next
	d, err := delta.Build(old, new)
	if err != nil {
		return nil, 0, fmt.Errorf("editdist: %w", err)
	}
	return d, cost, nil
}

func newSelkow(old, new *tree.Document) (*selkow, error) {
	if old.Root == nil || new.Root == nil {
		return nil, fmt.Errorf("editdist: both documents need a root")
	}
	s := &selkow{a: tree.Weigh(old.Root), b: tree.Weigh(new.Root)}
	var levelA [][]int32
	s.depthA, s.rankA, s.sizeA, levelA = levels(s.a)
	s.depthB, s.rankB, s.sizeB, s.levelB = levels(s.b)
	pairs := 0
	for d := 0; d < len(levelA) && d < len(s.levelB); d++ {
		pairs += len(levelA[d]) * len(s.levelB[d])
	}
	if pairs > MaxPairs {
		return nil, fmt.Errorf("editdist: %d node pairs exceed the limit of %d; the exact reference is for small documents", pairs, MaxPairs)
	}
	s.dist = make([][]int32, min(len(levelA), len(s.levelB)))
	for d := range s.dist {
		s.dist[d] = make([]int32, len(levelA[d])*len(s.levelB[d]))
	}
	// Post-order on both sides: children pairs are known before parents.
	for i := range s.a.Nodes {
		da := s.depthA[i]
		if int(da) >= len(s.dist) {
			continue
		}
		for _, j := range s.levelB[da] {
			s.dist[da][s.index(int32(i), j)] = s.compute(int32(i), j)
		}
	}
	return s, nil
}

// levels returns each node's depth, its rank in its depth level, its subtree
// size, and the nodes of each level in post-order.
func levels(m *tree.Measure) (depth, rank, size []int32, byLevel [][]int32) {
	n := len(m.Nodes)
	depth, rank, size = make([]int32, n), make([]int32, n), make([]int32, n)
	for i := n - 1; i >= 0; i-- { // reverse post-order: parents first
		if p := m.Nodes[i].Parent; p != nil && i != n-1 {
			depth[i] = depth[p.Post-1] + 1
		}
	}
	for i, node := range m.Nodes {
		size[i]++
		if node.Parent != nil && i != n-1 {
			size[node.Parent.Post-1] += size[i]
		}
		d := int(depth[i])
		for len(byLevel) <= d {
			byLevel = append(byLevel, nil)
		}
		rank[i] = int32(len(byLevel[d]))
		byLevel[d] = append(byLevel[d], int32(i))
	}
	return depth, rank, size, byLevel
}

func (s *selkow) index(i, j int32) int {
	return int(s.rankA[i])*len(s.levelB[s.depthA[i]]) + int(s.rankB[j])
}

func (s *selkow) get(i, j int32) int32 { return s.dist[s.depthA[i]][s.index(i, j)] }

// compute returns the distance between subtrees i and j from their
// children's distances: relabel the roots, then align the children as
// sequences (delete a child subtree, insert one, or match two).
func (s *selkow) compute(i, j int32) int32 {
	r := relabelCost(s.a.Nodes[i], s.b.Nodes[j])
	if r >= forbidden {
		return forbidden
	}
	table := s.align(i, j)
	ca, cb := len(s.a.Nodes[i].Children), len(s.b.Nodes[j].Children)
	return int32(r) + table[ca*(cb+1)+cb]
}

// align fills the sequence edit table of the children of i and j:
// t[x*(cb+1)+y] is the cost of turning the first x children of i into the
// first y children of j.
func (s *selkow) align(i, j int32) []int32 {
	ka, kb := s.a.Nodes[i].Children, s.b.Nodes[j].Children
	ca, cb := len(ka), len(kb)
	t := make([]int32, (ca+1)*(cb+1))
	for y := 1; y <= cb; y++ {
		t[y] = t[y-1] + s.sizeB[kb[y-1].Post-1]
	}
	for x := 1; x <= ca; x++ {
		ax := ka[x-1].Post - 1
		t[x*(cb+1)] = t[(x-1)*(cb+1)] + s.sizeA[ax]
		for y := 1; y <= cb; y++ {
			by := kb[y-1].Post - 1
			best := t[(x-1)*(cb+1)+y] + s.sizeA[ax] // delete child x
			if c := t[x*(cb+1)+y-1] + s.sizeB[by]; c < best {
				best = c // insert child y
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

// backtrack records the matching of subtrees i and j in match.
func (s *selkow) backtrack(i, j int32, match []int32) {
	type pair struct{ i, j int32 }
	stack := []pair{{i, j}}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		match[p.j] = p.i
		t := s.align(p.i, p.j)
		ka, kb := s.a.Nodes[p.i].Children, s.b.Nodes[p.j].Children
		x, y, cb := len(ka), len(kb), len(kb)
		for x > 0 && y > 0 {
			ax, by := ka[x-1].Post-1, kb[y-1].Post-1
			cur := t[x*(cb+1)+y]
			if d := s.get(ax, by); d < forbidden && cur == t[(x-1)*(cb+1)+y-1]+d {
				stack = append(stack, pair{ax, by})
				x, y = x-1, y-1
			} else if cur == t[(x-1)*(cb+1)+y]+s.sizeA[ax] {
				x--
			} else {
				y--
			}
		}
	}
}
