package monitor

import (
	"testing"
	"time"

	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/spec"
)

// movedRelease is a site whose start page links the page at path, which
// holds the same text wherever it is.
func movedRelease(path string) crawltest.Release {
	return crawltest.Release{
		"/docs/index.html": []byte(`<html><head><title>Docs</title></head><body><a href="` + path + `">Setup</a></body></html>`),
		"/docs/" + path:    []byte(`<html><head><title>Setup</title></head><body><p>Run the installer.</p></body></html>`),
	}
}

// TestSiteMovedPage: a page removed whose content a page added holds is
// said to have moved, on both its records, as vigil site diff says it:
// the message tells a page moved from one deleted and one new.
func TestSiteMovedPage(t *testing.T) {
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, movedRelease("setup.html"))
	now := time.Now().UTC()
	sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", "Create Sentinel docs Using site "+site.URL("/docs/")+" Notify By webhook https://hooks.example.test/x Every immediate")
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	runOnce(t, m, 1)

	site.Set(movedRelease("guide/setup.html"), nil)
	checkAnHourLater(t, m, db, sen, &now)
	cs := changesOf(t, db, sen)
	if len(cs) != 1 {
		t.Fatalf("%d changes, want 1", len(cs))
	}
	oldURL, newURL := site.URL("/docs/setup.html"), site.URL("/docs/guide/setup.html")
	notes := map[intent.Operation]string{}
	for _, r := range siteRecords(t, cs[0]) {
		notes[r.Op] = r.Page.Note
	}
	want := map[intent.Operation]string{
		intent.Insert: "the content of removed " + oldURL,
		intent.Delete: "no longer reached; its content now at " + newURL,
	}
	for op, note := range want {
		if notes[op] != note {
			t.Errorf("note of the page %s: %q, want %q", op, notes[op], note)
		}
	}
	if msgs := messagesOf(t, db, u, sen); len(msgs) != 1 {
		t.Errorf("%d messages, want 1", len(msgs))
	}
}
