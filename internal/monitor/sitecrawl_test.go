package monitor

import (
	"bytes"
	"context"
	"maps"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"weak"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/spec"
)

// sharedRelease is docsRelease with the guide linking back to the site's
// URL itself rather than to index.html, which redirects there: a crawl
// asks for each path once.
func sharedRelease(guide, faq string, withOld bool) crawltest.Release {
	r := docsRelease(guide, faq, withOld)
	r["/docs/guide.html"] = bytes.ReplaceAll(r["/docs/guide.html"], []byte(`href="index.html"`), []byte(`href="./"`))
	return r
}

// siteHits returns the site's requests by path since before (nil: since
// it started), robots.txt aside (the fetcher keeps it for a while).
func siteHits(site *crawltest.Site, before map[string]int) map[string]int {
	site.Mu.Lock()
	defer site.Mu.Unlock()
	out := map[string]int{}
	for p, n := range site.Hits {
		if p != "/robots.txt" && n > before[p] {
			out[p] = n - before[p]
		}
	}
	return out
}

// requestedOnce fails unless every path in hits was requested once, and
// some were.
func requestedOnce(t *testing.T, what string, hits map[string]int) {
	t.Helper()
	if len(hits) == 0 {
		t.Errorf("%s: no page requested", what)
	}
	for p, n := range hits {
		if n != 1 {
			t.Errorf("%s: %s requested %d times, want once (requests %v)", what, p, n, hits)
		}
	}
}

// notDue puts sentinel s off for a day.
func notDue(t *testing.T, db *sqlite.DB, s *vigil.Sentinel, now time.Time) {
	t.Helper()
	makeDue(t, db, s, now.Add(24*time.Hour))
}

// pageURLs lists the operations and URLs of a site change's records.
func pageURLs(t *testing.T, c *vigil.Change) string {
	t.Helper()
	var out []string
	for _, r := range siteRecords(t, c) {
		out = append(out, string(r.Op)+" "+r.Page.URL)
	}
	return strings.Join(out, ", ")
}

// TestSiteCrawlShared: two sentinels on one site checked in one round
// are served by one crawl, each page requested once, with the workers
// the daemon has by default and with two (one site slot: the second
// site's check waits for it, then takes the crawl just made). Each keeps
// its own reference, and reads a change of the site through its own
// Monitor clause: the keyword sentinel reports the guide, the other every
// page changed.
func TestSiteCrawlShared(t *testing.T) {
	for _, workers := range []int{0, 2} {
		t.Run("workers "+map[int]string{0: "default", 2: "2"}[workers], func(t *testing.T) {
			db, wh, u := testStore(t)
			site := crawltest.NewSite(t, sharedRelease("Install.", "Free.", true))
			other := crawltest.NewSite(t, sharedRelease("Other.", "Other.", true))
			now := time.Now().UTC()
			checker := spec.NewChecker(now)
			kw := createSentinel(t, db, checker, u, "kw", "Create Sentinel kw Using site "+site.URL("/docs/")+" Monitor keywords {deprecated} Every interactive")
			all := createSentinel(t, db, checker, u, "all", "Create Sentinel all Using site "+site.URL("/docs/")+" Every interactive")
			page := createSentinel(t, db, checker, u, "page", "Create Sentinel page Using "+other.URL("/docs/faq.html")+" Every interactive")
			m := siteMonitor(db, wh, fetch.Options{}, &now)
			m.Workers = workers

			runOnceWithin(t, m, 3)
			first := siteHits(site, nil)
			requestedOnce(t, "first round", first)
			for _, s := range []*vigil.Sentinel{kw, all} {
				if _, _, err := db.SiteSnapshot(context.Background(), s.ID); err != nil {
					t.Fatalf("sentinel %s's reference: %v", s.Name, err)
				}
				if cs := changesOf(t, db, s); len(cs) != 0 {
					t.Errorf("sentinel %s's first crawl reported %d changes", s.Name, len(cs))
				}
			}

			site.Set(sharedRelease("Install. The v1 API is deprecated.", "Free, and open.", false), nil)
			now = now.Add(time.Hour)
			makeDue(t, db, kw, now)
			makeDue(t, db, all, now)
			notDue(t, db, page, now)
			before := maps.Clone(first)
			runOnceWithin(t, m, 2)
			requestedOnce(t, "second round", siteHits(site, before))

			for _, tc := range []struct {
				s    *vigil.Sentinel
				want string
			}{
				{kw, "insert " + site.URL("/docs/new.html") + ", delete " + site.URL("/docs/old.html") + ", update " + site.URL("/docs/guide.html")},
				{all, "insert " + site.URL("/docs/new.html") + ", delete " + site.URL("/docs/old.html") + ", update " + site.URL("/docs/") + ", update " + site.URL("/docs/faq.html") + ", update " + site.URL("/docs/guide.html")},
			} {
				cs := changesOf(t, db, tc.s)
				if len(cs) != 1 {
					t.Fatalf("sentinel %s: %d changes, want 1", tc.s.Name, len(cs))
				}
				if got := pageURLs(t, cs[0]); got != tc.want {
					t.Errorf("sentinel %s's change: %s\nwant %s", tc.s.Name, got, tc.want)
				}
			}
			// The guide's pages are stored once a crawl, not once a sentinel.
			guide, err := db.FindResourceByURL(context.Background(), site.URL("/docs/guide.html"))
			if err != nil {
				t.Fatal(err)
			}
			if vs, _, err := db.FindVersions(context.Background(), vigil.VersionFilter{ResourceID: guide.ID}); err != nil || len(vs) != 2 {
				t.Errorf("guide's history: %d versions, %v; want 2", len(vs), err)
			}
		})
	}
}

