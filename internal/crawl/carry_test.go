package crawl_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/webtable"
)

// carrySite is a site whose index links to a page about to fail for a
// moment (b.html, the only way to c.html) and to one about to go
// (gone.html).
func carrySite(t *testing.T) *crawltest.Site {
	return crawltest.NewSite(t, crawltest.Release{
		"/docs/index.html": []byte(`<title>Docs</title><a href="a.html">A</a> <a href="b.html">B</a> <a href="gone.html">Gone</a>`),
		"/docs/a.html":     []byte(`<title>A</title>`),
		"/docs/b.html":     []byte(`<title>B</title><a href="c.html">C</a>`),
		"/docs/c.html":     []byte(`<title>C</title>`),
		"/docs/gone.html":  []byte(`<title>Gone</title>`),
	})
}

// siteDelta returns the URLs (paths) a site diff of s1 and s2 adds,
// deletes and modifies.
func siteDelta(t *testing.T, s1, s2 *crawl.Snapshot, srv string) (added, deleted, modified []string) {
	t.Helper()
	w1, err := s1.Table(crawl.ByContent)
	if err != nil {
		t.Fatal(err)
	}
	w2, err := s2.Table(crawl.ByContent)
	if err != nil {
		t.Fatal(err)
	}
	d, err := webtable.Diff(w1, w2, &webtable.Options{Strict: true, Cover: true, Complete: true})
	if err != nil {
		t.Fatal(err)
	}
	paths := func(ids []webtable.NodeID) []string {
		var out []string
		for _, id := range ids {
			out = append(out, strings.TrimPrefix(string(id), srv))
		}
		slices.Sort(out)
		return out
	}
	return paths(d.Added), paths(d.Deleted), paths(d.Modified)
}

// TestCrawlAgainCarries: a page that read in the crawl before and fails
// now for a moment (a 503) is carried over: it holds its last version
// (title, version, links), says how it failed and since when its version
// is, and the crawl follows its links, so that the pages only it links
// to are read; a site diff neither removes it nor, once it answers again,
// adds it. A page that answers 404 is a failure, removed. Crawled again
// while the page still fails, it keeps the date of its version.
func TestCrawlAgainCarries(t *testing.T) {
	ctx := context.Background()
	site := carrySite(t)
	q := crawl.NewQuery(site.URL("/docs/"))
	s1 := crawlSite(t, loopbackFetcher(), q)

	site.Mu.Lock()
	site.Broken = map[string]int{"/docs/b.html": 503}
	site.Gone = map[string]bool{"/docs/gone.html": true}
	site.Mu.Unlock()
	s2, err := crawl.CrawlAgain(ctx, loopbackFetcher(), q, s1)
	if err != nil {
		t.Fatal(err)
	}
	if err := s2.Validate(); err != nil {
		t.Fatalf("the snapshot does not validate: %v", err)
	}
	before, b := s1.Page(site.URL("/docs/b.html")), s2.Page(site.URL("/docs/b.html"))
	if b == nil || b.Failed() || b.Carried == nil {
		t.Fatalf("b.html: %+v, want it carried over", b)
	}
	if b.Carried.Status != 503 || !strings.Contains(b.Carried.Error, "503") || !b.Carried.Since.Equal(s1.Started) {
		t.Errorf("b.html carried: %+v, want HTTP 503, since %v", b.Carried, s1.Started)
	}
	if b.Version != before.Version || b.Hash != before.Hash || b.Title != "B" || len(b.Links) != 1 || b.Status != 200 {
		t.Errorf("b.html: %+v, want its last version %+v", b, before)
	}
	if c := s2.Page(site.URL("/docs/c.html")); c == nil || c.Failed() || c.Carried != nil || c.Depth != 2 {
		t.Errorf("c.html, linked only from b.html: %+v, want read at depth 2", c)
	}
	if g := s2.Page(site.URL("/docs/gone.html")); g == nil || g.Status != 404 || g.Carried != nil {
		t.Errorf("gone.html: %+v, want a failure, 404, not carried", g)
	}
	if st := s2.Stats(); st.Carried != 1 || st.Failures != 1 {
		t.Errorf("stats %+v, want 1 carried, 1 failure", st)
	}
	added, deleted, modified := siteDelta(t, s1, s2, site.Srv.URL)
	if len(added) != 0 || !slices.Equal(deleted, []string{"/docs/gone.html"}) || len(modified) != 0 {
		t.Errorf("diff: added %q, deleted %q, modified %q; want gone.html deleted alone", added, deleted, modified)
	}

	s3, err := crawl.CrawlAgain(ctx, loopbackFetcher(), q, s2)
	if err != nil {
		t.Fatal(err)
	}
	if b := s3.Page(site.URL("/docs/b.html")); b == nil || b.Carried == nil || !b.Carried.Since.Equal(s1.Started) {
		t.Errorf("b.html still failing: %+v, want it carried since the first crawl", b)
	}

	site.Mu.Lock()
	site.Broken = nil
	site.Mu.Unlock()
	s4, err := crawl.CrawlAgain(ctx, loopbackFetcher(), q, s3)
	if err != nil {
		t.Fatal(err)
	}
	if b := s4.Page(site.URL("/docs/b.html")); b == nil || b.Failed() || b.Carried != nil {
		t.Errorf("b.html answering again: %+v, want it read", b)
	}
	if added, deleted, modified := siteDelta(t, s3, s4, site.Srv.URL); len(added)+len(deleted)+len(modified) != 0 {
		t.Errorf("b.html back: added %q, deleted %q, modified %q; want no change", added, deleted, modified)
	}
}

