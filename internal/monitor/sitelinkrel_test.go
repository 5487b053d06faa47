package monitor

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/spec"
)

// TestSiteSentinelLinkRelNext: a page linked only by a <link rel="next">
// in the head of a page of the site is a page of the site, as one linked
// by <a href> is: a site sentinel reports it added when the link comes,
// and removed when it goes, as it reports the same page linked by <a href>;
// a link to a page that answers 404 is told as the change of the page
// that links to it, as one by <a href> is.
func TestSiteSentinelLinkRelNext(t *testing.T) {
	type report struct{ added, removed string }
	// run watches a site whose index links page2.html by link (an
	// element of its head or body, or none) and returns the records
	// of the change that adds the link and of the one that removes it.
	run := func(t *testing.T, link string, status int) report {
		db, wh, u := testStore(t)
		release := func(link string) crawltest.Release {
			return crawltest.Release{
				"/docs/index.html": []byte(`<html><head><title>Docs</title>` + headOf(link) + `</head><body><p>One.</p><a href="guide.html">Guide</a>` + bodyOf(link) + `</body></html>`),
				"/docs/guide.html": []byte(`<html><head><title>Guide</title></head><body><p>Guide.</p></body></html>`),
				"/docs/page2.html": []byte(`<html><head><title>Two</title></head><body><p>Two.</p></body></html>`),
			}
		}
		site := crawltest.NewSite(t, release(""))
		if status == 404 {
			site.Gone = map[string]bool{"/docs/page2.html": true}
		}
		now := time.Now().UTC()
		sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", "Create Sentinel docs Using site "+site.URL("/docs/")+" depth 2 pages 20 Every immediate")
		m := siteMonitor(db, wh, fetch.Options{}, &now)
		runOnce(t, m, 1)
		// records returns the pages told by the check just made, if it
		// found a change (the n-th), as "op path note", the index's
		// own change among them.
		records := func(n int) string {
			t.Helper()
			cs := changesOf(t, db, sen) // the latest first
			if len(cs) != n {
				return ""
			}
			var lines []string
			for _, r := range siteRecords(t, cs[0]) {
				lines = append(lines, fmt.Sprintf("%s %s %s", r.Op, strings.TrimPrefix(r.Page.URL, site.URL("")), r.Page.Note))
			}
			return strings.Join(lines, "; ")
		}
		site.Set(release(link), nil)
		checkAnHourLater(t, m, db, sen, &now)
		var rep report
		rep.added = records(1)
		site.Set(release(""), nil)
		checkAnHourLater(t, m, db, sen, &now)
		rep.removed = records(2)
		return rep
	}
	for _, status := range []int{200, 404} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			want := run(t, `<a href="page2.html">Next</a>`, status)
			if want.added == "" || want.removed == "" {
				t.Fatalf("a page linked by <a href> (HTTP %d): added %q, removed %q; want it told both times", status, want.added, want.removed)
			}
			for _, link := range []string{`<link rel="next" href="page2.html">`, `<link rel="Prev Next" href="/docs/page2.html">`} {
				if got := run(t, link, status); got != want {
					t.Errorf("a page linked by %s (HTTP %d):\nadded   %q\nremoved %q\nwant, as of <a href>:\nadded   %q\nremoved %q", link, status, got.added, got.removed, want.added, want.removed)
				}
			}
		})
	}
}

// headOf returns link if it is an element of a page's head, else "".
func headOf(link string) string {
	if strings.HasPrefix(link, "<link") {
		return link
	}
	return ""
}

// bodyOf returns link if it is an element of a page's body, else "".
func bodyOf(link string) string {
	if strings.HasPrefix(link, "<a") {
		return link
	}
	return ""
}