// runOnceWithin is runOnce, failing rather than hanging if the round
// does not end (a check waiting for a slot its crawl holds).
func runOnceWithin(t *testing.T, m *Monitor, want int) {
	t.Helper()
	done := make(chan struct{})
	var n int
	var err error
	go func() { n, err = m.RunOnce(context.Background()); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("the round did not end: checks wait for each other")
	}
	if err != nil || n != want {
		t.Fatalf("RunOnce = %d, %v; want %d sentinels checked", n, err, want)
	}
}

// TestSiteCrawlQueries: only sentinels of one query share its crawl; a
// depth or a number of pages of their own crawls the site again.
func TestSiteCrawlQueries(t *testing.T) {
	tests := []struct {
		name      string
		a, b      string // targets
		wantStart int    // requests of the start page
	}{
		{"same", "site URL depth 2 pages 20", "site URL depth 2 pages 20", 1},
		{"depth", "site URL depth 2 pages 20", "site URL depth 1 pages 20", 2},
		{"pages", "site URL depth 2 pages 20", "site URL depth 2 pages 10", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			db, wh, u := testStore(t)
			site := crawltest.NewSite(t, sharedRelease("Install.", "Free.", true))
			now := time.Now().UTC()
			checker := spec.NewChecker(now)
			for name, target := range map[string]string{"a": tc.a, "b": tc.b} {
				target = strings.Replace(target, "URL", site.URL("/docs/"), 1)
				createSentinel(t, db, checker, u, name, "Create Sentinel "+name+" Using "+target+" Every interactive")
			}
			runOnce(t, siteMonitor(db, wh, fetch.Options{}, &now), 2)
			if got := siteHits(site, nil)["/docs/"]; got != tc.wantStart {
				t.Errorf("start page requested %d times, want %d", got, tc.wantStart)
			}
		})
	}
}

