package opic

import (
	"math"
	"slices"
)

// MeanRelativeError returns the seed's error measure (§7.6.2) of the
// estimate est against the reference ref: the mean over the pages with
// ref > 0 of |est - ref| / ref, as a fraction (multiply by 100 for the
// seed's percent).
func MeanRelativeError(est, ref []float64) float64 {
	sum, n := 0.0, 0
	for i, r := range ref {
		if r > 0 && i < len(est) {
			sum += math.Abs(est[i]-r) / r
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// TopPages returns the indexes of the ceil(fraction*len(ref)) largest
// values of ref, largest first (ties to the lower index).
func TopPages(ref []float64, fraction float64) []int {
	k := int(math.Ceil(fraction * float64(len(ref))))
	k = max(0, min(k, len(ref)))
	idx := make([]int, len(ref))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		switch {
		case ref[a] > ref[b]:
			return -1
		case ref[a] < ref[b]:
			return 1
		}
		return a - b
	})
	return idx[:k]
}

// SubsetRelativeError is MeanRelativeError over the pages in idx only (for
// instance the top 10 % of TopPages).
func SubsetRelativeError(est, ref []float64, idx []int) float64 {
	sum, n := 0.0, 0
	for _, i := range idx {
		if r := ref[i]; r > 0 {
			sum += math.Abs(est[i]-r) / r
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// Spearman returns Spearman's rank correlation of a and b (equal lengths),
// with tied values given their mean rank: 1 for the same order, -1 for the
// reverse.
func Spearman(a, b []float64) float64 {
	ra, rb := ranks(a), ranks(b)
	n := float64(len(a))
	if n < 2 {
		return 1
	}
	mean := (n + 1) / 2
	var cov, va, vb float64
	for i := range ra {
		da, db := ra[i]-mean, rb[i]-mean
		cov += da * db
		va += da * da
		vb += db * db
	}
	if va == 0 || vb == 0 {
		return 0
	}
	return cov / math.Sqrt(va*vb)
}

// ranks returns the 1-based rank of each value, ties at their mean rank.
func ranks(v []float64) []float64 {
	idx := make([]int32, len(v))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortFunc(idx, func(a, b int32) int {
		switch {
		case v[a] < v[b]:
			return -1
		case v[a] > v[b]:
			return 1
		}
		return 0
	})
	r := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i + 1
		for j < len(idx) && v[idx[j]] == v[idx[i]] {
			j++
		}
		mid := float64(i+j+1) / 2 // mean of ranks i+1 .. j
		for k := i; k < j; k++ {
			r[idx[k]] = mid
		}
		i = j
	}
	return r
}
