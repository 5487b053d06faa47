package spec

import "slices"

// maxAlternatives bounds the alternatives of a Using clause once its ANDs
// are distributed over its ORs: as many pages joined by OR at most, or
// combinations of pages joined by AND. More would cost the checker and
// every change's reading time for a set no one reads (a site is watched
// with Using site, not page by page).
const maxAlternatives = 1024

// Alternatives returns the sets of pages, by index in URLs, of which one
// must change entirely before the sentinel reports (its Using clause in
// disjunctive normal form): Requires when the checker computed it, nil
// when any one page is enough. A sentinel stored before Requires existed
// has it derived from its Using clause; where that clause names another
// sentinel, whose pages are not known here, any one page is enough, as
// before.
func (c *Checked) Alternatives() [][]int {
	if c.Requires != nil || c.Sentinel == nil || c.Sentinel.Target == nil {
		return c.Requires
	}
	// By normal form: a sentinel stored before NormalizeURL added the "/"
	// of an empty path keeps "http://a.example" in URLs. Not strict: a URL
	// stored before a later rule refused it (a host DNS refuses, a port
	// out of range) is one of its pages all the same (see normalizeURL).
	index := make(map[string]int, len(c.URLs))
	for i, u := range c.URLs {
		if n, err := normalizeURL(u, false); err == nil {
			u = n
		}
		if _, ok := index[u]; !ok {
			index[u] = i
		}
	}
	w := alternativesWalker{
		url: func(t *URLTarget) ([][]int, bool) {
			u, err := normalizeURL(t.URL, false)
			i, ok := index[u]
			return [][]int{{i}}, err == nil && ok
		},
		site: func(t *SiteTarget) ([][]int, bool) {
			u, err := normalizeURL(t.URL, false)
			i, ok := index[u]
			return [][]int{{i}}, err == nil && ok
		},
		sentinel: func(*SentinelTarget) ([][]int, bool) { return nil, false },
	}
	alts, ok := w.walk(c.Sentinel.Target)
	if !ok {
		return nil
	}
	return normalizeAlternatives(alts, len(c.URLs))
}

// alternativesWalker computes the alternatives of a target from those of
// its leaves; a leaf's function returns false when it cannot tell, and
// then so does walk.
type alternativesWalker struct {
	url      func(*URLTarget) ([][]int, bool)
	site     func(*SiteTarget) ([][]int, bool)
	sentinel func(*SentinelTarget) ([][]int, bool)
	// tooMany, if not nil, is told of an AND or an OR with more than
	// maxAlternatives combinations (the rest are dropped).
	tooMany func(*BinaryTarget)
	told    bool
}

func (w *alternativesWalker) walk(t Target) ([][]int, bool) {
	switch t := t.(type) {
	case *URLTarget:
		return w.url(t)
	case *SiteTarget:
		return w.site(t)
	case *SentinelTarget:
		return w.sentinel(t)
	case *BinaryTarget:
		x, okX := w.walk(t.X)
		y, okY := w.walk(t.Y)
		if !okX || !okY {
			return nil, false
		}
		if t.Op == Or {
			if len(x)+len(y) > maxAlternatives {
				w.tellTooMany(t)
				return append(x, y[:max(maxAlternatives-len(x), 0)]...)[:maxAlternatives], true
			}
			return append(x, y...), true
		}
		var alts [][]int
		for _, a := range x {
			for _, b := range y {
				if len(alts) >= maxAlternatives {
					w.tellTooMany(t)
					return alts, true
				}
				alts = append(alts, append(slices.Clone(a), b...))
			}
		}
		return alts, true
	}
	return nil, true
}

// tellTooMany tells tooMany, once, of t, whose alternatives are cut.
func (w *alternativesWalker) tellTooMany(t *BinaryTarget) {
	if w.tooMany != nil && !w.told {
		w.told = true
		w.tooMany(t)
	}
}

// normalizeAlternatives sorts each set of pages and drops repeated pages,
// empty and repeated sets, and sets that contain another (A OR (A AND B) is
// A). It returns nil when every one of the n pages is an alternative by
// itself: any page alone is enough.
func normalizeAlternatives(alts [][]int, n int) [][]int {
	var sets [][]int
	for _, a := range alts {
		a = slices.Compact(slices.Sorted(slices.Values(a)))
		if len(a) > 0 {
			sets = append(sets, a)
		}
	}
	// Smaller sets first, so that a set is compared with those it may
	// contain; then in order, for a deterministic result.
	slices.SortStableFunc(sets, func(a, b []int) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return slices.Compare(a, b)
	})
	var out [][]int
	for _, s := range sets {
		absorbed := false
		for _, kept := range out {
			if containsAll(s, kept) {
				absorbed = true
				break
			}
		}
		if !absorbed {
			out = append(out, s)
		}
	}
	alone := 0
	for _, s := range out {
		if len(s) == 1 {
			alone++
		}
	}
	if alone == len(out) && alone == n {
		return nil
	}
	return out
}

// containsAll reports whether the sorted set s contains every element of
// the sorted set sub.
func containsAll(s, sub []int) bool {
	i := 0
	for _, x := range sub {
		for i < len(s) && s[i] < x {
			i++
		}
		if i == len(s) || s[i] != x {
			return false
		}
		i++
	}
	return true
}
