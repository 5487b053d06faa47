package crawl_test

import (
	"bytes"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/webtable"
)

// TestCrawlMomentary: a page that fails for a moment (5xx, 429, a timeout,
// a connection refused or reset) is marked Momentary, and no other
// failure is (404, 410, 403, a host name that does not exist, a body too
// large, robots.txt).
func TestCrawlMomentary(t *testing.T) {
	status := func(code int) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", code) }
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("User-agent: *\nDisallow: /site/private/\n"))
	})
	mux.HandleFunc("/site/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		var b strings.Builder
		for _, p := range []string{"503", "500", "429", "404", "410", "403", "slow", "reset", "big", "private/x", "http://127.0.0.1:1/closed", "http://nosuch.invalid/site/x"} {
			b.WriteString(`<a href="` + p + `">` + p + `</a>`)
		}
		w.Write([]byte(b.String()))
	})
	for _, code := range []int{503, 500, 429, 404, 410, 403} {
		mux.HandleFunc("/site/"+strconv.Itoa(code), status(code))
	}
	mux.HandleFunc("/site/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(5 * time.Second):
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/site/reset", func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		conn.(*net.TCPConn).SetLinger(0) // a reset, not a close
		conn.Close()
	})
	mux.HandleFunc("/site/big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write(bytes.Repeat([]byte("x"), 8000))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	f := fetch.New(fetch.Options{AllowPrivateNetworks: true, HostConcurrency: 4, TotalTimeout: 500 * time.Millisecond, MaxBodySize: 4000})
	q := crawl.NewQuery(srv.URL + "/site/")
	q.Scope = []string{srv.URL + "/site/", "http://127.0.0.1:1/", "http://nosuch.invalid/site/"}
	snap := crawlSite(t, f, q)
	for _, tc := range []struct {
		url       string
		momentary bool
	}{
		{srv.URL + "/site/503", true},
		{srv.URL + "/site/500", true},
		{srv.URL + "/site/429", true},
		{srv.URL + "/site/slow", true},
		{srv.URL + "/site/reset", true},
		{"http://127.0.0.1:1/closed", true},
		{srv.URL + "/site/404", false},
		{srv.URL + "/site/410", false},
		{srv.URL + "/site/403", false},
		{srv.URL + "/site/big", false},
		{srv.URL + "/site/private/x", false},
		{"http://nosuch.invalid/site/x", false},
	} {
		p := snap.Page(tc.url)
		if p == nil || !p.Failed() || p.Momentary != tc.momentary {
			t.Errorf("%s: %+v, want a failure with momentary %v", tc.url, p, tc.momentary)
		}
	}
}

// flakySite serves /docs/: the index links to a.html and b.html, and
// a.html alone to deep.html. Each path answers with its status in
// statuses, 200 by default.
type flakySite struct {
	srv      *httptest.Server
	mu       sync.Mutex
	statuses map[string]int
}

func newFlakySite(t *testing.T) *flakySite {
	s := &flakySite{statuses: map[string]int{}}
	pages := map[string]string{
		"/docs/":          `<title>Docs</title><a href="a.html">A</a> <a href="b.html">B</a>`,
		"/docs/a.html":    `<title>A</title><a href="deep.html">Deep</a>`,
		"/docs/b.html":    `<title>B</title>`,
		"/docs/deep.html": `<title>Deep</title>`,
	}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		code := s.statuses[r.URL.Path]
		s.mu.Unlock()
		body, ok := pages[r.URL.Path]
		switch {
		case !ok:
			http.NotFound(w, r)
		case code != 0:
			http.Error(w, "not now", code)
		default:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(body))
		}
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// set makes path answer code (0: its page).
func (s *flakySite) set(path string, code int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.statuses[path] = code
}

func (s *flakySite) crawl(t *testing.T) *crawl.Snapshot {
	t.Helper()
	return crawlSite(t, loopbackFetcher(), crawl.NewQuery(s.srv.URL+"/docs/"))
}

