package monitor

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/spec"
)

// TestSiteSentinelPageFailing: a page of a watched site that fails for a
// moment (a 503) is reported once as failed, its last version kept: not
// removed, and, when it answers again with the same content, not added
// either. Checks while it still fails report nothing more. A page that
// answers 404 is removed. The message says so, and the summary counts it.
func TestSiteSentinelPageFailing(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, docsRelease("Install.", "Free.", true))
	now := time.Now().UTC()
	sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", "Create Sentinel docs Using site "+site.URL("/docs/")+" depth 2 pages 20 Notify By email owner@example.test Every immediate")
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	runOnce(t, m, 1)
	raw, _, err := db.SiteSnapshot(ctx, sen.ID)
	if err != nil {
		t.Fatal(err)
	}
	first, err := decodeSite(raw)
	if err != nil {
		t.Fatal(err)
	}
	faq := site.URL("/docs/faq.html")

	site.Mu.Lock()
	site.Broken = map[string]int{"/docs/faq.html": 503}
	site.Mu.Unlock()
	checkAnHourLater(t, m, db, sen, &now)
	cs := changesOf(t, db, sen)
	if len(cs) != 1 {
		t.Fatalf("%d changes, want 1: the page failing", len(cs))
	}
	if want := "site " + site.URL("/docs/") + ": 1 page failed"; cs[0].Summary != want {
		t.Errorf("summary %q, want %q", cs[0].Summary, want)
	}
	recs := siteRecords(t, cs[0])
	if len(recs) != 1 || recs[0].Op != intent.Fail || recs[0].Page.URL != faq || recs[0].Page.OldVersion != first.Versions[faq] || recs[0].Page.NewVersion != first.Versions[faq] {
		t.Fatalf("records %+v, want faq.html failed, its last version %d kept", recs, first.Versions[faq])
	}
	if n := recs[0].Page.Note; !strings.HasPrefix(n, "HTTP 503; last read ") || !strings.HasSuffix(n, ", that version kept") {
		t.Errorf("note %q", n)
	}
	msgs := messagesOf(t, db, u, sen)
	if len(msgs) != 1 || !strings.Contains(msgs[0].Text, `! page failed: `+faq+` "FAQ" (HTTP 503; last read `) {
		t.Fatalf("messages %+v, want one saying faq.html failed", msgs)
	}

	// Still failing: told once.
	checkAnHourLater(t, m, db, sen, &now)
	if cs := changesOf(t, db, sen); len(cs) != 1 {
		t.Fatalf("%d changes after a second check with the page failing, want 1", len(cs))
	}
	// Back with the same content: nothing to tell.
	site.Mu.Lock()
	site.Broken = nil
	site.Mu.Unlock()
	checkAnHourLater(t, m, db, sen, &now)
	if cs := changesOf(t, db, sen); len(cs) != 1 {
		t.Fatalf("%d changes after the page came back, want 1 (it is not added again)", len(cs))
	}
	// Gone: removed.
	site.Mu.Lock()
	site.Gone = map[string]bool{"/docs/faq.html": true}
	site.Mu.Unlock()
	checkAnHourLater(t, m, db, sen, &now)
	cs = changesOf(t, db, sen)
	if len(cs) != 2 {
		t.Fatalf("%d changes, want 2", len(cs))
	}
	var gone *intent.Change
	for _, c := range cs {
		if recs := siteRecords(t, c); len(recs) == 1 && recs[0].Op == intent.Delete {
			gone = &recs[0]
		}
	}
	if gone == nil || gone.Page.URL != faq || gone.Page.Note != "now failing: HTTP 404" {
		t.Errorf("the page gone: %+v, want faq.html removed, now failing: HTTP 404", gone)
	}
}
