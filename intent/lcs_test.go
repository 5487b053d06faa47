package intent

import (
	"math/rand/v2"
	"testing"
)

// lcsLength is the textbook quadratic LCS length.
func lcsLength(a, b []int32) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			switch {
			case a[i-1] == b[j-1]:
				cur[j] = prev[j-1] + 1
			case prev[j] >= cur[j-1]:
				cur[j] = prev[j]
			default:
				cur[j] = cur[j-1]
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func checkCommon(t *testing.T, a, b []int32, ps []lcsPair) {
	t.Helper()
	for k, p := range ps {
		if a[p.a] != b[p.b] {
			t.Fatalf("pair %v joins different elements", p)
		}
		if k > 0 && (p.a <= ps[k-1].a || p.b <= ps[k-1].b) {
			t.Fatalf("pairs not increasing: %v then %v", ps[k-1], p)
		}
	}
}

// TestLCSMyers checks that the O(ND) path finds a longest common
// subsequence, by forcing it on small random inputs.
func TestLCSMyers(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for iter := 0; iter < 2000; iter++ {
		n, m := r.IntN(40), r.IntN(40)
		alpha := int32(1 + r.IntN(6))
		a := make([]int32, n)
		b := make([]int32, m)
		for i := range a {
			a[i] = r.Int32N(alpha)
		}
		for j := range b {
			b[j] = r.Int32N(alpha)
		}
		want := lcsLength(a, b)
		for _, cells := range []int{0, 4, dpCells} {
			ps := lcsLimit(a, b, cells)
			checkCommon(t, a, b, ps)
			if len(ps) != want {
				t.Fatalf("cells=%d: a=%v b=%v: length %d, want %d", cells, a, b, len(ps), want)
			}
		}
	}
}

// TestLCSLarge runs long sequences with few edits (the O(ND) path) and a
// long sequence against an unrelated one (the patience fallback), which
// must finish quickly and stay a common subsequence.
func TestLCSLarge(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	n := 200000
	a := make([]int32, n)
	for i := range a {
		a[i] = r.Int32N(50000)
	}
	b := append([]int32(nil), a...)
	for k := 0; k < 200; k++ {
		i := r.IntN(len(b))
		b[i] = r.Int32N(50000)
	}
	ps := lcs(a, b)
	checkCommon(t, a, b, ps)
	if len(ps) < n-200 {
		t.Errorf("length %d, want at least %d", len(ps), n-200)
	}
	c := make([]int32, n)
	for i := range c {
		c[i] = r.Int32N(50000)
	}
	checkCommon(t, a, c, lcs(a, c))
	// a small alphabet (no patience anchors) with edits everywhere: the
	// O(ND) budget runs out and the halves are aligned instead
	m := 40000
	x := make([]int32, m)
	for i := range x {
		x[i] = r.Int32N(4)
	}
	y := append([]int32(nil), x...)
	for k := 0; k < 4000; k++ {
		y[r.IntN(m)] = r.Int32N(4)
	}
	ps = lcs(x, y)
	checkCommon(t, x, y, ps)
	if len(ps) < m*8/10 {
		t.Errorf("small alphabet: length %d of %d", len(ps), m)
	}
}

func TestLongestIncreasing(t *testing.T) {
	ps := []lcsPair{{0, 5}, {1, 1}, {2, 2}, {3, 9}, {4, 3}, {5, 4}}
	got := longestIncreasing(ps)
	if len(got) != 4 || got[0].b != 1 || got[3].b != 4 {
		t.Errorf("got %v", got)
	}
}
