package intent

// lcsPair is a pair of matched positions of a longest common subsequence.
type lcsPair struct{ a, b int }

// Limits of the LCS methods.
const (
	// dpCells is the largest subproblem (|a|·|b| table cells) solved by the
	// quadratic dynamic programme, whose tie-break the seed's examples use.
	dpCells = 1 << 16
	// myersBudget bounds the work of the O(ND) method on one subproblem
	// (diagonal steps), and myersPerItem bounds it relative to the
	// subproblem's size; past either, the subproblem is split in the middle.
	myersBudget  = 1 << 25
	myersPerItem = 256
	// patienceItems is the size (|a|+|b|) above which a subproblem is first
	// cut at patience anchors, in O(n log n), before the O(ND) method runs
	// on the pieces.
	patienceItems = 4096
)

// lcs returns a common subsequence of a and b as index pairs in increasing
// order: a longest one unless the sequences are long. It strips the common
// prefix and suffix, solves small subproblems with dynamic programming
// (filled from the end; on a tie the element of a is skipped first, as in
// the note §4.9), cuts subproblems of more than patienceItems elements at
// patience anchors (the elements that occur once in each side, kept along
// a longest increasing subsequence, O(n log n)), and solves the rest with
// Myers' linear-space O(ND) algorithm, exact, within a work budget past
// which a subproblem is split in the middle (a heuristic for sequences
// with many differences). No step is quadratic on long sequences.
func lcs(a, b []int32) []lcsPair {
	return lcsLimit(a, b, dpCells)
}

// lcsLimit is lcs with the largest subproblem for dynamic programming.
func lcsLimit(a, b []int32, cells int) []lcsPair {
	l := &lcsState{a: a, b: b, cells: cells, out: make([]lcsPair, 0, min(len(a), len(b)))}
	l.compare(0, len(a), 0, len(b), true)
	return l.out
}

type lcsState struct {
	a, b   []int32
	out    []lcsPair
	vf, vb []int
	cells  int
	table  []int32 // dynamic-programming scratch
	// patience scratch, indexed by element value
	cntA, cntB, posB []int32
	next             []int32
	cand             []lcsPair
}

func (l *lcsState) compare(a0, a1, b0, b1 int, myers bool) {
	for a0 < a1 && b0 < b1 && l.a[a0] == l.b[b0] {
		l.out = append(l.out, lcsPair{a0, b0})
		a0++
		b0++
	}
	s := 0
	for a0 < a1-s && b0 < b1-s && l.a[a1-1-s] == l.b[b1-1-s] {
		s++
	}
	a1e, b1e := a1-s, b1-s
	switch {
	case a0 == a1e || b0 == b1e:
	case (a1e-a0)*(b1e-b0) <= l.cells:
		l.dp(a0, a1e, b0, b1e)
	case myers && (a1e-a0)+(b1e-b0) > patienceItems && l.patience(a0, a1e, b0, b1e):
	default:
		if x, y, u, v, ok := l.middleSnake(a0, a1e, b0, b1e); ok {
			l.compare(a0, x, b0, y, false)
			for i := 0; i < u-x; i++ {
				l.out = append(l.out, lcsPair{x + i, y + i})
			}
			l.compare(u, a1e, v, b1e, false)
		} else {
			// Too many differences for O(ND): split both sides in the
			// middle, which aligns edits spread evenly, and go on.
			am, bm := a0+(a1e-a0)/2, b0+(b1e-b0)/2
			l.compare(a0, am, b0, bm, true)
			l.compare(am, a1e, bm, b1e, true)
		}
	}
	for i := 0; i < s; i++ {
		l.out = append(l.out, lcsPair{a1e + i, b1e + i})
	}
}

// dp solves a small subproblem exactly.
func (l *lcsState) dp(a0, a1, b0, b1 int) {
	n, m := a1-a0, b1-b0
	w := m + 1
	if cap(l.table) < (n+1)*w {
		l.table = make([]int32, (n+1)*w)
	}
	t := l.table[:(n+1)*w]
	for i := n * w; i < len(t); i++ {
		t[i] = 0
	}
	for i := 0; i < n; i++ {
		t[i*w+m] = 0
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if l.a[a0+i] == l.b[b0+j] {
				t[i*w+j] = t[(i+1)*w+j+1] + 1
			} else if t[(i+1)*w+j] >= t[i*w+j+1] {
				t[i*w+j] = t[(i+1)*w+j]
			} else {
				t[i*w+j] = t[i*w+j+1]
			}
		}
	}
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case l.a[a0+i] == l.b[b0+j]:
			l.out = append(l.out, lcsPair{a0 + i, b0 + j})
			i++
			j++
		case t[(i+1)*w+j] >= t[i*w+j+1]:
			i++ // skip the old element first
		default:
			j++
		}
	}
}

