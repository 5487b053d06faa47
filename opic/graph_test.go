package opic

import (
	"math"
	"slices"
	"testing"
)

func TestNewGraph(t *testing.T) {
	g, err := NewGraph(4, []Edge{{0, 2}, {0, 1}, {0, 2}, {1, 1}, {3, 0}, {1, 3}})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]PageID{{1, 2}, {3}, {}, {0}}
	for p, w := range want {
		if got := g.Links(PageID(p)); !slices.Equal(got, w) {
			t.Errorf("links of %d = %v, want %v (sorted, no self-link, no repeat)", p, got, w)
		}
	}
	if g.Edges() != 4 || g.Dangling() != 1 || g.Len() != 4 || len(g.EdgeList()) != 4 {
		t.Errorf("edges %d, dangling %d", g.Edges(), g.Dangling())
	}
	if _, err := NewGraph(2, []Edge{{0, 2}}); err == nil {
		t.Error("link out of range: no error")
	}
	if _, err := NewGraph(-1, nil); err == nil {
		t.Error("negative size: no error")
	}
}

// TestPowerLaw: deterministic, and the in-degree tail follows k^-2.1: the
// fraction of pages with in-degree >= k falls about as k^-1.1.
func TestPowerLaw(t *testing.T) {
	g, err := PowerLaw(50000, InDegreeExponent, 4)
	if err != nil {
		t.Fatal(err)
	}
	g2, _ := PowerLaw(50000, InDegreeExponent, 4)
	if !slices.Equal(g.dst, g2.dst) {
		t.Fatal("same seed, different graphs")
	}
	in := make([]int, g.Len())
	for _, e := range g.EdgeList() {
		in[e.To]++
	}
	atLeast := func(k int) float64 {
		c := 0
		for _, d := range in {
			if d >= k {
				c++
			}
		}
		return float64(c) / float64(len(in))
	}
	slope := math.Log(atLeast(40)/atLeast(4)) / math.Log(10)
	if slope > -0.9 || slope < -1.3 {
		t.Errorf("tail slope %.2f, want about -1.1", slope)
	}
	if _, err := PowerLaw(1, 2.1, 1); err == nil {
		t.Error("1 page: no error")
	}
	if _, err := PowerLaw(10, 1, 1); err == nil {
		t.Error("exponent 1: no error")
	}
}

func TestRewire(t *testing.T) {
	g, _ := PowerLaw(20000, InDegreeExponent, 2)
	g2, changed, err := Rewire(g, 0.1, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(changed) != 2000 || g2.Len() != g.Len() {
		t.Fatalf("%d pages changed of %d", len(changed), g2.Len())
	}
	in := func(g *Graph) []int {
		d := make([]int, g.Len())
		for _, e := range g.EdgeList() {
			d[e.To]++
		}
		return d
	}
	a, b := in(g), in(g2)
	isChanged := map[PageID]bool{}
	var up, down int
	for _, p := range changed {
		isChanged[p] = true
		switch {
		case b[p] > a[p]:
			up++
		case b[p] < a[p]:
			down++
		}
	}
	for p := range a {
		if !isChanged[PageID(p)] && a[p] != b[p] {
			t.Fatalf("page %d not chosen but its in-degree changed %d -> %d", p, a[p], b[p])
		}
	}
	if up < 700 || down < 500 {
		t.Errorf("%d doubled, %d halved of 2000", up, down)
	}
	if _, _, err := Rewire(g, 2, 1); err == nil {
		t.Error("fraction 2: no error")
	}
}

func TestCompare(t *testing.T) {
	ref := []float64{0.5, 0.3, 0.2, 0}
	est := []float64{0.55, 0.27, 0.2, 0.1}
	if got := MeanRelativeError(est, ref); !near(got, (0.1+0.1+0)/3, 1e-12) {
		t.Errorf("mean relative error %v", got)
	}
	if got := TopPages(ref, 0.5); !slices.Equal(got, []int{0, 1}) {
		t.Errorf("top pages %v", got)
	}
	if got := SubsetRelativeError(est, ref, []int{1}); !near(got, 0.1, 1e-12) {
		t.Errorf("subset error %v", got)
	}
	if got := Spearman([]float64{1, 2, 3, 4}, []float64{10, 20, 30, 40}); !near(got, 1, 1e-12) {
		t.Errorf("spearman same order %v", got)
	}
	if got := Spearman([]float64{1, 2, 3, 4}, []float64{4, 3, 2, 1}); !near(got, -1, 1e-12) {
		t.Errorf("spearman reverse %v", got)
	}
	// Ties at their mean rank: ranks (1.5, 1.5, 3) against (1, 2, 3).
	if got := Spearman([]float64{1, 1, 2}, []float64{1, 2, 3}); !near(got, 0.8660254, 1e-6) {
		t.Errorf("spearman with ties %v", got)
	}
}

func TestPageRankErrors(t *testing.T) {
	g, _ := NewGraph(2, []Edge{{0, 1}})
	if _, _, err := PageRank(g, 1, 1e-9, 10); err == nil {
		t.Error("alpha 1: no error")
	}
	pr, _, _ := PageRank(g, 0.15, 1e-14, 1000)
	// Page 1 is dangling: PageRank with its mass spread uniformly.
	if !near(pr[0]+pr[1], 1, 1e-12) || pr[1] <= pr[0] {
		t.Errorf("pagerank %v", pr)
	}
}
