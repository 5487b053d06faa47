package opic

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestChangingGraphInvariants drives OPIC on random graphs that change
// under it (pages added when first linked, deleted, merged, links
// rewritten) and checks after every step that Σ C = 1 and, for cumulative
// and window histories, Σ H = Z; and that Greedy's choice has the most cash.
func TestChangingGraphInvariants(t *testing.T) {
	histories := []History{Cumulative{}, Interpolation{Window: 2}, VariableWindow{K: 4}, FixedWindow{Window: 2, Min: 1}}
	for seed := uint64(1); seed <= 6; seed++ {
		for _, h := range histories {
			for _, policy := range []string{"greedy", "random", "cycle"} {
				name := fmt.Sprintf("seed%d/%s/%s", seed, HistoryName(h), policy)
				t.Run(name, func(t *testing.T) { runChanging(t, seed, h, policy) })
			}
		}
	}
}

func runChanging(t *testing.T, seed uint64, h History, policy string) {
	rng := rand.New(rand.NewPCG(seed, 99))
	n := 5 + rng.IntN(20)
	o, err := New(n, Config{Alpha: []float64{0, 0.15, 0.5}[seed%3], History: h})
	if err != nil {
		t.Fatal(err)
	}
	var pol Policy
	switch policy {
	case "greedy":
		pol = NewGreedy(o)
	case "random":
		pol = NewRandom(o, seed)
	default:
		pol = NewCycle(o)
	}
	_, sumH := h.(Interpolation)
	sumH = !sumH
	links := make([][]PageID, n) // the current graph, known to the test only
	randomLinks := func() []PageID {
		var l []PageID
		for range rng.IntN(5) {
			l = append(l, PageID(rng.IntN(o.Len())))
		}
		return l
	}
	for i := range links {
		links[i] = randomLinks()
	}
	for step := 0; step < 2000; step++ {
		switch r := rng.IntN(100); {
		case r < 5: // a new page, first linked from a random live page
			p := o.AddPage()
			links = append(links, randomLinks())
			if q := PageID(rng.IntN(o.Len())); !o.Deleted(q) {
				links[q] = append(links[q], p)
			}
		case r < 8 && o.Live() > 2: // a page is gone (404)
			if p := PageID(rng.IntN(o.Len())); !o.Deleted(p) {
				if err := o.Delete(p); err != nil {
					t.Fatal(err)
				}
			}
		case r < 10 && o.Live() > 2: // a redirect
			from, into := PageID(rng.IntN(o.Len())), PageID(rng.IntN(o.Len()))
			if from != into && !o.Deleted(from) && !o.Deleted(into) {
				if err := o.Merge(from, into); err != nil {
					t.Fatal(err)
				}
			}
		case r < 15: // a page's links change
			links[rng.IntN(len(links))] = randomLinks()
		default:
			p, ok := pol.Next()
			if !ok {
				t.Fatal("no page to read")
			}
			if policy == "greedy" {
				checkGreedy(t, o, p)
			}
			if err := o.Read(p, links[p]); err != nil {
				t.Fatal(err)
			}
		}
		checkInvariants(t, o, sumH)
	}
	if o.Reads() == 0 {
		t.Fatal("no reads")
	}
}

// checkGreedy checks that p has the most cash of the live pages, within
// the heap key's float32 precision.
func checkGreedy(t *testing.T, o *OPIC, p PageID) {
	t.Helper()
	best := -1.0
	for i := 0; i < o.Len(); i++ {
		if !o.Deleted(PageID(i)) {
			best = max(best, o.Cash(PageID(i)))
		}
	}
	if c := o.Cash(p); o.Deleted(p) || c < best-1e-6*(best+1e-3) {
		t.Fatalf("greedy chose page %d with cash %v; the most is %v", p, c, best)
	}
}

// TestPageSize: the per-page state is at most 32 bytes, in memory and
// encoded; with Greedy's heap, still at most 32.
func TestPageSize(t *testing.T) {
	mem := unsafe.Sizeof(page{})
	heap := unsafe.Sizeof(heapEntry{})
	if mem != 24 || EncodedPageSize != 20 || mem+heap > 32 {
		t.Errorf("page state %d B in memory, %d B encoded, %d B with the greedy heap; want at most 32",
			mem, EncodedPageSize, mem+heap)
	}
}

// TestRebase: the virtual page's lazy payout is folded into the pages
// without changing any cash, and the greedy heap stays consistent.
func TestRebase(t *testing.T) {
	g := ringPowerLaw(t, 500)
	o, _ := New(g.Len(), Config{Alpha: 0.5})
	pol := NewGreedy(o)
	rebased := 0
	for range 50 * g.Len() {
		p, _ := pol.Next()
		checkGreedy(t, o, p)
		before := o.g
		o.Read(p, g.Links(p))
		if o.g < before {
			rebased++
		}
	}
	checkInvariants(t, o, true)
	if rebased == 0 {
		t.Error("no rebase happened")
	}
}
