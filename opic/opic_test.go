package opic

import (
	"errors"
	"math"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

// trace3 is the note's §5.1 graph: A→B, A→C, B→C, C→A.
func trace3(t *testing.T) *Graph {
	t.Helper()
	g, err := NewGraph(3, []Edge{{0, 1}, {0, 2}, {1, 2}, {2, 0}})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestTrace3 replays the note's §5.1 table: pure OPIC (Fig. 7.1, α = 0)
// with the Cycle policy, and the closed form H = (k − 2/3, k/2, k),
// Z = 5k/2 − 2/3 after 3k reads, H/Z → (0.4, 0.2, 0.4).
func TestTrace3(t *testing.T) {
	g := trace3(t)
	o, err := New(3, Config{})
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		c, h         [3]float64
		z            float64
		hz, estimate [3]float64
	}
	want := map[int]row{
		1:  {[3]float64{0, .5, .5}, [3]float64{1. / 3, 0, 0}, 1. / 3, [3]float64{1, 0, 0}, [3]float64{.25, .375, .375}},
		2:  {[3]float64{0, 0, 1}, [3]float64{1. / 3, .5, 0}, 5. / 6, [3]float64{.4, .6, 0}, [3]float64{.1818, .2727, .5455}},
		3:  {[3]float64{1, 0, 0}, [3]float64{1. / 3, .5, 1}, 11. / 6, [3]float64{.1818, .2727, .5455}, [3]float64{.4706, .1765, .3529}},
		4:  {[3]float64{0, .5, .5}, [3]float64{4. / 3, .5, 1}, 17. / 6, [3]float64{.4706, .1765, .3529}, [3]float64{.3478, .2609, .3913}},
		5:  {[3]float64{0, 0, 1}, [3]float64{4. / 3, 1, 1}, 10. / 3, [3]float64{.4, .3, .3}, [3]float64{.3077, .2308, .4615}},
		6:  {[3]float64{1, 0, 0}, [3]float64{4. / 3, 1, 2}, 13. / 3, [3]float64{.3077, .2308, .4615}, [3]float64{.4375, .1875, .375}},
		12: {[3]float64{1, 0, 0}, [3]float64{10. / 3, 2, 4}, 28. / 3, [3]float64{.3571, .2143, .4286}, [3]float64{.4194, .1935, .3871}},
	}
	pol := NewCycle(o)
	for step := 1; step <= 3000; step++ {
		p, _ := pol.Next()
		if err := o.Read(p, g.Links(p)); err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, o, true)
		checkLemma733(t, o, g)
		if w, ok := want[step]; ok {
			for i := range 3 {
				id := PageID(i)
				if !near(o.Cash(id), w.c[i], 1e-6) || !near(o.History(id), w.h[i], 1e-6) ||
					!near(o.Importance(id), w.hz[i], 1e-4) || !near(o.Estimate(id), w.estimate[i], 1e-4) {
					t.Errorf("step %d page %c: C %.4f H %.4f H/Z %.4f est %.4f, want %.4f %.4f %.4f %.4f", step, 'A'+i,
						o.Cash(id), o.History(id), o.Importance(id), o.Estimate(id), w.c[i], w.h[i], w.hz[i], w.estimate[i])
				}
			}
			if !near(o.Z(), w.z, 1e-6) {
				t.Errorf("step %d: Z = %v, want %v", step, o.Z(), w.z)
			}
		}
		if step%3 == 0 {
			k := float64(step / 3)
			closed := [3]float64{k - 2./3, k / 2, k}
			for i := range 3 {
				if !near(o.History(PageID(i)), closed[i], 1e-5*k) {
					t.Fatalf("after %d reads H[%c] = %v, closed form %v", step, 'A'+i, o.History(PageID(i)), closed[i])
				}
			}
			if !near(o.Z(), 5*k/2-2./3, 1e-9*k) {
				t.Fatalf("after %d reads Z = %v, closed form %v", step, o.Z(), 5*k/2-2./3)
			}
		}
	}
	for i, w := range []float64{.4, .2, .4} {
		if got := o.Importance(PageID(i)); !near(got, w, 1e-3) {
			t.Errorf("H/Z[%c] = %v after 3000 reads, want %v", 'A'+i, got, w)
		}
	}
}

// TestTrace3Greedy: Greedy with ties to the lowest id reads A, B, C, A, ...
// on the §5.1 graph, the same order as Cycle.
func TestTrace3Greedy(t *testing.T) {
	g := trace3(t)
	o, _ := New(3, Config{})
	pol := NewGreedy(o)
	for step := 0; step < 30; step++ {
		p, ok := pol.Next()
		if !ok || p != PageID(step%3) {
			t.Fatalf("step %d: greedy chose %d, want %d", step+1, p, step%3)
		}
		if err := o.Read(p, g.Links(p)); err != nil {
			t.Fatal(err)
		}
	}
}

