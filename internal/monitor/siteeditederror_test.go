package monitor

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/spec"
)

// TestSiteEditClearsStaleError: a site sentinel whose check failed (its
// start page redirects out of its directory) and that is then edited says
// no error of before the edit: not of its old start URL, edited away, nor
// of the crawl it no longer runs, its URL kept and a scope written. Said
// at once, before its next check (the dashboard, the API and vigil
// sentinel list read the state's summary), and its next check forgets the
// old URL's failure. Before, the state kept the error of the old start
// URL for ever, and the error of a crawl edited away until the next check.
func TestSiteEditClearsStaleError(t *testing.T) {
	for name, edited := range map[string]func(*crawltest.Site) string{
		"the URL edited":  func(s *crawltest.Site) string { return "Using site " + s.URL("/v2/docs/") },
		"a scope written": func(s *crawltest.Site) string { return "Using site " + s.URL("/docs/") + " scope " + s.URL("/") },
	} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			db, wh, u := testStore(t)
			before := docsRelease("Run the installer.", "Ask us.", true)
			site := crawltest.NewSite(t, before)
			start := site.URL("/docs/")
			now := time.Now().UTC()
			sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", "Create Sentinel docs Using site "+start+" Every interactive")
			m := siteMonitor(db, wh, fetch.Options{}, &now)
			runOnce(t, m, 1) // the reference
			site.Mu.Lock()
			site.Moved = movedDocs(before, "/v2/docs/")
			site.Mu.Unlock()
			checkAnHourLater(t, m, db, sen, &now)
			if sum := stateSummary(t, db, sen); sum.CheckErrors[start] == "" {
				t.Fatalf("no error while the start page redirects elsewhere: %+v", sum)
			}

			editSpec(t, db, u, sen, "Create Sentinel docs "+edited(site)+" Every interactive", now)
			cur, err := db.FindSentinelByID(ctx, sen.ID)
			if err != nil {
				t.Fatal(err)
			}
			if sum := stateSummary(t, db, cur); len(sum.CheckErrors) != 0 || len(sum.FailingSince) != 0 {
				t.Errorf("after the edit, before a check: errors %v, failing since %v; want none", sum.CheckErrors, sum.FailingSince)
			}
			checkAnHourLater(t, m, db, cur, &now)
			if sum := stateSummary(t, db, cur); len(sum.CheckErrors) != 0 || len(sum.FailingSince) != 0 {
				t.Errorf("after the edit and a check: errors %v, failing since %v; want none", sum.CheckErrors, sum.FailingSince)
			}
			states, err := db.SentinelStates(ctx, []int64{sen.ID})
			if err != nil {
				t.Fatal(err)
			}
			var st state
			if err := json.Unmarshal(states[sen.ID], &st); err != nil {
				t.Fatal(err)
			}
			for u, ps := range st.Pages {
				if ps.CheckError != "" || !ps.FailingSince.IsZero() {
					t.Errorf("the state keeps for %s: error %q, failing since %v; want none", u, ps.CheckError, ps.FailingSince)
				}
			}
		})
	}
}
