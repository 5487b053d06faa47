package opic

import (
	"math"
	"testing"
	"time"
)

// TestInterpolate checks the note's §5.3 table (T = 10 Z units).
func TestInterpolate(t *testing.T) {
	cases := map[string]struct{ h, c, gap, want float64 }{
		"overlap":      {0.5, 0.3, 4, 0.6},
		"long gap":     {0.5, 0.75, 25, 0.3},
		"boundary":     {0.5, 0.2, 10, 0.2},
		"back to back": {0.5, 0.01, 0.5, 0.485},
	}
	for name, c := range cases {
		if got := Interpolate(c.h, c.c, c.gap, 10); !near(got, c.want, 1e-12) {
			t.Errorf("%s: Interpolate = %v, want %v", name, got, c.want)
		}
		if got := Interpolate(c.h, c.c, c.gap, 10) / 10; !near(got, c.want/10, 1e-12) {
			t.Errorf("%s: H/T = %v", name, got)
		}
	}
	// Both branches agree at the boundary: just under T (the overlap's
	// formula) and at T (the gap's).
	const h, c, window = 0.5, 0.2, 10.0
	if a, b := Interpolate(h, c, window*(1-1e-12), window), Interpolate(h, c, window, window); !near(a, b, 1e-9) {
		t.Errorf("branches disagree at gap = T: %v just under, %v at T", a, b)
	}
}

// TestInterpolateSteadyState: a constant inflow r per unit of Z gives
// H → r·T for any visit pattern.
func TestInterpolateSteadyState(t *testing.T) {
	const r, T = 0.02, 10.0
	for _, gap := range []float64{0.5, 4, 10, 25} {
		h := 0.0
		for range 2000 {
			h = Interpolate(h, r*gap, gap, T)
		}
		if !near(h, r*T, 1e-9) {
			t.Errorf("visits every %v: H = %v, want %v", gap, h, r*T)
		}
	}
}

// TestInterpolationInOPIC: the update rule runs at each read with Z[i];
// on a static graph Σ H / T is about 1 (note §5.3: 1.00–1.10).
func TestInterpolationInOPIC(t *testing.T) {
	// A strongly connected graph without dangling pages, and α = 0, so that
	// all of Z is real pages' cash.
	g := ringPowerLaw(t, 2000)
	const T = 4
	o, err := New(g.Len(), Config{History: Interpolation{Window: T}})
	if err != nil {
		t.Fatal(err)
	}
	pol := NewGreedy(o)
	for range 20 * g.Len() {
		p, _ := pol.Next()
		zi, h, c := o.LastRead(p), o.History(p), o.Cash(p)
		want := Interpolate(h, c, o.Z()-zi, T)
		if err := o.Read(p, g.Links(p)); err != nil {
			t.Fatal(err)
		}
		if !near(o.History(p), want, 1e-6*(1+want)) {
			t.Fatalf("H after read %v, rule gives %v", o.History(p), want)
		}
		if !near(o.LastRead(p), o.Z()-c, 1e-12) {
			t.Fatalf("Z[i] = %v, want the Z of the read %v", o.LastRead(p), o.Z()-c)
		}
	}
	checkInvariants(t, o, false)
	if s := o.TotalHistory() / T; s < 0.95 || s > 1.15 {
		t.Errorf("Σ H / T = %v, want about 1", s)
	}
	if err := o.SetWindow(8); err != nil || o.Window() != 8 {
		t.Errorf("SetWindow: %v", err)
	}
}

// ringPowerLaw is a power-law graph plus a ring, so it is strongly
// connected and has no dangling page.
func ringPowerLaw(t testing.TB, n int) *Graph {
	pl, err := PowerLaw(n, InDegreeExponent, 7)
	if err != nil {
		t.Fatal(err)
	}
	edges := pl.EdgeList()
	for i := 0; i < n; i++ {
		edges = append(edges, Edge{PageID(i), PageID((i + 1) % n)})
	}
	g, err := NewGraph(n, edges)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestWindowPolicies: every history policy converges near PageRank on a
// static graph, and the window policies keep the measures they promise.
func TestWindowPolicies(t *testing.T) {
	g, err := PowerLaw(3000, InDegreeExponent, 3)
	if err != nil {
		t.Fatal(err)
	}
	pr, _, _ := PageRank(g, DefaultAlpha, 1e-12, 1000)
	top := TopPages(pr, 0.1)
	cases := map[string]struct {
		h        History
		measures [2]float64 // bounds on the mean measures a page
		maxTop   float64
	}{
		"cumulative":     {Cumulative{}, [2]float64{1, 1}, 0.03},
		"interpolation":  {Interpolation{Window: 8}, [2]float64{1, 1}, 0.08},
		"variable k=8":   {VariableWindow{K: 8}, [2]float64{4, 8}, 0.08},
		"fixed T=8":      {FixedWindow{Window: 8}, [2]float64{1, 8}, 0.12},
		"fixed T=4 min3": {FixedWindow{Window: 4, Min: 3}, [2]float64{3, 8}, 0.12},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			o, err := New(g.Len(), Config{Alpha: DefaultAlpha, History: c.h})
			if err != nil {
				t.Fatal(err)
			}
			pol := NewGreedy(o)
			for range 20 * g.Len() {
				p, _ := pol.Next()
				if err := o.Read(p, g.Links(p)); err != nil {
					t.Fatal(err)
				}
			}
			checkInvariants(t, o, c.h != (Interpolation{Window: 8}))
			est := o.Importances(nil, EstimateSeed)
			if e := SubsetRelativeError(est, pr, top); e > c.maxTop {
				t.Errorf("top 10%% error %.4f, want at most %.2f", e, c.maxTop)
			}
			if m := o.Measures(); m < c.measures[0] || m > c.measures[1] {
				t.Errorf("%.2f measures a page, want %v", m, c.measures)
			}
			if HistoryName(c.h) == "" {
				t.Errorf("no name")
			}
		})
	}
}

