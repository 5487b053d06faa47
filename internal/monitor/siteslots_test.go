package monitor

import (
	"context"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/spec"
)

// TestSiteSlots: sites are crawled on at most half the workers, so that
// pages keep theirs. With two workers, two sites due and a page: while one
// site's crawl holds the only site slot (its server answers nothing yet),
// the page is checked on the other worker, and the other site is given
// back, due, with no record (neither failed nor deferred); it is crawled
// once the first site's slot is free.
func TestSiteSlots(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, docsRelease("Install.", "Free.", true))
	gated, open := gatedSite(t, site)

	now := time.Now().UTC()
	var sites []*vigil.Sentinel
	for _, name := range []string{"a", "b"} {
		sites = append(sites, createSentinel(t, db, spec.NewChecker(now), u, name, "Create Sentinel "+name+" Using site "+gated.URL+"/docs/ Every interactive"))
	}
	page := createSentinel(t, db, spec.NewChecker(now), u, "page", "Create Sentinel page Using "+site.URL("/docs/faq.html")+" Every interactive")
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	m.Workers = 2

	rctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { m.Run(rctx, time.Hour, nil); close(done) }()
	defer func() { open(); cancel(); <-done }()
	find := func(s *vigil.Sentinel) *vigil.Sentinel {
		t.Helper()
		got, err := db.FindSentinelByID(ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	wait := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
		}
	}

	wait("the page's check while a site is crawled", func() bool { return !find(page).LastCheck.IsZero() })
	crawling, given := find(sites[0]), find(sites[1])
	if crawling.NextCheck.Before(given.NextCheck) {
		crawling, given = given, crawling
	}
	if !crawling.NextCheck.After(now) || given.NextCheck.After(now) || !given.LastCheck.IsZero() {
		t.Errorf("sites' next checks %v and %v, last %v; want one leased (crawling), the other due (given back) at %v and unchecked",
			crawling.NextCheck, given.NextCheck, given.LastCheck, now)
	}
	if states, err := db.SentinelStates(ctx, []int64{given.ID}); err != nil || len(states) != 0 {
		t.Errorf("the site given back has a state %s, %v; want no record of a check", states[given.ID], err)
	}

	open()
	for _, s := range sites {
		wait("site "+s.Name+"'s crawl", func() bool {
			_, _, err := db.SiteSnapshot(ctx, s.ID)
			return err == nil
		})
	}
	states, err := db.SentinelStates(ctx, []int64{given.ID})
	if err != nil {
		t.Fatal(err)
	}
	st := decodeState(states[given.ID])
	if ps := st.Pages[gated.URL+"/docs/"]; ps == nil || !ps.FailingSince.IsZero() {
		t.Errorf("the site given back, then crawled: its run of failures %+v, want none", ps)
	}
}
