package crawl_test

import (
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/vigil-web/vigil/internal/crawl"
)

// TestCrawlRobotsServerError: a host whose robots.txt answers 5xx has
// every page disallowed until it answers again (RFC 9309 §2.3.1.4), a
// failure of the moment, not the page's: the site's pages on that host
// are Momentary, not Blocked, and Carry keeps their last good read, so
// that a deploy's 503 on robots.txt deletes no page from the web table.
// They were Blocked, never carried, and so deleted.
func TestCrawlRobotsServerError(t *testing.T) {
	var down atomic.Bool
	docs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			if down.Load() {
				http.Error(w, "deploying", http.StatusServiceUnavailable)
				return
			}
			w.Write([]byte("User-agent: *\nAllow: /\n"))
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<title>Docs</title><p>the manual`))
	}))
	defer docs.Close()
	home := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<title>Home</title><a href="` + docs.URL + `/manual.html">manual</a>`))
	}))
	defer home.Close()
	q := crawl.NewQuery(home.URL + "/")
	q.Scope = []string{home.URL + "/", docs.URL + "/"}
	manual := docs.URL + "/manual.html"

	prev := crawlSite(t, loopbackFetcher(), q)
	if p := prev.Page(manual); p == nil || p.Failed() {
		t.Fatalf("first crawl: %s not read: %+v", manual, p)
	}
	down.Store(true)
	cur := crawlSite(t, loopbackFetcher(), q)
	p := cur.Page(manual)
	if p == nil || !p.Failed() {
		t.Fatalf("second crawl: %s not failed: %+v", manual, p)
	}
	if p.Blocked || !p.Momentary {
		t.Errorf("%s with robots.txt answering 503: blocked %v, momentary %v; want a momentary failure, not blocked (%s)", manual, p.Blocked, p.Momentary, p.Error)
	}
	carried, err := crawl.Carry(prev, cur)
	if err != nil {
		t.Fatalf("Carry: %v", err)
	}
	if c := carried.Page(manual); c == nil || c.Carried == nil || c.Title != "Docs" {
		t.Errorf("Carry: %s is %+v; want its last good read carried over", manual, c)
	}
}
