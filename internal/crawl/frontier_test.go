package crawl

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
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
	fr, err := newFrontier(url(0), maxDepth, n)
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

// TestFrontierBounded: the frontier of a crawl in importance order holds
// at most frontierURLs URLs, whatever the links of the pages read: it
// held one for every distinct link target in scope, so that a site whose
// pages link to thousands of URLs each (query strings, calendars) cost
// about 370 bytes per URL, 2.6 times the memory of a breadth-first crawl
// of it, and millions of URLs for MaxPages pages. A crawl whose URLs do
// not fit is cut short, as a breadth-first one is.
func TestFrontierBounded(t *testing.T) {
	const perPage = 3000
	f := fetchFunc(func(_ context.Context, req *vigil.FetchRequest) (*vigil.FetchResult, error) {
		var b strings.Builder
		b.WriteString("<title>bomb</title>")
		page := strings.NewReplacer("/", "_", ":", "_", "?", "_").Replace(req.URL)
		for i := range perPage {
			fmt.Fprintf(&b, `<a href="/bomb/%s-%d">%d</a>`, page, i, i)
		}
		return &vigil.FetchResult{URL: req.URL, Status: 200, ContentType: "text/html", Body: []byte(b.String())}, nil
	})
	q := NewQuery("https://example.org/bomb/")
	q.MaxPages = 40
	q, err := q.resolved()
	if err != nil {
		t.Fatal(err)
	}
	c := newCrawler(f, q)
	if err := c.crawl(context.Background()); err != nil {
		t.Fatal(err)
	}
	// Every link of the start page, and four URLs a page fetched; and
	// the frontier's own entries, the start and the virtual sink.
	if n, most := len(c.greedy.nodes), MaxLinks+4*q.MaxPages+2; n > most {
		t.Errorf("the frontier holds %d URLs after %d pages of %d links, want at most %d", n, q.MaxPages, perPage, most)
	}
	if !c.snap.Truncated || len(c.snap.Pages) != q.MaxPages {
		t.Errorf("%d pages, truncated %v; want %d, truncated", len(c.snap.Pages), c.snap.Truncated, q.MaxPages)
	}
}

// fetchFunc is a vigil.Fetcher of a function.
type fetchFunc func(context.Context, *vigil.FetchRequest) (*vigil.FetchResult, error)

func (f fetchFunc) Fetch(ctx context.Context, req *vigil.FetchRequest) (*vigil.FetchResult, error) {
	return f(ctx, req)
}

// TestFrontierPendingLinks: the links of a page read at MaxDepth are not
// URLs of the frontier (none could be fetched), but they become URLs to
// fetch when a shorter path to the page is found later.
func TestFrontierPendingLinks(t *testing.T) {
	url := func(p string) string { return "https://example.org/" + p }
	links := func(ps ...string) []Link {
		var out []Link
		for _, p := range ps {
			out = append(out, Link{Target: url(p)})
		}
		return out
	}
	fr, err := newFrontier(url("s"), 3, 100)
	if err != nil {
		t.Fatal(err)
	}
	// s -> a -> b -> p (depth 3) -> x; then s -> q -> p (depth 2).
	for _, r := range []struct {
		page  string
		links []Link
	}{
		{"s", links("a", "q")},
		{"a", links("b")},
		{"b", links("p")},
		{"p", links("x")},
	} {
		if err := fr.read(fr.ids[url(r.page)], r.links); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok := fr.ids[url("x")]; ok {
		t.Fatalf("x, linked from p at depth 3, is known")
	}
	if err := fr.read(fr.ids[url("q")], links("p")); err != nil {
		t.Fatal(err)
	}
	x, ok := fr.ids[url("x")]
	if !ok || fr.nodes[x].depth != 3 || fr.nodes[x].slot < 0 {
		t.Fatalf("x, now 3 links away through q and p, is not to fetch: known %v, %+v", ok, fr.nodes[x])
	}
	if fr.truncated {
		t.Errorf("truncated")
	}
	if total := fr.o.TotalCash(); total < 1-1e-9 || total > 1+1e-9 {
		t.Errorf("total cash %v, want 1", total)
	}
}
