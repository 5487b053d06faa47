package monitor

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/spec"
)

// TestSiteBinaryVersions: a site sentinel on a site whose PDF and image
// are served without Last-Modified, through the real fetcher on loopback:
// the PDF generated again (new dates, /ID, XMP, offsets) is no change; a
// PDF with a new text, then an image replaced, are each a change of that
// page alone; after an upgrade, the crawl kept by a Vigil before binary
// leaves were hashed (no hash, no version) reports no binary changed.
func TestSiteBinaryVersions(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	logoA := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00")
	logoB := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x02\x00\x00\x00\x02\x08\x02\x00\x00\x00")
	release := func(run crawltest.PDFRun, logo []byte) crawltest.Release {
		return crawltest.Release{
			"/index.html": []byte(`<html><head><title>Reports</title></head><body><a href="report.pdf">Report</a> <a href="logo.png">Logo</a></body></html>`),
			"/report.pdf": crawltest.PDF(run),
			"/logo.png":   logo,
		}
	}
	first, second := crawltest.FirstPDFRun(), crawltest.SecondPDFRun()
	rewritten := second
	rewritten.Text = "Hello, World"
	site := crawltest.NewSite(t, release(first, logoA))
	now := time.Now().UTC()
	sen := createSentinel(t, db, spec.NewChecker(now), u, "reports", "Create Sentinel reports Using site "+site.URL("/index.html")+" Monitor any change Every immediate")
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	runOnce(t, m, 1)

	// asBefore rewrites the crawl kept as a Vigil before binary leaves
	// were hashed kept it.
	asBefore := func() {
		t.Helper()
		raw, _, err := db.SiteSnapshot(ctx, sen.ID)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := decodeSite(raw)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range rec.Snapshot.Pages {
			if p.URL != site.URL("/index.html") && p.URL != site.URL("/") {
				p.Hash, p.Size, p.Version, p.VersionKind, p.DigestNote = "", 0, "", "", ""
			}
		}
		old, err := encodeSite(rec)
		if err != nil {
			t.Fatal(err)
		}
		states, err := db.SentinelStates(ctx, []int64{sen.ID})
		if err != nil {
			t.Fatal(err)
		}
		if err := db.RecordChecks(ctx, []*vigil.CheckRecord{{SentinelID: sen.ID, CheckedAt: now, NextCheck: now.Add(time.Hour),
			State: states[sen.ID], Site: old}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name     string
		run      crawltest.PDFRun
		logo     []byte
		upgraded bool     // the crawl kept is a Vigil's before
		changed  []string // the pages of the change, none for no change
	}{
		{"PDF generated again", second, logoA, false, nil},
		{"PDF with a new text", rewritten, logoA, false, []string{"update /report.pdf"}},
		{"image replaced", rewritten, logoB, false, []string{"update /logo.png"}},
		{"after an upgrade, PDF with the first text", first, logoA, true, nil},
		{"after it, PDF generated again", second, logoA, false, nil},
		{"after it, image replaced", second, logoB, false, []string{"update /logo.png"}},
	} {
		if tc.upgraded {
			asBefore()
		}
		before := len(changesOf(t, db, sen))
		site.Set(release(tc.run, tc.logo), nil)
		checkAnHourLater(t, m, db, sen, &now)
		cs := changesOf(t, db, sen)
		var got []string
		if len(cs) > before {
			for _, r := range siteRecords(t, cs[0]) {
				got = append(got, string(r.Op)+" "+r.Page.URL[len(site.Srv.URL):])
			}
		}
		if len(cs) > before+1 || !slices.Equal(got, tc.changed) {
			t.Errorf("%s: %d changes, records %q; want %q", tc.name, len(cs)-before, got, tc.changed)
		}
	}
}

// TestSiteBinaryDigestNote: a site sentinel on a site whose PDF is hashed
// as its bytes (here one that does not parse, its date new at every run):
// each check reports it changed, and the change's record says why (its
// note), so that its owner can tell a document that changes from one Vigil
// cannot read.
func TestSiteBinaryDigestNote(t *testing.T) {
	db, wh, u := testStore(t)
	unparsed := func(date string) []byte {
		return []byte("%PDF-1.4\n1 0 obj\n<< /CreationDate (D:" + date + ") /Title (open >>\nendobj\n")
	}
	release := func(date string) crawltest.Release {
		return crawltest.Release{
			"/index.html": []byte(`<html><head><title>Reports</title></head><body><a href="report.pdf">Report</a></body></html>`),
			"/report.pdf": unparsed(date),
		}
	}
	site := crawltest.NewSite(t, release("20240101"))
	now := time.Now().UTC()
	sen := createSentinel(t, db, spec.NewChecker(now), u, "reports", "Create Sentinel reports Using site "+site.URL("/index.html")+" Monitor any change Every immediate")
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	runOnce(t, m, 1)
	date := "20251130093015"
	site.Set(release(date), nil)
	checkAnHourLater(t, m, db, sen, &now)
	cs := changesOf(t, db, sen)
	if len(cs) != 1 {
		t.Fatalf("%d changes, want 1", len(cs))
	}
	recs := siteRecords(t, cs[0])
	want := fmt.Sprintf(`hashed as bytes: pdf syntax at byte %d: a string that does not end: expected ")"`, strings.Index(string(unparsed(date)), "(open"))
	if len(recs) != 1 || recs[0].Page.URL != site.URL("/report.pdf") || recs[0].Page.Note != want {
		t.Errorf("records %+v; want report.pdf's update noted %q", recs, want)
	}
}
