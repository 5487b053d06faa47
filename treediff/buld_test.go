package treediff

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortByNode checks the queue's radix sort against a comparison sort,
// on buckets below and above radixMin, with nodes spread over one byte and
// over several.
func TestSortByNode(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var q queue
	for _, tc := range []struct{ n, span int }{
		{0, 1}, {1, 1}, {5, 100}, {radixMin - 1, 1 << 20}, {radixMin, 200}, {radixMin, 1 << 20},
		{5000, 1 << 10}, {5000, 1 << 30}, {3000, 3000},
	} {
		// tc.n distinct nodes below tc.span, in random order.
		var nodes []int
		seen := map[int]bool{}
		for len(nodes) < min(tc.n, tc.span) {
			if x := rng.IntN(tc.span); !seen[x] {
				seen[x] = true
				nodes = append(nodes, x)
			}
		}
		z := make([]queued, len(nodes))
		for k, x := range nodes {
			z[k] = queued{key: uint64(k), node: int32(x), parent: int32(k)}
		}
		want := slices.Clone(z)
		slices.SortFunc(want, func(x, y queued) int { return int(x.node - y.node) })
		q.sortByNode(z)
		if !slices.Equal(z, want) {
			t.Errorf("%d items over %d: sortByNode disagrees with a comparison sort", tc.n, tc.span)
		}
	}
}

// TestQueueOrder pushes and pops as the heaviest-first phase does (each
// push lighter than the last pop), with many equal weights and more items
// than a chunk holds, and checks that the pops come heaviest first, ties in
// node order, as sorting everything pushed would have them.
func TestQueueOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const w0 = 1000.0
	q := &queue{last: weightKey(w0)}
	var pushed, popped []queued
	node := int32(0)
	push := func(below float64, n int) {
		for range n {
			// Weights from a small set below the bound: many ties.
			w := float64(rng.IntN(int(below)))
			it := queued{key: weightKey(w), node: rng.Int32N(1 << 24), parent: node}
			node++
			pushed = append(pushed, it)
			q.push(it)
		}
	}
	push(w0, 3*chunkLen)
	for q.n > 0 {
		it := q.pop()
		popped = append(popped, it)
		if w := it.weight(); w >= 2 && len(pushed) < 20000 {
			push(w, rng.IntN(4))
		}
	}
	want := slices.Clone(pushed)
	slices.SortStableFunc(want, func(x, y queued) int {
		if x.key != y.key {
			return cmp.Compare(x.key, y.key)
		}
		return cmp.Compare(x.node, y.node)
	})
	if len(popped) != len(want) {
		t.Fatalf("popped %d items of %d pushed", len(popped), len(want))
	}
	for k := range want {
		if popped[k].key != want[k].key || popped[k].node != want[k].node {
			t.Fatalf("pop %d: weight %v node %d, want weight %v node %d", k, popped[k].weight(), popped[k].node, want[k].weight(), want[k].node)
		}
	}
}
