package editdist

import (
	"fmt"

	"github.com/vigil-web/vigil/tree"
)

// ZhangShasha returns the tree edit distance between the subtrees a and b in
// Tai's model (deleting a node gives its children to its parent), with the
// cost model of this package, by the algorithm of Zhang and Shasha: O(n1 n2)
// memory and O(n1 n2 min(depth, leaves)²) time.
func ZhangShasha(a, b *tree.Node) (int, error) {
	ta, tb := newZSTree(a), newZSTree(b)
	n1, n2 := len(ta.nodes), len(tb.nodes)
	if n1*n2 > MaxPairs {
		return 0, fmt.Errorf("editdist: %d node pairs exceed the limit of %d", n1*n2, MaxPairs)
	}
	treedist := make([]int32, n1*n2)
	fd := make([]int32, (n1+1)*(n2+1))
	for _, i := range ta.keyroots {
		for _, j := range tb.keyroots {
			forestDist(ta, tb, i, j, treedist, fd)
		}
	}
	return int(treedist[(n1-1)*n2+n2-1]), nil
}

// zsTree numbers a tree in post-order with the leftmost leaf descendant of
// each node and the key roots (nodes with no left sibling path sharing their
// leftmost leaf, plus the root).
type zsTree struct {
	nodes    []*tree.Node
	leftmost []int32
	keyroots []int32
}

func newZSTree(root *tree.Node) *zsTree {
	t := &zsTree{nodes: tree.PostOrderNodes(root)}
	index := make(map[*tree.Node]int32, len(t.nodes))
	for i, n := range t.nodes {
		index[n] = int32(i)
	}
	t.leftmost = make([]int32, len(t.nodes))
	for i, n := range t.nodes {
		l := n
		for len(l.Children) > 0 {
			l = l.Children[0]
		}
		t.leftmost[i] = index[l]
	}
	seen := map[int32]bool{}
	for i := len(t.nodes) - 1; i >= 0; i-- {
		if !seen[t.leftmost[i]] {
			seen[t.leftmost[i]] = true
			t.keyroots = append(t.keyroots, int32(i))
		}
	}
	// Key roots in increasing order, so that subproblems come first.
	for l, r := 0, len(t.keyroots)-1; l < r; l, r = l+1, r-1 {
		t.keyroots[l], t.keyroots[r] = t.keyroots[r], t.keyroots[l]
	}
	return t
}

// forestDist computes the forest distances for key roots i and j and records
// the tree distances it finds.
func forestDist(ta, tb *zsTree, i, j int32, treedist, fd []int32) {
	n2 := len(tb.nodes)
	li, lj := ta.leftmost[i], tb.leftmost[j]
	w := int(j-lj) + 2 // row width of the forest table for this pair
	at := func(x, y int32) *int32 { return &fd[int(x-li+1)*w+int(y-lj+1)] }
	*at(li-1, lj-1) = 0
	for x := li; x <= i; x++ {
		*at(x, lj-1) = *at(x-1, lj-1) + 1
	}
	for y := lj; y <= j; y++ {
		*at(li-1, y) = *at(li-1, y-1) + 1
	}
	for x := li; x <= i; x++ {
		for y := lj; y <= j; y++ {
			del := *at(x-1, y) + 1
			ins := *at(x, y-1) + 1
			best := min(del, ins)
			if ta.leftmost[x] == li && tb.leftmost[y] == lj {
				if r := relabelCost(ta.nodes[x], tb.nodes[y]); r < forbidden {
					best = min(best, *at(x-1, y-1)+int32(r))
				}
				*at(x, y) = best
				treedist[int(x)*n2+int(y)] = best
			} else {
				best = min(best, *at(ta.leftmost[x]-1, tb.leftmost[y]-1)+treedist[int(x)*n2+int(y)])
				*at(x, y) = best
			}
		}
	}
}