// carry carries cur over from prev and checks that the result encodes as
// a snapshot Decode reads back, and that cur did not change.
func carry(t *testing.T, prev, cur *crawl.Snapshot) *crawl.Snapshot {
	t.Helper()
	var before bytes.Buffer
	cur.Encode(&before)
	out, err := crawl.Carry(prev, cur)
	if err != nil {
		t.Fatalf("Carry: %v", err)
	}
	var after, enc bytes.Buffer
	cur.Encode(&after)
	if !bytes.Equal(before.Bytes(), after.Bytes()) {
		t.Errorf("Carry changed the crawl it carried over")
	}
	if err := out.Encode(&enc); err != nil {
		t.Fatal(err)
	}
	back, err := crawl.Decode(&enc, 0)
	if err != nil {
		t.Fatalf("the carried snapshot does not decode: %v\n%s", err, enc.Bytes())
	}
	return back
}

// delta returns the paths of the pages a site diff of prev and cur adds
// and deletes.
func delta(t *testing.T, prev, cur *crawl.Snapshot, srvURL string) (added, deleted []string) {
	t.Helper()
	w1, err := prev.Table(crawl.ByContent)
	if err != nil {
		t.Fatal(err)
	}
	w2, err := cur.Table(crawl.ByContent)
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
			out = append(out, strings.TrimPrefix(string(id), srvURL))
		}
		slices.Sort(out)
		return out
	}
	return paths(d.Added), paths(d.Deleted)
}

// TestCarryMomentary: a page answering 503 once between two good crawls
// is carried over, with the pages reached only through it: no page is
// deleted, then added again; the page is marked carried with its failure
// and the time of its last read, and its links are that read's.
func TestCarryMomentary(t *testing.T) {
	s := newFlakySite(t)
	u := func(p string) string { return s.srv.URL + p }
	first := s.crawl(t)
	s.set("/docs/a.html", 503)
	second := s.crawl(t)
	if a := second.Page(u("/docs/a.html")); a == nil || !a.Failed() || !a.Momentary || second.Page(u("/docs/deep.html")) != nil {
		t.Fatalf("the crawl itself: a.html %+v, deep.html %v", a, second.Page(u("/docs/deep.html")))
	}
	carried := carry(t, first, second)
	if added, deleted := delta(t, first, carried, s.srv.URL); len(added)+len(deleted) != 0 {
		t.Errorf("503 once: added %v, deleted %v, want none", added, deleted)
	}
	a := carried.Page(u("/docs/a.html"))
	want := crawl.Carried{Status: 503, Error: a.Carried.Error, Read: first.Started, Since: second.Started, Crawls: 1}
	if a.Failed() || a.Carried == nil || *a.Carried != want || !strings.Contains(a.Carried.Error, "503") || a.Title != "A" ||
		!slices.Equal(a.Links, []crawl.Link{{Target: u("/docs/deep.html"), Label: "Deep"}}) {
		t.Errorf("a.html carried: %+v (carried %+v)", a, a.Carried)
	}
	if d := carried.Page(u("/docs/deep.html")); d == nil || d.Carried == nil || d.Carried.Failure() != crawl.NotFetched || d.Carried.Fetched() || !a.Carried.Fetched() || d.Depth != 2 {
		t.Errorf("deep.html, reached only through a.html: %+v", d)
	}
	if st := carried.Stats(); st.Carried != 2 || st.NotFetched != 1 || st.Failures != 0 {
		t.Errorf("stats %+v", st)
	}
	s.set("/docs/a.html", 0)
	third := s.crawl(t)
	if again := carry(t, carried, third); again.Stats().Carried != 0 {
		t.Errorf("read again: %d pages carried over", again.Stats().Carried)
	}
	if added, deleted := delta(t, carried, third, s.srv.URL); len(added)+len(deleted) != 0 {
		t.Errorf("read again: added %v, deleted %v, want none", added, deleted)
	}
}

