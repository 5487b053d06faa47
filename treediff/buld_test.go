package treediff

import (
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
