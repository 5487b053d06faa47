package monitor

import (
	"context"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/spec"
)

// TestCheckAfterResourceDeleted: a page's resource deleted from the store
// (by another process or a direct call: the monitor is not told) leaves
// no dead id in the monitor's caches, nor in the warehouse's. The next
// read of the page that stores a version (a changed body, a failure; on a
// shared store, an unchanged body too, since its head is confirmed) finds
// or creates the URL's resource afresh and stores it there, and the page
// is given that resource.
func TestCheckAfterResourceDeleted(t *testing.T) {
	const (
		url = "http://deleted.example/page"
		a   = "<html><body><p>A</p></body></html>"
		b   = "<html><body><p>B</p></body></html>"
		e   = "!connection refused"
	)
	type read func(t *testing.T, m *Monitor) int64 // reads the page once; returns the resource it was given
	check := func(t *testing.T, m *Monitor) int64 {
		t.Helper()
		pg := m.fetchPage(context.Background(), url, false, time.Now())
		if pg.cur == nil && !pg.failed {
			t.Fatalf("check: %s", pg.err)
		}
		return pg.resource
	}
	crawl := func(t *testing.T, m *Monitor) int64 {
		t.Helper()
		sf := &siteFetcher{m: m, inner: m.Fetcher, versions: map[string]int64{}, leaves: map[string]leaf{}}
		if _, err := sf.Fetch(context.Background(), &vigil.FetchRequest{URL: url}); err != nil {
			t.Fatalf("crawl: %v", err)
		}
		if sf.failed > 0 {
			t.Fatalf("crawl: the page read was not stored")
		}
		return m.knownResource(context.Background(), url)
	}
	cases := map[string]struct {
		shared      bool
		etags       bool
		first, then string
		read        read
	}{
		"check, changed":              {first: a, then: b, read: check},
		"check, failure":              {first: a, then: e, read: check},
		"crawl, changed":              {first: a, then: b, read: crawl},
		"shared, check, unchanged":    {shared: true, first: a, then: a, read: check},
		"shared, check, 304":          {shared: true, etags: true, first: a, then: a, read: check},
		"shared, check, same failure": {shared: true, first: e, then: e, read: check},
		"shared, crawl, unchanged":    {shared: true, first: a, then: a, read: crawl},
		"shared, crawl, 304":          {shared: true, etags: true, first: a, then: a, read: crawl},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			db, wh, _ := testStore(t)
			var pages etagFetcher
			fetcher := withETags(&pages, tc.etags)
			m := &Monitor{Store: db, Warehouse: wh, Fetcher: fetcher, SharedStore: tc.shared}
			m.init()
			pages.set(url, tc.first)
			dead := tc.read(t, m)
			if err := db.DeleteResource(ctx, dead); err != nil {
				t.Fatal(err)
			}
			pages.set(url, tc.then)
			got := tc.read(t, m)
			r, v, err := db.LatestVersionByURL(ctx, url)
			if err != nil {
				t.Fatalf("after the read: the page has no resource: %v", err)
			}
			if got != r.ID || got == dead {
				t.Errorf("the page was given resource %d, want its new one %d (%d was deleted)", got, r.ID, dead)
			}
			if v == nil {
				t.Fatal("the page's new resource has no version")
			}
			if tc.then == e {
				if v.Error == "" {
					t.Errorf("newest version %d is no failure", v.ID)
				}
			} else if v.Error != "" || v.ContentHash != warehouse.Hash([]byte(tc.then)) {
				t.Errorf("newest version %d (%q) is not the page's body", v.ID, v.Error)
			}
			if id := m.knownResource(ctx, url); id != r.ID {
				t.Errorf("the monitor maps the URL to resource %d, want %d", id, r.ID)
			}
		})
	}
}

// TestSentinelAfterResourceDeleted: a sentinel's page whose resource was
// deleted from the store is checked as before: the check that finds it
// changed stores the new body under a new resource and records the change
// there, and the batch's record commits.
func TestSentinelAfterResourceDeleted(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	clock := time.Now().UTC().Truncate(time.Minute)
	s := createSentinel(t, db, spec.NewChecker(clock), u, "deleted",
		"Create Sentinel deleted Using "+pageA+" Monitor any change Fetch 1 hour Notify By email owner@example.test\n")
	f := &pagesFetcher{pages: map[string]string{pageA: pageWith("a0")}}
	m := &Monitor{Store: db, Warehouse: wh, Fetcher: f, Policy: schedule.Policy{MinInterval: time.Minute}, Now: func() time.Time { return clock }}
	runOnce(t, m, 1)
	old, err := db.FindResourceByURL(ctx, pageA)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteResource(ctx, old.ID); err != nil {
		t.Fatal(err)
	}
	for i, text := range []string{"a1", "a2"} {
		f.set(pageA, pageWith(text))
		clock = clock.Add(2 * time.Hour)
		makeDue(t, db, s, clock)
		runOnce(t, m, 1)
		r, v, err := db.LatestVersionByURL(ctx, pageA)
		if err != nil || v == nil {
			t.Fatalf("check %d after the delete: newest version %v, %v", i+1, v, err)
		}
		if r.ID == old.ID || v.ContentHash != warehouse.Hash([]byte(pageWith(text))) {
			t.Errorf("check %d after the delete: newest version %d of resource %d, want %q on a new resource", i+1, v.ID, r.ID, text)
		}
	}
	cs := changesOf(t, db, s)
	if len(cs) == 0 {
		t.Fatal("no change recorded after the delete")
	}
	r, err := db.FindResourceByURL(ctx, pageA)
	if err != nil {
		t.Fatal(err)
	}
	if cs[0].ResourceID != r.ID {
		t.Errorf("change %d recorded on resource %d, want the page's new resource %d", cs[0].ID, cs[0].ResourceID, r.ID)
	}
}