func TestInterpolationWindow(t *testing.T) {
	// 3 months at N = 1e6 pages a month with Greedy (Z grows 2/N a read):
	// about 6 Z units, 3 crawls of the graph counted twice.
	month := 30 * 24 * time.Hour
	rate := 1e6 / month.Seconds()
	if got := InterpolationWindow(3*month, rate, 2/1e6); !near(got, 6, 1e-9) {
		t.Errorf("T = %v, want 6", got)
	}
}

// TestResumeHistory: a page's Interpolation history can be given back
// from an estimate kept elsewhere (H = estimate·T), so that its estimate
// resumes there rather than from nothing; the next read interpolates
// from it. Other policies, unknown or deleted pages and histories that
// are no amount of cash are refused, changing nothing.
func TestResumeHistory(t *testing.T) {
	o, err := New(2, Config{Alpha: DefaultAlpha, History: Interpolation{Window: 8}})
	if err != nil {
		t.Fatal(err)
	}
	if err := o.ResumeHistory(0, 0.25*8); err != nil {
		t.Fatal(err)
	}
	if got := o.Importance(0); got != 0.25 {
		t.Errorf("Importance after resume = %v, want 0.25", got)
	}
	c := o.Cash(0)
	if err := o.Read(0, []PageID{1}); err != nil {
		t.Fatal(err)
	}
	// Read at gap 0 keeps the whole window: H = 2 + c.
	if got, want := o.History(0), 2+c; math.Abs(got-want) > 1e-6 {
		t.Errorf("History after a read = %v, want %v", got, want)
	}
	if err := o.Delete(1); err != nil {
		t.Fatal(err)
	}
	cum, err := New(1, Config{})
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		o *OPIC
		p PageID
		h float64
	}{
		"cumulative":   {cum, 0, 1},
		"unknown page": {o, 7, 1},
		"deleted page": {o, 1, 1},
		"negative":     {o, 0, -1},
		"not a number": {o, 0, math.NaN()},
		"infinite":     {o, 0, math.Inf(1)},
		// H is a float32: 1e39 was kept as +Inf, a state WriteTo
		// wrote and Decode refused.
		"beyond float32": {o, 0, 1e39},
	} {
		before := tc.o.History(tc.p)
		if err := tc.o.ResumeHistory(tc.p, tc.h); err == nil {
			t.Errorf("%s: ResumeHistory(%d, %v) = nil, want an error", name, tc.p, tc.h)
		}
		if got := tc.o.History(tc.p); got != before {
			t.Errorf("%s: history %v after a refused resume, want %v", name, got, before)
		}
	}
}

// TestResume: a state resumed from kept estimates gives each page its
// estimate back, and spreads the cash, 1 in all, in proportion to them
// (uniformly if all are 0); bad estimates and other policies are refused.
func TestResume(t *testing.T) {
	cfg := Config{Alpha: DefaultAlpha, History: Interpolation{Window: 8}}
	for name, tc := range map[string]struct {
		est, cash []float64
	}{
		"estimates": {[]float64{0.375, 0.125, 0}, []float64{0.75, 0.25, 0}},
		"all zero":  {[]float64{0, 0}, []float64{0.5, 0.5}},
		"none":      {nil, nil},
	} {
		o, err := Resume(tc.est, cfg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if o.Len() != len(tc.est) {
			t.Fatalf("%s: %d pages, want %d", name, o.Len(), len(tc.est))
		}
		for i, e := range tc.est {
			if got := o.Importance(PageID(i)); got != e {
				t.Errorf("%s: page %d importance %v, want %v", name, i, got, e)
			}
			if got := o.Cash(PageID(i)); got != tc.cash[i] {
				t.Errorf("%s: page %d cash %v, want %v", name, i, got, tc.cash[i])
			}
		}
		if got := o.TotalCash(); math.Abs(got-1) > 1e-12 {
			t.Errorf("%s: total cash %v, want 1", name, got)
		}
	}
	for name, tc := range map[string]struct {
		est []float64
		cfg Config
	}{
		"cumulative":   {[]float64{0.5}, Config{}},
		"above 1":      {[]float64{0.5, 1.5}, cfg},
		"negative":     {[]float64{-0.5}, cfg},
		"not a number": {[]float64{math.NaN()}, cfg},
	} {
		if _, err := Resume(tc.est, tc.cfg); err == nil {
			t.Errorf("%s: Resume(%v) = nil error", name, tc.est)
		}
	}
}
