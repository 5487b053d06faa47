package crawl

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestFrontierRichestFirst: the frontier gives the URL with the most
// cash, ties to the URL found first, whatever the virtual page paid in
// between, on a random graph read in the frontier's order; and it gives
// every URL within the depth bound once.
func TestFrontierRichestFirst(t *testing.T) {
	const n, maxDepth = 2000, 4
	rng := rand.New(rand.NewPCG(1, 2))
	url := func(i int) string { return fmt.Sprintf("https://example.org/%d", i) }
	linksOf := make([][]Link, n)
	for i := range linksOf {
		for range rng.IntN(12) {
			j := rng.IntN(n)
			if j != i {
				linksOf[i] = append(linksOf[i], Link{Target: url(j)})
			}
		}
	}
	fr, err := newFrontier(url(0), maxDepth)
	if err != nil {
		t.Fatal(err)
	}
	taken := map[string]bool{}
	for {
		// The richest URL of the heap, by brute force.
		best, bestCash := -1, 0.0
		for _, id := range fr.heap {
			c := fr.o.Cash(id)
			if best < 0 || c > bestCash || c == bestCash && int(id) < best {
				best, bestCash = int(id), c
			}
		}
		id, ok := fr.take()
		if !ok {
			break
		}
		if c := fr.o.Cash(id); c < bestCash*(1-1e-9) {
			t.Fatalf("read %d: took %s with cash %v, but %s has %v", len(taken), fr.nodes[id].url, c, fr.nodes[best].url, bestCash)
		}
		u := fr.nodes[id].url
		if taken[u] {
			t.Fatalf("%s taken twice", u)
		}
		taken[u] = true
		var i int
		fmt.Sscanf(u, "https://example.org/%d", &i)
		if fr.nodes[id].depth > maxDepth {
			t.Fatalf("%s taken at depth %d", u, fr.nodes[id].depth)
		}
		if err := fr.read(id, linksOf[i]); err != nil {
			t.Fatal(err)
		}
	}
	// Breadth first over the same graph: the URLs within maxDepth.
	want := map[string]bool{url(0): true}
	layer := []int{0}
	for d := 0; d < maxDepth; d++ {
		var next []int
		for _, i := range layer {
			for _, l := range linksOf[i] {
				if !want[l.Target] {
					want[l.Target] = true
					var j int
					fmt.Sscanf(l.Target, "https://example.org/%d", &j)
					next = append(next, j)
				}
			}
		}
		layer = next
	}
	if len(taken) != len(want) {
		t.Errorf("took %d URLs, %d are within depth %d", len(taken), len(want), maxDepth)
	}
	for u := range want {
		if !taken[u] {
			t.Errorf("%s, within depth %d, never taken", u, maxDepth)
			break
		}
	}
	if total := fr.o.TotalCash(); total < 1-1e-9 || total > 1+1e-9 {
		t.Errorf("total cash %v, want 1", total)
	}
}