// TestSiteCrawlFresh: a crawl that ended less than SiteFresh ago (by
// default the shortest interval, a minute) serves another sentinel of its
// query; an older one does not, nor does a crawl serve the sentinel whose
// reference it is (checked again at once), nor any finished crawl when
// SiteFresh is negative.
func TestSiteCrawlFresh(t *testing.T) {
	tests := []struct {
		name      string
		fresh     time.Duration
		after     time.Duration
		same      bool // the sentinel that crawled is checked again
		wantStart int
	}{
		{"fresh", 0, 30 * time.Second, false, 1},
		{"stale", 0, 2 * time.Minute, false, 2},
		{"longer window", time.Hour, 30 * time.Minute, false, 1},
		{"its own reference", 0, 10 * time.Second, true, 2},
		{"no window", -1, 0, false, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			db, wh, u := testStore(t)
			site := crawltest.NewSite(t, sharedRelease("Install.", "Free.", true))
			now := time.Now().UTC()
			checker := spec.NewChecker(now)
			a := createSentinel(t, db, checker, u, "a", "Create Sentinel a Using site "+site.URL("/docs/")+" Every interactive")
			b := createSentinel(t, db, checker, u, "b", "Create Sentinel b Using site "+site.URL("/docs/")+" Every interactive")
			notDue(t, db, b, now)
			m := siteMonitor(db, wh, fetch.Options{}, &now)
			m.SiteFresh = tc.fresh
			runOnce(t, m, 1)
			first := siteRecordOf(t, db, a).Snapshot.Started

			now = now.Add(tc.after)
			second := b
			if tc.same {
				second = a
			}
			makeDue(t, db, second, now)
			runOnce(t, m, 1)
			if got := siteHits(site, nil)["/docs/"]; got != tc.wantStart {
				t.Errorf("start page requested %d times, want %d", got, tc.wantStart)
			}
			got := siteRecordOf(t, db, second).Snapshot.Started
			if shared := got.Equal(first); shared != (tc.wantStart == 1) {
				t.Errorf("the second check's reference crawled at %v, the first's at %v: shared %v, want %v", got, first, shared, tc.wantStart == 1)
			}
			if st, err := db.SentinelStates(ctx, []int64{second.ID}); err != nil || decodeState(st[second.ID]).Pages[site.URL("/docs/")] == nil {
				t.Errorf("the second check left no state of the site: %v", err)
			}
		})
	}
}

// siteRecordOf reads the site record of sentinel s.
func siteRecordOf(t *testing.T, db *sqlite.DB, s *vigil.Sentinel) *siteRecord {
	t.Helper()
	raw, _, err := db.SiteSnapshot(context.Background(), s.ID)
	if err != nil {
		t.Fatalf("sentinel %s's site record: %v", s.Name, err)
	}
	r, err := decodeSite(raw)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestSiteCrawlSharedFailure: a start page that fails fails the check of
// every sentinel the crawl serves, each told as its own, and is asked for
// and stored once.
func TestSiteCrawlSharedFailure(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, sharedRelease("Install.", "Free.", true))
	now := time.Now().UTC()
	checker := spec.NewChecker(now)
	var sens []*vigil.Sentinel
	for _, name := range []string{"a", "b"} {
		sens = append(sens, createSentinel(t, db, checker, u, name, "Create Sentinel "+name+" Using site "+site.URL("/docs/")+" Every interactive"))
	}
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	runOnce(t, m, 2)
	site.Mu.Lock()
	site.Gone = map[string]bool{"/docs/": true}
	site.Mu.Unlock()
	before := siteHits(site, nil)
	now = now.Add(time.Hour)
	for _, s := range sens {
		makeDue(t, db, s, now)
	}
	runOnce(t, m, 2)
	requestedOnce(t, "failing round", siteHits(site, before))
	states, err := db.SentinelStates(ctx, []int64{sens[0].ID, sens[1].ID})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sens {
		if ps := decodeState(states[s.ID]).Pages[site.URL("/docs/")]; ps == nil || !ps.FailingSince.Equal(now) {
			t.Errorf("sentinel %s: the start page's run of failures %+v, want one since %v", s.Name, ps, now)
		}
		if cs := changesOf(t, db, s); len(cs) != 0 {
			t.Errorf("sentinel %s: a failing start page reported %d changes", s.Name, len(cs))
		}
	}
	start, err := db.FindResourceByURL(ctx, site.URL("/docs/"))
	if err != nil {
		t.Fatal(err)
	}
	vs, _, err := db.FindVersions(ctx, vigil.VersionFilter{ResourceID: start.ID})
	if err != nil {
		t.Fatal(err)
	}
	failures := 0
	for _, v := range vs {
		if v.Error != "" {
			failures++
		}
	}
	if failures != 1 {
		t.Errorf("the start page's history holds %d failures, want 1", failures)
	}
}

// gatedSite serves site once its gate is open, counting nothing itself
// (the site counts).
func gatedSite(t *testing.T, site *crawltest.Site) (srv *httptest.Server, open func()) {
	gate := make(chan struct{})
	var once sync.Once
	open = func() { once.Do(func() { close(gate) }) }
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-gate:
		case <-r.Context().Done():
			return
		}
		site.Srv.Config.Handler.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(open) // before the server closes, which waits for its answers
	return srv, open
}

