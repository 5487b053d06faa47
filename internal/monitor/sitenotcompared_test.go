package monitor

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/internal/zstd"
	"github.com/vigil-web/vigil/spec"
)

// TestSitePageNotCompared: a modified page of a site whose stored version
// cannot be read (its blob corrupt), so that the Monitor clause cannot
// compare its versions, is reported changed, its note saying that its
// content could not be compared and why, beside the other pages' changes;
// the crawl becomes the reference, and the next check compares the page
// again. Before, its change was only logged and dropped, the reference
// moving on: the user never heard of it.
func TestSitePageNotCompared(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, docsRelease("Install.", "Free.", true))
	now := time.Now().UTC()
	sen := createSentinel(t, db, spec.NewChecker(now), u, "docs",
		"Create Sentinel docs Using site "+site.URL("/docs/")+" Monitor keywords {deprecated} Every interactive")
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	runOnce(t, m, 1) // the reference

	guide, faq := site.URL("/docs/guide.html"), site.URL("/docs/faq.html")
	_, v, err := db.LatestVersionByURL(ctx, guide)
	if err != nil || v == nil {
		t.Fatalf("the guide's version: %v, %v", v, err)
	}
	if err := db.ReplaceBody(ctx, &vigil.StoredBody{VersionID: v.ID, Encoding: vigil.BodyFull},
		&vigil.Blob{Hash: v.ContentHash, Size: v.Size, Data: []byte("x")}); err != nil {
		t.Fatal(err)
	}
	if _, err := wh.Body(ctx, v.ID); err == nil {
		t.Fatal("the corrupt body reads")
	}
	// A monitor and a warehouse started afresh: no body of their own in
	// memory.
	codec, err := zstd.New(0)
	if err != nil {
		t.Fatal(err)
	}
	if wh, err = warehouse.New(CachedResources(db), warehouse.Options{Codec: codec}); err != nil {
		t.Fatal(err)
	}
	m = siteMonitor(db, wh, fetch.Options{}, &now)

	site.Set(docsRelease("Install. Deprecated.", "Free. Deprecated.", true), nil)
	checkAnHourLater(t, m, db, sen, &now)
	cs := changesOf(t, db, sen)
	if len(cs) != 1 {
		t.Fatalf("%d changes, want 1 (the guide and the FAQ changed)", len(cs))
	}
	recs := siteRecords(t, cs[0])
	got := map[string]*intent.PageInfo{}
	for _, r := range recs {
		if r.Page == nil || r.Op != intent.Update {
			t.Errorf("record %+v: want an update of a page", r)
			continue
		}
		got[r.Page.URL] = r.Page
	}
	if len(got) != 2 || got[guide] == nil || got[faq] == nil {
		t.Fatalf("records %+v, want the guide and the FAQ updated", recs)
	}
	if note := got[guide].Note; !strings.Contains(note, "could not be compared") || !strings.Contains(note, "version") {
		t.Errorf("the guide's note %q: want it to say its content could not be compared, and why", note)
	}
	if got[guide].OldVersion != v.ID || got[guide].NewVersion == 0 {
		t.Errorf("the guide's versions %d to %d, want %d to its new one", got[guide].OldVersion, got[guide].NewVersion, v.ID)
	}
	if note := got[faq].Note; note != "" || got[faq].Summary == "" {
		t.Errorf("the FAQ: note %q, summary %q; want its change compared", note, got[faq].Summary)
	}
	if sum := stateSummary(t, db, sen); len(sum.CheckErrors) != 0 {
		t.Errorf("errors %v, want none: the change was reported", sum.CheckErrors)
	}

	// The crawl is the reference: the guide's new version compares.
	site.Set(docsRelease("Install. Deprecated. Deprecated again.", "Free. Deprecated.", true), nil)
	checkAnHourLater(t, m, db, sen, &now)
	cs = changesOf(t, db, sen)
	if len(cs) != 2 {
		t.Fatalf("%d changes, want 2", len(cs))
	}
	last := cs[0]
	if cs[1].ID > last.ID {
		last = cs[1]
	}
	recs = siteRecords(t, last)
	if len(recs) != 1 || recs[0].Page == nil || recs[0].Page.URL != guide || recs[0].Page.Note != "" {
		t.Errorf("records %+v, want the guide alone, compared", recs)
	}
}