// TestCarryNotMomentary: a page gone (404) is deleted at once, with the
// pages reached only through it.
func TestCarryNotMomentary(t *testing.T) {
	s := newFlakySite(t)
	first := s.crawl(t)
	s.set("/docs/a.html", 404)
	second := s.crawl(t)
	carried := carry(t, first, second)
	if n := carried.Stats().Carried; n != 0 {
		t.Errorf("404: %d pages carried over", n)
	}
	added, deleted := delta(t, first, carried, s.srv.URL)
	if len(added) != 0 || !slices.Equal(deleted, []string{"/docs/a.html", "/docs/deep.html"}) {
		t.Errorf("404: added %v, deleted %v, want a.html and deep.html deleted", added, deleted)
	}
}

// TestCarryBound: a page failing for longer than MaxCarriedCrawls crawls
// in a row, or MaxCarriedAge after its last read, is deleted.
func TestCarryBound(t *testing.T) {
	s := newFlakySite(t)
	first := s.crawl(t)
	s.set("/docs/a.html", 503)
	prev := first
	for i := 1; i <= crawl.MaxCarriedCrawls; i++ {
		cur := carry(t, prev, s.crawl(t))
		a := cur.Page(s.srv.URL + "/docs/a.html")
		if a.Carried == nil || a.Carried.Crawls != i || !a.Carried.Read.Equal(first.Started) {
			t.Fatalf("crawl %d failing: a.html %+v, carried %+v", i, a, a.Carried)
		}
		if added, deleted := delta(t, prev, cur, s.srv.URL); len(added)+len(deleted) != 0 {
			t.Errorf("crawl %d failing: added %v, deleted %v", i, added, deleted)
		}
		prev = cur
	}
	last := carry(t, prev, s.crawl(t))
	added, deleted := delta(t, prev, last, s.srv.URL)
	if len(added) != 0 || !slices.Equal(deleted, []string{"/docs/a.html", "/docs/deep.html"}) {
		t.Errorf("crawl %d failing: added %v, deleted %v, want a.html and deep.html deleted", crawl.MaxCarriedCrawls+1, added, deleted)
	}

	// The age: failing since a crawl a day and a minute before, though
	// carried once only.
	once := carry(t, first, s.crawl(t))
	later := s.crawl(t)
	later.Started = once.Started.Add(crawl.MaxCarriedAge + time.Minute)
	later.Finished = later.Started.Add(time.Second)
	if cur := carry(t, once, later); cur.Stats().Carried != 0 {
		t.Errorf("failing for more than %v: carried over", crawl.MaxCarriedAge)
	}
	// A page last read long ago is carried, the first time: the age is
	// the failure's.
	old := *first
	old.Started = first.Started.Add(-crawl.MaxCarriedAge - time.Minute)
	old.Finished = old.Started.Add(time.Second)
	if cur := carry(t, &old, s.crawl(t)); cur.Stats().Carried != 2 {
		t.Errorf("last read more than %v before, failing for the first time: %d pages carried over, want 2", crawl.MaxCarriedAge, cur.Stats().Carried)
	}
}

// TestCarryFormatV3: a snapshot of format 3, written before pages were
// carried over (testdata/v3-example.json, the example of that format), is
// read; a crawl carried over from it keeps its pages.
func TestCarryFormatV3(t *testing.T) {
	b, err := os.ReadFile("testdata/v3-example.json")
	if err != nil {
		t.Fatal(err)
	}
	v3, err := crawl.Decode(bytes.NewReader(b), 0)
	if err != nil {
		t.Fatal(err)
	}
	if v3.Format != crawl.FormatV3 {
		t.Fatalf("format %q", v3.Format)
	}
	cur := example()
	cur.Started = v3.Started.Add(time.Hour)
	cur.Finished = cur.Started.Add(time.Second)
	guide := cur.Pages[1]
	cur.Pages[1] = &crawl.Page{URL: guide.URL, Depth: 1, Status: 502, Error: "fetch: HTTP error status 502", Momentary: true}
	carried := carry(t, v3, cur)
	if g := carried.Page(guide.URL); g.Carried == nil || g.Hash != guide.Hash || g.Body != guide.Body || !g.Carried.Read.Equal(v3.Started) {
		t.Errorf("guide carried from format 3: %+v", g)
	}
}