// flightOf returns the crawl in flight of key and its waiters, if any.
func flightOf(m *Monitor, key string) (c *siteCrawl, waiters int) {
	m.siteCrawls.mu.Lock()
	defer m.siteCrawls.mu.Unlock()
	c = m.siteCrawls.flights[key]
	if c != nil {
		waiters = c.waiters
	}
	return c, waiters
}

// TestSiteCrawlInFlight: a sentinel due while another's crawl of its site
// is in flight waits for that crawl rather than crawling again, in the
// daemon's loop (Run). Meanwhile a page is checked on the workers left:
// the crawl and its waiter hold two of four. Once the site answers, both
// sentinels have the crawl as reference, each page requested once.
func TestSiteCrawlInFlight(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, sharedRelease("Install.", "Free.", true))
	srv, open := gatedSite(t, site)
	other := crawltest.NewSite(t, sharedRelease("Other.", "Other.", true))
	now := time.Now().UTC()
	checker := spec.NewChecker(now)
	a := createSentinel(t, db, checker, u, "a", "Create Sentinel a Using site "+srv.URL+"/docs/ Every interactive")
	b := createSentinel(t, db, checker, u, "b", "Create Sentinel b Using site "+srv.URL+"/docs/ Every interactive")
	page := createSentinel(t, db, checker, u, "page", "Create Sentinel page Using "+other.URL("/docs/faq.html")+" Every interactive")
	notDue(t, db, b, now)
	notDue(t, db, page, now)
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	m.Workers = 4
	key := siteKey(crawl.Query{Start: srv.URL + "/docs/", MaxDepth: spec.DefaultSiteDepth, MaxPages: spec.DefaultSitePages, Order: crawl.OrderImportance})

	kick := make(chan struct{}, 1)
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { m.Run(rctx, time.Hour, kick); close(done) }()
	defer func() { open(); cancel(); <-done }()
	wait := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
		}
	}
	wait("a's crawl", func() bool { c, _ := flightOf(m, key); return c != nil })
	makeDue(t, db, b, now)
	kick <- struct{}{}
	wait("b to wait for a's crawl", func() bool { _, n := flightOf(m, key); return n == 1 })
	makeDue(t, db, page, now)
	kick <- struct{}{}
	wait("the page's check", func() bool {
		got, err := db.FindSentinelByID(ctx, page.ID)
		return err == nil && !got.LastCheck.IsZero()
	})

	open()
	for _, s := range []*vigil.Sentinel{a, b} {
		wait("sentinel "+s.Name+"'s reference", func() bool {
			_, _, err := db.SiteSnapshot(ctx, s.ID)
			return err == nil
		})
	}
	requestedOnce(t, "one crawl in flight", siteHits(site, nil))
	ra, rb := siteRecordOf(t, db, a), siteRecordOf(t, db, b)
	if !ra.Snapshot.Started.Equal(rb.Snapshot.Started) || len(rb.Versions) != 4 {
		t.Errorf("b's reference: crawled at %v with %d versions; want a's crawl (%v) and its 4 pages", rb.Snapshot.Started, len(rb.Versions), ra.Snapshot.Started)
	}
}