// TestCarryOver: a snapshot crawled without the one before gets its pages
// carried over after the fact, as CrawlAgain carries them: the page that
// fails for a moment keeps its last version, and the pages only it linked
// to, which the crawl did not reach, are kept too, as not read; the start
// page, whose failure is the crawl's, and a page that answers 404 are
// not. The snapshot given is left as it was.
func TestCarryOver(t *testing.T) {
	site := carrySite(t)
	q := crawl.NewQuery(site.URL("/docs/"))
	s1 := crawlSite(t, loopbackFetcher(), q)
	site.Mu.Lock()
	site.Broken = map[string]int{"/docs/b.html": 500}
	site.Gone = map[string]bool{"/docs/gone.html": true}
	site.Mu.Unlock()
	s2 := crawlSite(t, loopbackFetcher(), q)
	if s2.Page(site.URL("/docs/c.html")) != nil {
		t.Fatal("c.html was reached without b.html")
	}
	got := crawl.CarryOver(s1, s2)
	if err := got.Validate(); err != nil {
		t.Fatalf("the snapshot carried over does not validate: %v", err)
	}
	if b := s2.Page(site.URL("/docs/b.html")); b == nil || !b.Failed() || b.Carried != nil {
		t.Errorf("CarryOver changed the snapshot given: b.html %+v", b)
	}
	if b := got.Page(site.URL("/docs/b.html")); b == nil || b.Failed() || b.Carried == nil || b.Carried.Status != 500 || b.Title != "B" {
		t.Errorf("b.html: %+v, want it carried over, HTTP 500", b)
	}
	if c := got.Page(site.URL("/docs/c.html")); c == nil || c.Carried == nil || c.Carried.Status != 0 || !strings.Contains(c.Carried.Error, "not read") || c.Depth != 2 {
		t.Errorf("c.html: %+v, want it carried over, not read, at depth 2", c)
	}
	if g := got.Page(site.URL("/docs/gone.html")); g == nil || !g.Failed() || g.Carried != nil {
		t.Errorf("gone.html: %+v, want it failed, not carried", g)
	}
	added, deleted, modified := siteDelta(t, s1, got, site.Srv.URL)
	if len(added) != 0 || !slices.Equal(deleted, []string{"/docs/gone.html"}) || len(modified) != 0 {
		t.Errorf("diff: added %q, deleted %q, modified %q; want gone.html deleted alone", added, deleted, modified)
	}

	// The start page failing is the crawl's failure: nothing is carried.
	site.Mu.Lock()
	site.Broken = map[string]int{"/docs/": 503}
	site.Mu.Unlock()
	s3 := crawlSite(t, loopbackFetcher(), q)
	if got := crawl.CarryOver(s1, s3); got.StartFailure() == "" || len(got.Pages) != 1 {
		t.Errorf("start page failing: %d pages, start failure %q; want the failure alone", len(got.Pages), got.StartFailure())
	}
}

// TestCarryOverBodies: a page carried over from a crawl that kept bodies
// into one that does not keeps no body, and the snapshot validates; it
// kept the body, which a snapshot without bodies refuses.
func TestCarryOverBodies(t *testing.T) {
	site := carrySite(t)
	q := crawl.NewQuery(site.URL("/docs/"))
	q.Bodies = true
	s1 := crawlSite(t, loopbackFetcher(), q)
	site.Mu.Lock()
	site.Broken = map[string]int{"/docs/b.html": 503}
	site.Mu.Unlock()
	q.Bodies = false
	for name, got := range map[string]func() (*crawl.Snapshot, error){
		"CrawlAgain": func() (*crawl.Snapshot, error) {
			return crawl.CrawlAgain(context.Background(), loopbackFetcher(), q, s1)
		},
		"CarryOver": func() (*crawl.Snapshot, error) { return crawl.CarryOver(s1, crawlSite(t, loopbackFetcher(), q)), nil },
	} {
		s2, err := got()
		if err != nil {
			t.Fatal(err)
		}
		if err := s2.Validate(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if b := s2.Page(site.URL("/docs/b.html")); b == nil || b.Carried == nil || b.Body != "" {
			t.Errorf("%s: b.html %+v, want it carried over without its body", name, b)
		}
	}
}
