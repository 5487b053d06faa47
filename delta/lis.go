package delta

import "slices"

// lisScratch is the working space of heaviestIncreasing, kept from call to
// call: a delta calls it once per element whose children stayed, most of
// them with a handful of children.
type lisScratch struct {
	keep  []bool
	fen   []lisBest
	prev  []int32
	total []float64
}

// lisBest is the best chain found over a range of keys: its weight and its
// last element (-1 for none).
type lisBest struct {
	w float64
	i int32
}

// heaviestIncreasing returns, for a sequence of distinct keys with weights,
// which elements form a maximum-weight strictly increasing subsequence
// (keep[i] is true for the kept ones). It runs in O(n log n) with a Fenwick
// tree over the keys, which must be at least 0. Ties are broken towards
// the subsequence found first, so the result is deterministic. The slice
// returned is s's, valid until the next call.
//
// The elements not kept are the minimum-weight set of siblings to move so
// that the rest keep their relative order (thesis §3.5, figure 3.6).
func heaviestIncreasing(keys []int, weights []float64, s *lisScratch) []bool {
	n := len(keys)
	s.keep = slices.Grow(s.keep[:0], n)[:n]
	keep := s.keep
	increasing := true
	for i := 1; i < n && increasing; i++ {
		increasing = keys[i] > keys[i-1]
	}
	for i := range keep {
		keep[i] = increasing
	}
	if increasing {
		return keep
	}
	// The tree spans the keys that occur: a bound known to the caller (its
	// list's length) would cost it a read elsewhere in memory for every
	// list, most of which are in order and never get here; and entries past
	// the largest key are never read.
	maxKey := 0
	for _, k := range keys {
		maxKey = max(maxKey, k+1)
	}
	// fen[k] holds the best chain over a range of keys ending at k.
	s.fen = slices.Grow(s.fen[:0], maxKey+1)[:maxKey+1]
	fen := s.fen
	for i := range fen {
		fen[i] = lisBest{i: -1}
	}
	s.prev = slices.Grow(s.prev[:0], n)[:n]
	prev := s.prev
	s.total = slices.Grow(s.total[:0], n)[:n]
	total := s.total
	top := lisBest{i: -1}
	for i, k := range keys {
		// Best chain ending with a key < k.
		q := lisBest{i: -1}
		for j := k; j > 0; j -= j & -j {
			if fen[j].i >= 0 && fen[j].w > q.w {
				q = fen[j]
			}
		}
		total[i] = q.w + weights[i]
		prev[i] = q.i
		b := lisBest{total[i], int32(i)}
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