// TestSiteCrawlWaitBounded: a check waiting for another's crawl waits no
// longer than its own context (its lease): it gives up, and the crawl
// goes on for the check that runs it. A crawl kept serves a check whose
// reference is older, and not one whose reference it is.
func TestSiteCrawlWaitBounded(t *testing.T) {
	ctx := context.Background()
	db, wh, _ := testStore(t)
	site := crawltest.NewSite(t, sharedRelease("Install.", "Free.", true))
	srv, open := gatedSite(t, site)
	now := time.Now().UTC()
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	m.init()
	q := crawl.Query{Start: srv.URL + "/docs/", MaxDepth: 2, MaxPages: 20, Order: crawl.OrderImportance}
	type result struct {
		c   *siteCrawl
		ran bool
	}
	leader := make(chan result, 1)
	go func() {
		c, ran := m.sharedCrawl(ctx, ctx, q, nil, time.Minute, now)
		leader <- result{c, ran}
	}()
	for c, _ := flightOf(m, siteKey(q)); c == nil; c, _ = flightOf(m, siteKey(q)) {
		time.Sleep(time.Millisecond)
	}
	wctx, wcancel := context.WithCancel(ctx)
	waiter := make(chan result, 1)
	go func() {
		c, ran := m.sharedCrawl(ctx, wctx, q, nil, time.Minute, now)
		waiter <- result{c, ran}
	}()
	for _, n := flightOf(m, siteKey(q)); n != 1; _, n = flightOf(m, siteKey(q)) {
		time.Sleep(time.Millisecond)
	}
	wcancel()
	if w := <-waiter; w.c != nil || w.ran {
		t.Errorf("a waiter whose context ended got %+v, want nothing", w)
	}
	open()
	l := <-leader
	if l.c == nil || !l.ran || l.c.record == nil || l.c.err != nil {
		t.Fatalf("the crawl's own check got %+v", l)
	}
	if c, ran := m.sharedCrawl(ctx, ctx, q, nil, time.Minute, now); c != l.c || ran {
		t.Errorf("a check without reference, moments later: crawl %p (ran %v), want the one kept %p", c, ran, l.c)
	}
	if c, ran := m.sharedCrawl(ctx, ctx, q, l.c.record.Snapshot, time.Minute, now); c == l.c || !ran || c.record == nil {
		t.Errorf("a check whose reference is the crawl kept took it again (ran %v)", ran)
	}
}

// TestSiteCrawlsBounded: finished crawls are kept at most the number
// given, the oldest forgotten first, and forgotten once stale; a crawl
// with pages it could not store is not kept.
func TestSiteCrawlsBounded(t *testing.T) {
	var s siteCrawls
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	end := func(key string, at time.Time, failed int) {
		t.Helper()
		c, lead := s.join(key, nil, at, time.Minute)
		if !lead {
			t.Fatalf("%s: joined a crawl, want a new flight", key)
		}
		c.record, c.failed = &siteRecord{Snapshot: &crawl.Snapshot{Started: at}}, failed
		s.finish(key, c, at, time.Minute, 2)
	}
	for i, key := range []string{"a", "b", "c"} {
		end(key, t0.Add(time.Duration(i)*time.Second), 0)
	}
	if _, kept := s.recent["a"]; kept || len(s.recent) != 2 {
		t.Errorf("kept %v, want b and c", slices.Sorted(maps.Keys(s.recent)))
	}
	end("d", t0.Add(3*time.Second), 1)
	if _, kept := s.recent["d"]; kept {
		t.Errorf("a crawl with pages not stored is kept")
	}
	if _, lead := s.join("e", nil, t0.Add(2*time.Minute), time.Minute); !lead || len(s.recent) != 0 {
		t.Errorf("stale crawls kept: %v", slices.Sorted(maps.Keys(s.recent)))
	}
}

// TestSiteCrawlsForgotten: a finished crawl dropped from those kept (the
// oldest past the bound, or replaced by a newer crawl of its query) is
// garbage, although its SiteFresh has not passed: nothing holds it until
// then.
func TestSiteCrawlsForgotten(t *testing.T) {
	var s siteCrawls
	t0 := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	end := func(key string, at time.Time) weak.Pointer[siteCrawl] {
		t.Helper()
		// A reference as new as the crawl: the one kept does not serve.
		c, lead := s.join(key, &crawl.Snapshot{Started: at, Finished: at}, at, time.Hour)
		if !lead {
			t.Fatalf("%s: joined a crawl, want a new flight", key)
		}
		c.record = &siteRecord{Snapshot: &crawl.Snapshot{Started: at}}
		s.finish(key, c, at, time.Hour, 1)
		return weak.Make(c)
	}
	evicted := end("a", t0)
	replaced := end("b", t0.Add(time.Second)) // a is past the bound
	kept := end("b", t0.Add(2*time.Second))   // b replaced
	runtime.GC()
	if evicted.Value() != nil {
		t.Error("a crawl dropped past the bound is still held")
	}
	if replaced.Value() != nil {
		t.Error("a crawl replaced by a newer one of its query is still held")
	}
	if kept.Value() == nil {
		t.Error("the crawl kept was collected")
	}
}
