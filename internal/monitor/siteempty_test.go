package monitor

import (
	"reflect"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/spec"
)

// TestSiteEmptyBodyIsFailure: a page of a site that had content and
// answers one crawl 200 with an empty (or white-space only) body, then its
// content again, reports no change, as a watched page does
// (TestEmptyBodyIsFailure): the empty answer is that page's failure, "the
// page answered 200 with an empty body", carried over from the last crawl
// with its version there (as a page answering 503 is), and no empty
// version is stored. Before, the empty body was the page's new version:
// the sentinel was told the page changed (all its content removed), then
// changed back. A start page answering empty fails the site's check, as a
// failing start page does: its failure is stored as a watched page's is,
// and the previous crawl stays the reference.
func TestSiteEmptyBodyIsFailure(t *testing.T) {
	const why = "the page answered 200 with an empty body"
	for name, empty := range map[string]string{"empty": "", "white space": " \r\n\t\n"} {
		t.Run(name, func(t *testing.T) {
			db, wh, u := testStore(t)
			full := carryRelease("Install.")
			site := crawltest.NewSite(t, full)
			now := time.Now().UTC()
			sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", "Create Sentinel docs Using site "+site.URL("/docs/")+" depth 3 pages 20 Notify By email owner@example.test Every immediate")
			m := siteMonitor(db, wh, fetch.Options{}, &now)
			runOnce(t, m, 1)
			first := storedSite(t, db, sen)
			guide, deep, start := site.URL("/docs/guide.html"), site.URL("/docs/deep.html"), site.URL("/docs/")

			emptied := carryRelease("Install.")
			emptied["/docs/guide.html"] = []byte(empty)
			site.Set(emptied, nil)
			checkAnHourLater(t, m, db, sen, &now)
			if cs := changesOf(t, db, sen); len(cs) != 0 {
				t.Fatalf("guide answering empty: %d changes (%s), want none", len(cs), pageURLs(t, cs[0]))
			}
			second := storedSite(t, db, sen)
			for _, u := range []string{guide, deep} {
				p := second.Snapshot.Page(u)
				if p == nil || p.Carried == nil || second.Versions[u] != first.Versions[u] || second.Versions[u] == 0 {
					t.Errorf("%s in the crawl kept: %+v, version %d (was %d), want carried with its version", u, p, second.Versions[u], first.Versions[u])
				}
			}
			if p := second.Snapshot.Page(guide); p != nil && p.Carried != nil && p.Carried.Failure() != why {
				t.Errorf("guide's failure %q, want %q", p.Carried.Failure(), why)
			}
			if got, want := versionTrace(t, db, wh, guide), []string{"200 " + string(full["/docs/guide.html"])}; !reflect.DeepEqual(got, want) {
				t.Errorf("guide's versions %q, want %q", got, want)
			}

			site.Set(full, nil)
			checkAnHourLater(t, m, db, sen, &now)
			if cs := changesOf(t, db, sen); len(cs) != 0 {
				t.Errorf("guide read again: %d changes (%s), want none", len(cs), pageURLs(t, cs[0]))
			}
			if st := storedSite(t, db, sen).Snapshot.Stats(); st.Carried != 0 || st.Failures != 0 {
				t.Errorf("guide read again: %+v", st)
			}

			// The start page answering empty: the site's check fails.
			emptied = carryRelease("Install.")
			emptied["/docs/index.html"] = []byte(empty)
			site.Set(emptied, nil)
			checkAnHourLater(t, m, db, sen, &now)
			if cs := changesOf(t, db, sen); len(cs) != 0 {
				t.Fatalf("start page answering empty: %d changes (%s), want none", len(cs), pageURLs(t, cs[0]))
			}
			if v := newestVersion(t, db, start); v.Error != why || v.Status != 200 {
				t.Errorf("start page's newest version: status %d, error %q; want 200, %q", v.Status, v.Error, why)
			}
			if ps := pageStateOf(t, db, sen, start); ps.FailingSince.IsZero() {
				t.Errorf("the start page answering empty is not failing")
			}
			if got, want := storedSite(t, db, sen).Versions, first.Versions; !reflect.DeepEqual(got, want) {
				t.Errorf("the crawl kept after the start page failed: versions %v, want the previous %v", got, want)
			}
			site.Set(full, nil)
			checkAnHourLater(t, m, db, sen, &now)
			if cs := changesOf(t, db, sen); len(cs) != 0 {
				t.Errorf("start page read again: %d changes (%s), want none", len(cs), pageURLs(t, cs[0]))
			}
			if msgs := messagesOf(t, db, u, sen); len(msgs) != 0 {
				t.Errorf("%d messages (the first %q), want none", len(msgs), msgs[0].Subject)
			}
		})
	}
}