// checkLemma733 checks H[j] + C[j] = C0[j] + Σ_{i→j} H[i]/out[i] (α = 0,
// no dangling page, initial cash 1/n).
func checkLemma733(t *testing.T, o *OPIC, g *Graph) {
	t.Helper()
	n := g.Len()
	rhs := make([]float64, n)
	for i := range rhs {
		rhs[i] = 1 / float64(n)
	}
	for i := 0; i < n; i++ {
		links := g.Links(PageID(i))
		for _, j := range links {
			rhs[j] += o.History(PageID(i)) / float64(len(links))
		}
	}
	for j := 0; j < n; j++ {
		if lhs := o.History(PageID(j)) + o.Cash(PageID(j)); !near(lhs, rhs[j], 1e-5*(1+lhs)) {
			t.Fatalf("Lemma 7.3.3 page %d: H + C = %v, C0 + Σ H/out = %v", j, lhs, rhs[j])
		}
		if o.Z() > 0 {
			if got := o.Propagated(PageID(j)) * o.Z(); !near(got, rhs[j]-1/float64(n), 1e-5*(1+got)) {
				t.Fatalf("page %d: (H + C − C0) = %v, Σ H/out = %v", j, got, rhs[j]-1/float64(n))
			}
		}
	}
}

func checkInvariants(t *testing.T, o *OPIC, sumH bool) {
	t.Helper()
	if c := o.TotalCash(); !near(c, 1, 1e-9) {
		t.Fatalf("after %d reads Σ cash = %.15f, want 1", o.Reads(), c)
	}
	if sumH {
		if h := o.TotalHistory(); !near(h, o.Z(), 1e-5*(1+o.Z())) {
			t.Fatalf("after %d reads Σ H = %.9f, Z = %.9f", o.Reads(), h, o.Z())
		}
	}
}

// virtual4 is the note's §5.2 graph: p1→p2, p1→p3, p2→p3, p4→p3; p3 is
// dangling and p4 has no in-link.
func virtual4(t *testing.T) *Graph {
	t.Helper()
	g, err := NewGraph(4, []Edge{{0, 1}, {0, 2}, {1, 2}, {3, 2}})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestVirtualPageIsPageRank: with α = 0.15, the virtual page makes OPIC's
// fixpoint PageRank with damping 0.85 (note §5.2), for every policy.
func TestVirtualPageIsPageRank(t *testing.T) {
	g := virtual4(t)
	want := []float64{0.14469, 0.20619, 0.50443, 0.14469}
	pr, _, err := PageRank(g, DefaultAlpha, 1e-14, 1000)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if !near(pr[i], want[i], 5e-6) {
			t.Errorf("PageRank[p%d] = %.5f, want %.5f", i+1, pr[i], want[i])
		}
	}
	policies := map[string]func(*OPIC) Policy{
		"greedy": func(o *OPIC) Policy { return NewGreedy(o) },
		"random": func(o *OPIC) Policy { return NewRandom(o, 1) },
		"cycle":  func(o *OPIC) Policy { return NewCycle(o) },
	}
	for name, mk := range policies {
		t.Run(name, func(t *testing.T) {
			o, err := New(4, Config{Alpha: DefaultAlpha})
			if err != nil {
				t.Fatal(err)
			}
			pol := mk(o)
			for range 5000 {
				p, _ := pol.Next()
				if err := o.Read(p, g.Links(p)); err != nil {
					t.Fatal(err)
				}
			}
			checkInvariants(t, o, true)
			for _, e := range []Estimator{EstimateSeed, EstimateHistory, EstimatePropagated} {
				got := o.Importances(nil, e)
				for i := range want {
					if !near(got[i], pr[i], 2e-3) {
						t.Errorf("OPIC %v [p%d] = %.5f, PageRank %.5f", e, i+1, got[i], pr[i])
					}
				}
			}
			if v := o.VirtualHistory() / o.Z(); !near(v, 0.36659, 2e-3) {
				t.Errorf("virtual page H/Z = %.5f, want 0.36659", v)
			}
		})
	}
}

