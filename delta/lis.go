package delta

// heaviestIncreasing returns, for a sequence of distinct keys with weights,
// which elements form a maximum-weight strictly increasing subsequence
// (keep[i] is true for the kept ones). It runs in O(n log n) with a Fenwick
// tree over the keys, which must lie in [0, maxKey). Ties are broken towards
// the subsequence found first, so the result is deterministic.
//
// The elements not kept are the minimum-weight set of siblings to move so
// that the rest keep their relative order (thesis §3.5, figure 3.6).
func heaviestIncreasing(keys []int, weights []float64, maxKey int) []bool {
	n := len(keys)
	keep := make([]bool, n)
	if n == 0 {
		return keep
	}
	increasing := true
	for i := 1; i < n && increasing; i++ {
		increasing = keys[i] > keys[i-1]
	}
	if increasing {
		for i := range keep {
			keep[i] = true
		}
		return keep
	}
	// fen[k] holds the best (weight, element) over a range of keys ending at k.
	type best struct {
		w float64
		i int // element index, -1 for none
	}
	fen := make([]best, maxKey+1)
	for i := range fen {
		fen[i].i = -1
	}
	prev := make([]int, n)
	total := make([]float64, n)
	var top best
	top.i = -1
	for i, k := range keys {
		// Best chain ending with a key < k.
		q := best{i: -1}
		for j := k; j > 0; j -= j & -j {
			if fen[j].i >= 0 && fen[j].w > q.w {
				q = fen[j]
			}
		}
		total[i] = q.w + weights[i]
		prev[i] = q.i
		b := best{total[i], i}
		for j := k + 1; j <= maxKey; j += j & -j {
			if fen[j].i < 0 || b.w > fen[j].w {
				fen[j] = b
			}
		}
		if top.i < 0 || b.w > top.w {
			top = b
		}
	}
	for i := top.i; i >= 0; i = prev[i] {
		keep[i] = true
	}
	return keep
}
