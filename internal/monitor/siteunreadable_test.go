package monitor

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/spec"
)

// TestSiteSnapshotUnreadable: a check whose previous crawl the store
// gives but that cannot be read (not a site record, or one without its
// snapshot) takes its crawl as the new reference and fails, once, its
// last error saying that the last crawl could not be read and that what
// changed since was not compared; it reports nothing. The next check
// compares with the new reference: it fails no more, and reports the
// change made since. Before, the crawl became the reference silently, in
// the log alone: the user never heard that a change may have been lost.
func TestSiteSnapshotUnreadable(t *testing.T) {
	for name, data := range map[string]func(*testing.T) []byte{
		"not a site record": func(*testing.T) []byte { return []byte("not a site record") },
		"no snapshot":       func(t *testing.T) []byte { return mustEncode(t, &siteRecord{}) },
	} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			db, wh, u := testStore(t)
			site := crawltest.NewSite(t, docsRelease("Run the installer.", "Ask us.", true))
			start := site.URL("/docs/")
			now := time.Now().UTC()
			sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", "Create Sentinel docs Using site "+start+" Every interactive")
			m := siteMonitor(db, wh, fetch.Options{}, &now)
			runOnce(t, m, 1) // the reference

			states, err := db.SentinelStates(ctx, []int64{sen.ID})
			if err != nil {
				t.Fatal(err)
			}
			if err := db.RecordChecks(ctx, []*vigil.CheckRecord{{SentinelID: sen.ID, CheckedAt: now, NextCheck: now.Add(time.Hour),
				State: states[sen.ID], Site: data(t)}}); err != nil {
				t.Fatal(err)
			}

			site.Set(docsRelease("Run the new installer.", "Ask us.", true), nil)
			checkAnHourLater(t, m, db, sen, &now)
			sum := stateSummary(t, db, sen)
			msg := sum.CheckErrors[start]
			for _, want := range []string{"last crawl could not be read", "this crawl is the new reference", "was not compared"} {
				if !strings.Contains(msg, want) {
					t.Errorf("the last error: %q, want it to say %q", msg, want)
				}
			}
			if sum.FailingSince[start].IsZero() {
				t.Errorf("no run of failures: %+v", sum)
			}
			if cs := changesOf(t, db, sen); len(cs) != 0 {
				t.Errorf("%d changes from a check without a previous crawl, want none", len(cs))
			}
			raw, _, err := db.SiteSnapshot(ctx, sen.ID)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := decodeSite(raw); err != nil {
				t.Fatalf("the unreadable crawl is kept, not this one: %v", err)
			}

			// The next check compares with the new reference.
			site.Set(docsRelease("Run the newest installer.", "Ask us.", true), nil)
			checkAnHourLater(t, m, db, sen, &now)
			if sum := stateSummary(t, db, sen); len(sum.CheckErrors) != 0 || len(sum.FailingSince) != 0 {
				t.Errorf("after a check that compared: errors %v, failing since %v; want none", sum.CheckErrors, sum.FailingSince)
			}
			wantGuideChanged(t, db, sen, site.URL("/docs/guide.html"), "the guide changed since the new reference")
		})
	}
}

// TestSiteSnapshotUnreadableTold: the sentinel's contacts are told of a
// check whose previous crawl could not be read, at once and once: the
// failure ends at the next check, long before a run of failures is told
// (FailureNotice), and the next check, which works, sends nothing of
// working again. With failure notices off, or an interactive sentinel,
// nobody is told. Before, the failure showed only on the dashboard and
// in lastFetchError until the next check.
func TestSiteSnapshotUnreadableTold(t *testing.T) {
	for _, tc := range []struct {
		name   string
		every  string
		notice time.Duration
		told   bool
	}{
		{"notified", "Notify By webhook https://hooks.example.test/x Every immediate", 0, true},
		{"failure notices off", "Notify By webhook https://hooks.example.test/x Every immediate", -1, false},
		{"interactive", "Every interactive", 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			db, wh, u := testStore(t)
			site := crawltest.NewSite(t, docsRelease("Run the installer.", "Ask us.", true))
			start := site.URL("/docs/")
			now := time.Now().UTC()
			sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", "Create Sentinel docs Using site "+start+" "+tc.every)
			m := siteMonitor(db, wh, fetch.Options{}, &now)
			m.FailureNotice = tc.notice
			runOnce(t, m, 1) // the reference

			states, err := db.SentinelStates(ctx, []int64{sen.ID})
			if err != nil {
				t.Fatal(err)
			}
			if err := db.RecordChecks(ctx, []*vigil.CheckRecord{{SentinelID: sen.ID, CheckedAt: now, NextCheck: now.Add(time.Hour),
				State: states[sen.ID], Site: []byte("not a site record")}}); err != nil {
				t.Fatal(err)
			}
			checkAnHourLater(t, m, db, sen, &now)
			failures := func() (n int, last *vigil.PageFailure) {
				for _, msg := range messagesOf(t, db, u, sen) {
					if msg.Failure != nil {
						n, last = n+1, msg.Failure
					}
				}
				return n, last
			}
			n, f := failures()
			switch {
			case !tc.told && n != 0:
				t.Fatalf("%d failure notices, want none", n)
			case tc.told && n != 1:
				t.Fatalf("%d failure notices, want 1", n)
			case tc.told && (f.URL != start || f.Recovered || !strings.Contains(f.Error, "last crawl could not be read") ||
				!strings.Contains(f.Error, "was not compared")):
				t.Errorf("failure notice %+v: want %s failed, its last crawl not read, the change since not compared", f, start)
			}

			// The next check works, and tells nothing more of the failure.
			checkAnHourLater(t, m, db, sen, &now)
			if again, _ := failures(); again != n {
				t.Errorf("%d failure notices after the check that worked, want %d", again, n)
			}
		})
	}
}