func TestReadErrors(t *testing.T) {
	o, _ := New(3, Config{Alpha: 0.15})
	if err := o.Read(3, nil); !errors.Is(err, ErrNoPage) {
		t.Errorf("read unknown page: %v", err)
	}
	if err := o.Read(0, []PageID{1, 7}); !errors.Is(err, ErrNoPage) {
		t.Errorf("link to unknown page: %v", err)
	}
	if o.Reads() != 0 || !near(o.TotalCash(), 1, 1e-12) || o.Cash(0) != 1./3 {
		t.Errorf("a failed read changed the state")
	}
	if err := o.Delete(1); err != nil {
		t.Fatal(err)
	}
	if err := o.Read(1, nil); !errors.Is(err, ErrDeleted) {
		t.Errorf("read deleted page: %v", err)
	}
	if err := o.Delete(1); !errors.Is(err, ErrDeleted) {
		t.Errorf("delete twice: %v", err)
	}
	if err := o.Merge(0, 0); err == nil {
		t.Errorf("merge into itself: no error")
	}
	if err := o.Merge(0, 1); !errors.Is(err, ErrDeleted) {
		t.Errorf("merge into deleted page: %v", err)
	}
	for _, cfg := range []Config{{Alpha: -0.1}, {Alpha: 1}, {Alpha: math.NaN()},
		{History: Interpolation{}}, {History: VariableWindow{K: 0}}, {History: FixedWindow{Window: -1}}} {
		if _, err := New(2, cfg); err == nil {
			t.Errorf("New(%+v): no error", cfg)
		}
	}
}

// TestDeleteAndMerge: a deleted page's cash goes to the virtual page and is
// paid out; a merge moves cash and history; totals hold.
func TestDeleteAndMerge(t *testing.T) {
	o, _ := New(4, Config{Alpha: 0.15})
	if err := o.Read(0, []PageID{1, 2}); err != nil {
		t.Fatal(err)
	}
	c1 := o.Cash(1)
	if err := o.Delete(1); err != nil {
		t.Fatal(err)
	}
	if o.Live() != 3 || o.Cash(1) != 0 || !o.Deleted(1) {
		t.Errorf("after delete: live %d, cash %v", o.Live(), o.Cash(1))
	}
	checkInvariants(t, o, true)
	if got := o.VirtualHistory(); got < c1 {
		t.Errorf("virtual page paid %v, want at least the deleted cash %v", got, c1)
	}
	// A link to the deleted page pays the virtual page.
	before := o.VirtualHistory()
	c0 := o.Cash(3)
	if err := o.Read(3, []PageID{1}); err != nil {
		t.Fatal(err)
	}
	if !near(o.VirtualHistory()-before, c0, 1e-12) {
		t.Errorf("link to deleted page: virtual page got %v, want %v", o.VirtualHistory()-before, c0)
	}
	h2, c2, h3, c3 := o.History(2), o.Cash(2), o.History(3), o.Cash(3)
	if err := o.Merge(3, 2); err != nil {
		t.Fatal(err)
	}
	if o.InitialCash(2) != 0.5 || o.InitialCash(3) != 0.25 {
		t.Errorf("merge: C0 = %v, want 1/4 + 1/4", o.InitialCash(2))
	}
	if !near(o.History(2), h2+h3, 1e-7) || !near(o.Cash(2), c2+c3, 1e-12) || o.Live() != 2 {
		t.Errorf("merge: H %v C %v, want %v %v", o.History(2), o.Cash(2), h2+h3, c2+c3)
	}
	checkInvariants(t, o, true)
	p := o.AddPage()
	if p != 4 || o.Cash(p) != 0 || o.History(p) != 0 || o.LastRead(p) != o.Z() {
		t.Errorf("new page %d: C %v H %v Z[i] %v", p, o.Cash(p), o.History(p), o.LastRead(p))
	}
	checkInvariants(t, o, true)
}

// TestAllDeleted: with no live page the virtual page keeps the cash, and
// pays it to the next page added.
func TestAllDeleted(t *testing.T) {
	o, _ := New(2, Config{Alpha: 0.15})
	o.Delete(0)
	o.Delete(1)
	if !near(o.VirtualCash(), 1, 1e-12) || !near(o.TotalCash(), 1, 1e-12) {
		t.Fatalf("virtual cash %v", o.VirtualCash())
	}
	for _, pol := range []Policy{NewRandom(o, 1), NewCycle(o), NewGreedy(o)} {
		if _, ok := pol.Next(); ok {
			t.Errorf("%T chose a page with none live", pol)
		}
	}
	p := o.AddPage()
	if !near(o.Cash(p), 1, 1e-12) {
		t.Errorf("new page cash %v, want 1", o.Cash(p))
	}
	e, _ := New(0, Config{})
	if e.AddPage() != 0 || !near(e.Cash(0), 1, 1e-12) {
		t.Errorf("empty state: first page cash %v", e.Cash(0))
	}
}
