package opic

import "testing"

// appendixB is the note's §5.4 example: sites X = {x1, x2, x3} and
// Y = {y1, y2}.
func appendixB(t *testing.T) (*Graph, []uint32) {
	t.Helper()
	const x1, x2, x3, y1, y2 = 0, 1, 2, 3, 4
	g, err := NewGraph(5, []Edge{{x1, x2}, {x1, x3}, {x2, x1}, {x3, x1}, {x3, y1}, {y1, y2}, {y1, x1}, {y2, y1}})
	if err != nil {
		t.Fatal(err)
	}
	return g, []uint32{0, 0, 0, 1, 1}
}

func TestSiteImportance(t *testing.T) {
	g, siteOf := appendixB(t)
	pr, _, err := PageRank(g, 0, 1e-15, 10000)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range []float64{4. / 11, 2. / 11, 2. / 11, 2. / 11, 1. / 11} {
		if !near(pr[i], w, 1e-9) {
			t.Errorf("page PageRank[%d] = %v, want %v", i, pr[i], w)
		}
	}
	sum := SiteImportance(pr, siteOf)
	if !near(sum[0], 8./11, 1e-9) || !near(sum[1], 3./11, 1e-9) {
		t.Errorf("I_site = %v, want (8/11, 3/11)", sum)
	}
	sg, err := NewSiteGraph(g, siteOf, SiteByImportance, pr)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []struct {
		from, to uint32
		want     float64
	}{{0, 0, 7. / 8}, {0, 1, 1. / 8}, {1, 0, 1. / 3}, {1, 1, 2. / 3}} {
		if got := sg.Weight(w.from, w.to); !near(got, w.want, 1e-9) {
			t.Errorf("L'[%d,%d] = %v, want %v", w.from, w.to, got, w.want)
		}
	}
	// Theorem B.0.1: the site graph's PageRank is the sum of page PageRanks.
	rank, err := sg.Rank(0, nil, 1e-15, 10000)
	if err != nil {
		t.Fatal(err)
	}
	if !near(rank[0], 8./11, 1e-9) || !near(rank[1], 3./11, 1e-9) {
		t.Errorf("site PageRank = %v, want (8/11, 3/11)", rank)
	}
	// The approximations differ from the definition, and by how much.
	approx := map[SiteWeighting][2]float64{
		SiteByUniform:   {3. / 5, 2. / 5},
		SiteByOutDegree: {1. / 2, 1. / 2},
	}
	for w, want := range approx {
		sg, err := NewSiteGraph(g, siteOf, w, nil)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := sg.Rank(0, nil, 1e-15, 10000)
		if !near(r[0], want[0], 1e-9) || !near(r[1], want[1], 1e-9) {
			t.Errorf("weighting %d: site rank %v, want %v", w, r, want)
		}
		if near(r[0], 8./11, 0.05) {
			t.Errorf("weighting %d: %v is within 0.05 of the definition", w, r)
		}
	}
	sg, err = NewSiteGraph(g, siteOf, SiteByInternalRank, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := sg.Rank(0, nil, 1e-15, 10000)
	if !near(r[0]+r[1], 1, 1e-9) || r[0] <= r[1] {
		t.Errorf("internal-rank site importance %v", r)
	}
	if _, err := NewSiteGraph(g, siteOf[:2], SiteByUniform, nil); err == nil {
		t.Errorf("short siteOf: no error")
	}
	if _, err := NewSiteGraph(g, siteOf, SiteByImportance, nil); err == nil {
		t.Errorf("no importances: no error")
	}
}

// TestSiteImportanceFromOPIC: OPIC's page estimates summed per site
// approach the site importance.
func TestSiteImportanceFromOPIC(t *testing.T) {
	g, siteOf := appendixB(t)
	o, _ := New(5, Config{})
	pol := NewGreedy(o)
	for range 10000 {
		p, _ := pol.Next()
		o.Read(p, g.Links(p))
	}
	s := SiteImportance(o.Importances(nil, EstimateSeed), siteOf)
	if !near(s[0], 8./11, 1e-3) || !near(s[1], 3./11, 1e-3) {
		t.Errorf("OPIC site importance %v, want (8/11, 3/11)", s)
	}
}

// TestSiteImportanceDamped: on a graph with dangling pages and α = 0.15,
// the site rank of the SiteByImportance graph, with the virtual site
// paying sites by their size, is the sum of the page PageRanks.
func TestSiteImportanceDamped(t *testing.T) {
	g, err := PowerLaw(2000, InDegreeExponent, 5)
	if err != nil {
		t.Fatal(err)
	}
	siteOf := make([]uint32, g.Len())
	size := make([]float64, 7)
	for p := range siteOf {
		siteOf[p] = uint32(p % 7)
		size[siteOf[p]]++
	}
	pr, _, _ := PageRank(g, DefaultAlpha, 1e-14, 1000)
	sum := SiteImportance(pr, siteOf)
	sg, err := NewSiteGraph(g, siteOf, SiteByImportance, pr)
	if err != nil {
		t.Fatal(err)
	}
	r, err := sg.Rank(DefaultAlpha, size, 1e-14, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for s := range sum {
		if !near(r[s], sum[s], 1e-9) {
			t.Errorf("site %d: rank %v, sum of pages %v", s, r[s], sum[s])
		}
	}
	if _, err := sg.Rank(DefaultAlpha, size[:2], 1e-9, 10); err == nil {
		t.Error("short teleport: no error")
	}
}
