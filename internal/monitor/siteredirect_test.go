package monitor

import (
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/spec"
)

// movedDocs returns the redirects (301) that move every page of
// docsRelease from /docs/ to the directory dir.
func movedDocs(release crawltest.Release, dir string) map[string]string {
	moved := map[string]string{}
	for p := range release {
		from := strings.TrimSuffix(p, "index.html")
		moved[from] = dir + strings.TrimPrefix(from, "/docs/")
	}
	return moved
}

// TestSiteStartPageRedirectsElsewhere: a site sentinel written without a
// scope crawls the directory of its start page after its redirects. When
// the start page begins to redirect to another directory between two
// checks, the check fails and says so, as the sentinel's last error and,
// once the failure lasts, in a failure notice, and the previous crawl stays
// the reference: no page is reported added or deleted for the redirect
// alone. When the redirect ends, the site is compared with that reference
// again and only its real change is reported. Before, the crawl of the new
// directory silently became the reference (a query of another scope).
func TestSiteStartPageRedirectsElsewhere(t *testing.T) {
	for name, dir := range map[string]string{
		"another directory": "/v2/docs/",
		"a subdirectory":    "/docs/latest/",
		"the site's root":   "/",
	} {
		t.Run(name, func(t *testing.T) {
			db, wh, u := testStore(t)
			before := docsRelease("Run the installer.", "Ask us.", true)
			site := crawltest.NewSite(t, before)
			start := site.URL("/docs/")
			now := time.Now().UTC()
			sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", "Create Sentinel docs Using site "+start+" Notify By webhook https://hooks.example.test/x Every immediate")
			m := siteMonitor(db, wh, fetch.Options{}, &now)
			m.FailureNotice = time.Hour
			runOnce(t, m, 1) // the reference

			site.Mu.Lock()
			site.Moved = movedDocs(before, dir)
			site.Mu.Unlock()
			checkAnHourLater(t, m, db, sen, &now)
			checkAnHourLater(t, m, db, sen, &now) // failing for an hour: the contacts are told
			if cs := changesOf(t, db, sen); len(cs) != 0 {
				t.Fatalf("%d changes while the start page redirects to %s, want none: %v", len(cs), dir, siteRecords(t, cs[0]))
			}
			want := "now redirects to " + site.URL(dir)
			sum := stateSummary(t, db, sen)
			if got := sum.CheckErrors[start]; !strings.Contains(got, want) {
				t.Errorf("the last error: %q, want it to say %q", got, want)
			}
			if sum.FailingSince[start].IsZero() {
				t.Errorf("not failing while the start page redirects to %s", dir)
			}
			var told bool
			for _, msg := range messagesOf(t, db, u, sen) {
				told = told || msg.Failure != nil && strings.Contains(msg.Failure.Error, want)
			}
			if !told {
				t.Errorf("no failure notice saying %q", want)
			}

			// The redirect ends: compared with the reference kept.
			site.Mu.Lock()
			site.Moved = nil
			site.Mu.Unlock()
			site.Set(docsRelease("Run the new installer.", "Ask us.", true), nil)
			checkAnHourLater(t, m, db, sen, &now)
			cs := changesOf(t, db, sen)
			if len(cs) != 1 {
				t.Fatalf("%d changes once the redirect ended, want 1", len(cs))
			}
			recs := siteRecords(t, cs[0])
			if len(recs) != 1 || recs[0].Op != intent.Update || recs[0].Page == nil || recs[0].Page.URL != site.URL("/docs/guide.html") {
				t.Errorf("records once the redirect ended: %+v, want the guide modified alone", recs)
			}
			if sum := stateSummary(t, db, sen); len(sum.CheckErrors) != 0 || len(sum.FailingSince) != 0 {
				t.Errorf("once the redirect ended: errors %v, failing since %v; want none", sum.CheckErrors, sum.FailingSince)
			}
		})
	}
}

// TestSiteEditedAfterStartPageMoved: an edit of a site sentinel's crawl
// starts a new reference, and is never taken for a start page that
// redirects elsewhere: one edited to the address its start page now
// redirects to, or whose written scope is dropped (the scope crawled
// before was not its start page's directory), compares its next crawls
// with a new reference, and works.
func TestSiteEditedAfterStartPageMoved(t *testing.T) {
	for name, tc := range map[string]struct {
		src, edited func(*crawltest.Site) string
		moveTo      string // where the start page redirects to after the first check, if anywhere
		start       string // the start page's path once edited
	}{
		"the URL edited to the redirect's target": {
			src:    func(s *crawltest.Site) string { return "Using site " + s.URL("/docs/") },
			edited: func(s *crawltest.Site) string { return "Using site " + s.URL("/v2/docs/") },
			moveTo: "/v2/docs/",
			start:  "/v2/docs/",
		},
		"a written scope dropped": {
			src:    func(s *crawltest.Site) string { return "Using site " + s.URL("/docs/") + " scope " + s.URL("/") },
			edited: func(s *crawltest.Site) string { return "Using site " + s.URL("/docs/") },
			start:  "/docs/",
		},
	} {
		t.Run(name, func(t *testing.T) {
			db, wh, u := testStore(t)
			before := docsRelease("Run the installer.", "Ask us.", true)
			site := crawltest.NewSite(t, before)
			now := time.Now().UTC()
			sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", "Create Sentinel docs "+tc.src(site)+" Every interactive")
			m := siteMonitor(db, wh, fetch.Options{}, &now)
			runOnce(t, m, 1) // the reference
			if tc.moveTo != "" {
				site.Mu.Lock()
				site.Moved = movedDocs(before, tc.moveTo)
				site.Mu.Unlock()
				checkAnHourLater(t, m, db, sen, &now)
			}

			editSpec(t, db, u, sen, "Create Sentinel docs "+tc.edited(site)+" Every interactive", now)
			checkAnHourLater(t, m, db, sen, &now) // the new reference
			// No failure of before the edit is said
			// (TestSiteEditClearsStaleError).
			start := site.URL(tc.start)
			if sum := stateSummary(t, db, sen); sum.CheckErrors[start] != "" || !sum.FailingSince[start].IsZero() {
				t.Errorf("after the edit: error %q, failing since %v; want none", sum.CheckErrors[start], sum.FailingSince[start])
			}
			site.Set(docsRelease("Run the new installer.", "Ask us.", true), nil)
			checkAnHourLater(t, m, db, sen, &now)
			cs := changesOf(t, db, sen)
			if len(cs) != 1 {
				t.Fatalf("%d changes after the guide changed, want 1", len(cs))
			}
			if recs := siteRecords(t, cs[0]); len(recs) != 1 || recs[0].Op != intent.Update || recs[0].Page == nil || !strings.HasSuffix(recs[0].Page.URL, "/guide.html") {
				t.Errorf("records after the guide changed: %+v, want the guide modified alone", recs)
			}
		})
	}
}