// TestCarryPageLimit: a page that a page read in this crawl links to, but
// that the crawl left unread at its page limit, is not carried over as
// reached only through a carried page: it is the crawl's unread link
// ("pages"), as it would be without a page carried. The index links to
// a.html and b.html, both to x.html; the first crawl reads the four pages
// its limit allows; in the second, the index also links to c.html, and
// a.html answers 503: the limit is spent on the index, a, b and c.
func TestCarryPageLimit(t *testing.T) {
	var mu sync.Mutex
	pages := map[string]string{
		"/docs/":       `<title>Docs</title><a href="a.html">A</a> <a href="b.html">B</a>`,
		"/docs/a.html": `<title>A</title><a href="x.html">X</a>`,
		"/docs/b.html": `<title>B</title><a href="x.html">X</a>`,
		"/docs/c.html": `<title>C</title>`,
		"/docs/x.html": `<title>X</title>`,
	}
	failing := ""
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		body, ok := pages[r.URL.Path]
		fail := r.URL.Path == failing
		mu.Unlock()
		switch {
		case !ok:
			http.NotFound(w, r)
		case fail:
			http.Error(w, "not now", http.StatusServiceUnavailable)
		default:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(body))
		}
	}))
	defer srv.Close()
	q := crawl.NewQuery(srv.URL + "/docs/")
	q.MaxPages, q.Order = 4, crawl.OrderBreadth
	first := crawlSite(t, loopbackFetcher(), q)
	if got := pagePaths(t, first, srv.URL); len(got) != 4 || first.Page(srv.URL+"/docs/x.html") == nil {
		t.Fatalf("first crawl: %v", got)
	}
	mu.Lock()
	pages["/docs/"] += ` <a href="c.html">C</a>`
	failing = "/docs/a.html"
	mu.Unlock()
	second := crawlSite(t, loopbackFetcher(), q)
	if second.Page(srv.URL+"/docs/c.html") == nil || second.Page(srv.URL+"/docs/x.html") != nil || !second.Truncated {
		t.Fatalf("second crawl: %+v", second.Pages)
	}
	carried := carry(t, first, second)
	if a := carried.Page(srv.URL + "/docs/a.html"); a == nil || a.Carried == nil {
		t.Errorf("a.html (503) not carried over: %+v", a)
	}
	if x := carried.Page(srv.URL + "/docs/x.html"); x != nil {
		t.Errorf("x.html, linked from b.html read and cut by the page limit, carried over: %+v (carried %+v)", x, x.Carried)
	}
	if why := carried.UnreadLinks()[srv.URL+"/docs/x.html"]; why != crawl.UnreadPages {
		t.Errorf("x.html unread: %q, want %q", why, crawl.UnreadPages)
	}
}

// TestCarryNothingFailed: a crawl in which no page failed for a moment,
// the common case at every check of a site sentinel, is returned itself,
// without a copy of its pages or a map of the previous crawl's: Carry
// allocates nothing.
func TestCarryNothingFailed(t *testing.T) {
	s := newFlakySite(t)
	first := s.crawl(t)
	s.set("/docs/b.html", 404) // a failure, not a moment's
	second := s.crawl(t)
	got, err := crawl.Carry(first, second)
	if err != nil || got != second {
		t.Fatalf("Carry: %p, %v; want the crawl itself, %p", got, err, second)
	}
	if n := testing.AllocsPerRun(10, func() { crawl.Carry(first, second) }); n != 0 {
		t.Errorf("Carry of a crawl with no page failing for a moment: %v allocations, want 0", n)
	}
}