// middleSnake finds the middle snake of an optimal edit path (Myers 1986,
// §4b): the path's D/2-th diagonal run, from (x, y) to (u, v). It reports
// false when the work exceeds myersBudget.
func (l *lcsState) middleSnake(a0, a1, b0, b1 int) (x, y, u, v int, ok bool) {
	N, M := a1-a0, b1-b0
	delta := N - M
	max := (N + M + 1) / 2
	size := 2*max + 3
	if cap(l.vf) < size {
		l.vf = make([]int, size)
		l.vb = make([]int, size)
	}
	vf, vb := l.vf[:size], l.vb[:size]
	off := max + 1
	for i := range vf {
		vf[i], vb[i] = -1, -1
	}
	vf[off+1], vb[off+1] = 0, 0
	odd := delta&1 != 0
	work := 0
	for d := 0; d <= max; d++ {
		work += 2 * (N + M)
		if d > 1 && (work > myersBudget || work > myersPerItem*(N+M)) {
			return 0, 0, 0, 0, false
		}
		for k := -d; k <= d; k += 2 {
			var px int
			if k == -d || (k != d && vf[off+k-1] < vf[off+k+1]) {
				px = vf[off+k+1]
			} else {
				px = vf[off+k-1] + 1
			}
			py := px - k
			sx, sy := px, py
			for px < N && py < M && l.a[a0+px] == l.b[b0+py] {
				px++
				py++
			}
			vf[off+k] = px
			if c := delta - k; odd && c >= -(d-1) && c <= d-1 {
				if vb[off+c] >= 0 && px+vb[off+c] >= N {
					return a0 + sx, b0 + sy, a0 + px, b0 + py, true
				}
			}
		}
		for k := -d; k <= d; k += 2 {
			var px int
			if k == -d || (k != d && vb[off+k-1] < vb[off+k+1]) {
				px = vb[off+k+1]
			} else {
				px = vb[off+k-1] + 1
			}
			py := px - k
			sx, sy := px, py
			for px < N && py < M && l.a[a1-1-px] == l.b[b1-1-py] {
				px++
				py++
			}
			vb[off+k] = px
			if c := delta - k; !odd && c >= -d && c <= d {
				if vf[off+c] >= 0 && px+vf[off+c] >= N {
					return a0 + N - px, b0 + M - py, a0 + N - sx, b0 + M - sy, true
				}
			}
		}
	}
	return 0, 0, 0, 0, false
}

// patience matches the elements that occur exactly once in each side
// (or, when there are none, the k-th occurrences of the elements that occur
// as often in both sides, for repeated content), keeps the longest
// increasing run of them (the anchors), and solves the gaps between
// anchors. It reports false, doing nothing, when there is no anchor.
func (l *lcsState) patience(a0, a1, b0, b1 int) bool {
	if l.cntA == nil {
		maxID := int32(0)
		for _, v := range l.a {
			maxID = max(maxID, v)
		}
		for _, v := range l.b {
			maxID = max(maxID, v)
		}
		l.cntA = make([]int32, maxID+1)
		l.cntB = make([]int32, maxID+1)
		l.posB = make([]int32, maxID+1)
	}
	for i := a0; i < a1; i++ {
		l.cntA[l.a[i]]++
	}
	// posB[v] ends as the first occurrence of v in b; next chains the
	// occurrences
	if cap(l.next) < b1-b0 {
		l.next = make([]int32, b1-b0)
	}
	next := l.next[:b1-b0]
	for j := b1 - 1; j >= b0; j-- {
		v := l.b[j]
		if l.cntB[v] == 0 {
			next[j-b0] = -1
		} else {
			next[j-b0] = l.posB[v]
		}
		l.cntB[v]++
		l.posB[v] = int32(j)
	}
	// Each side's element is in one candidate at most: room for the
	// smaller side serves this call and the recursive ones, whose ranges
	// are inside it.
	if n := min(a1-a0, b1-b0); cap(l.cand) < n {
		l.cand = make([]lcsPair, 0, n)
	}
	cand := l.cand[:0]
	for i := a0; i < a1; i++ {
		if v := l.a[i]; l.cntA[v] == 1 && l.cntB[v] == 1 {
			cand = append(cand, lcsPair{i, int(l.posB[v])})
		}
	}
	if len(cand) == 0 {
		// No unique element (repeated content): pair the k-th occurrences
		// of the elements that occur as often in both sides.
		for i := a0; i < a1; i++ {
			v := l.a[i]
			if l.cntA[v] != l.cntB[v] {
				continue
			}
			j := l.posB[v]
			cand = append(cand, lcsPair{i, int(j)})
			l.posB[v] = next[int(j)-b0]
		}
	}
	for i := a0; i < a1; i++ {
		l.cntA[l.a[i]] = 0
	}
	for j := b0; j < b1; j++ {
		l.cntB[l.b[j]] = 0
	}
	anchors := longestIncreasing(cand)
	l.cand = cand[:0] // reused by the recursive calls: anchors is a copy
	if len(anchors) == 0 {
		return false
	}
	pa, pb := a0, b0
	for _, p := range anchors {
		l.compare(pa, p.a, pb, p.b, true)
		l.out = append(l.out, p)
		pa, pb = p.a+1, p.b+1
	}
	l.compare(pa, a1, pb, b1, true)
	return true
}

// longestIncreasing returns the longest subsequence of ps (sorted by a)
// increasing in b, in O(n log n).
func longestIncreasing(ps []lcsPair) []lcsPair {
	// tails holds the index into ps of the smallest tail of each length;
	// it never outgrows ps, and growing it by appends would allocate
	// twice that.
	tails := make([]int, 0, len(ps))
	prev := make([]int, len(ps))
	for i, p := range ps {
		lo, hi := 0, len(tails) // first tail with b >= p.b
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if ps[tails[m]].b < p.b {
				lo = m + 1
			} else {
				hi = m
			}
		}
		k := lo
		if k > 0 {
			prev[i] = tails[k-1]
		} else {
			prev[i] = -1
		}
		if k == len(tails) {
			tails = append(tails, i)
		} else {
			tails[k] = i
		}
	}
	out := make([]lcsPair, len(tails))
	for i, k := len(tails)-1, -1; i >= 0; i-- {
		if k == -1 {
			k = tails[len(tails)-1]
		}
		out[i] = ps[k]
		k = prev[k]
	}
	return out
}
