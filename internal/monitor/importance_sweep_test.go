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

// TestImportanceKeepsClaimedPages: a page a claimed sentinel watches is
// read into the importance at its check, however long since its last
// read. Before, the pages of a batch already in the state kept their old
// read time at the join, and the first read of the batch swept those
// unread for importanceStale (sentinels fetched every two weeks, a
// monitor stopped for a week) before their own read: each such round read
// one page, the others none.
func TestImportanceKeepsClaimedPages(t *testing.T) {
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, linkedPages)
	now := time.Now().UTC()
	var sens []*vigil.Sentinel
	for _, name := range []string{"hub", "a", "b", "c"} {
		src := "Create Sentinel " + name + " Using " + site.URL("/"+name+".html") + " Monitor any change Fetch 2 weeks\n"
		sens = append(sens, createSentinel(t, db, spec.NewChecker(now), u, name, src))
	}
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	for round := range 4 {
		now = now.Add(14 * 24 * time.Hour)
		for _, s := range sens {
			makeDue(t, db, s, now)
		}
		runOnce(t, m, len(sens))
		if live := m.rank.o.Live(); live != len(sens) {
			t.Fatalf("round %d, two weeks after the last: %d pages live in the importance, want the %d checked", round, live, len(sens))
		}
		for p := range m.rank.pages {
			if rp := m.rank.pages[p]; rp.key != 0 && rp.read < now.Unix() {
				t.Errorf("round %d: page %d last read at %d, want now (%d) or later", round, p, rp.read, now.Unix())
			}
		}
	}
}

// TestImportanceKeepsPagesUntilTheirCheck: a page whose sentinel is
// fetched every two weeks stays in the importance between its checks,
// while the others are read, up to importanceStale after its next check.
// Before, it left the state a week after its read: it rejoined at each
// check from its stored importance, with none of the cash the pages
// linking to it had paid meanwhile, its estimate never moving from the
// first stored, and the pages it links to got nothing from it.
func TestImportanceKeepsPagesUntilTheirCheck(t *testing.T) {
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, linkedPages)
	now := time.Now().UTC()
	hub := createSentinel(t, db, spec.NewChecker(now), u, "hub", "Create Sentinel hub Using "+site.URL("/hub.html")+" Monitor any change Fetch 1 hour\n")
	createSentinel(t, db, spec.NewChecker(now), u, "a", "Create Sentinel a Using "+site.URL("/a.html")+" Monitor any change Fetch 2 weeks\n")
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	now = now.Add(time.Hour)
	runOnce(t, m, 2)
	for range 13 * 24 { // 13 days of the hub's checks, hourly
		now = now.Add(time.Hour)
		makeDue(t, db, hub, now)
		runOnce(t, m, 1)
	}
	if live := m.rank.o.Live(); live != 2 {
		t.Errorf("%d pages live in the importance 13 days after a page fetched every two weeks was read, want 2", live)
	}
}

// TestImportanceKeepsSharedPages: a page two sentinels watch, one fetched
// hourly and one every two weeks, stays until a week after the second's
// next check once the first is deleted: a read or a join of the page does
// not take back what keep gave it.
func TestImportanceKeepsSharedPages(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, linkedPages)
	now := time.Now().UTC()
	hub := createSentinel(t, db, spec.NewChecker(now), u, "hub", "Create Sentinel hub Using "+site.URL("/hub.html")+" Monitor any change Fetch 1 hour\n")
	hourly := createSentinel(t, db, spec.NewChecker(now), u, "a hourly", "Create Sentinel a1 Using "+site.URL("/a.html")+" Monitor any change Fetch 1 hour\n")
	createSentinel(t, db, spec.NewChecker(now), u, "a fortnightly", "Create Sentinel a2 Using "+site.URL("/a.html")+" Monitor any change Fetch 2 weeks\n")
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	now = now.Add(time.Hour)
	runOnce(t, m, 3)
	now = now.Add(time.Hour)
	makeDue(t, db, hub, now)
	makeDue(t, db, hourly, now)
	runOnce(t, m, 2)
	if err := db.DeleteSentinel(ctx, hourly.ID); err != nil {
		t.Fatal(err)
	}
	for range 10 * 24 { // 10 days of the hub's checks, hourly
		now = now.Add(time.Hour)
		makeDue(t, db, hub, now)
		runOnce(t, m, 1)
	}
	if live := m.rank.o.Live(); live != 2 {
		t.Errorf("%d pages live in the importance, want 2: a page fetched every two weeks left a week after another sentinel's read", live)
	}
}
