package monitor

import (
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
			if rp := m.rank.pages[p]; rp.key != 0 && rp.read != now.Unix() {
				t.Errorf("round %d: page %d last read at %d, want now (%d)", round, p, rp.read, now.Unix())
			}
		}
	}
}
