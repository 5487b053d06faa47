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

// TestSiteLeafVersions: a PDF or an image a site's crawl finds, whose body
// the fetcher does not return, is recorded in a change of the site on its
// resource, with the version saying why it has no body, as a page
// sentinel on it stores: the change's page links to its history. It was
// recorded on resource 0 without a version, "changed" with no history.
func TestSiteLeafVersions(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	pdf := []byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n")
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00")
	index := func(links string) []byte {
		return []byte(`<html><head><title>Reports</title></head><body><a href="report.pdf">Report</a>` + links + `</body></html>`)
	}
	day := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	site := crawltest.NewSite(t, crawltest.Release{})
	site.Set(crawltest.Release{"/index.html": index(""), "/report.pdf": pdf}, map[string]time.Time{"/report.pdf": day})
	now := time.Now().UTC()
	sen := createSentinel(t, db, spec.NewChecker(now), u, "reports", "Create Sentinel reports Using site "+site.URL("/index.html")+" Every interactive")
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	runOnce(t, m, 1)

	// The PDF with a new text under a new date: the same bytes under a
	// new date are the same version (crawl.ByContent), as a text page's are.
	pdf2 := []byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Title (v2) >>\nendobj\n")
	site.Set(crawltest.Release{"/index.html": index(`<img src="logo.png"><a href="logo.png">Logo</a>`), "/report.pdf": pdf2, "/logo.png": png},
		map[string]time.Time{"/report.pdf": day.AddDate(0, 1, 0), "/logo.png": day})
	checkAnHourLater(t, m, db, sen, &now)
	cs := changesOf(t, db, sen)
	if len(cs) != 1 {
		t.Fatalf("%d changes, want 1", len(cs))
	}
	ops := map[string]intent.Operation{}
	for _, rec := range siteRecords(t, cs[0]) {
		p := rec.Page
		ops[p.URL] = rec.Op
		if p.URL != site.URL("/report.pdf") && p.URL != site.URL("/logo.png") {
			continue // the start page, read as a page
		}
		res, err := db.FindResourceByURL(ctx, p.URL)
		if err != nil {
			t.Errorf("%s: %v", p.URL, err)
			continue
		}
		if p.ResourceID != res.ID {
			t.Errorf("%s recorded on resource %d, want its own, %d", p.URL, p.ResourceID, res.ID)
		}
		v, err := db.FindVersionByID(ctx, p.NewVersion)
		if err != nil || v.ResourceID != res.ID || !strings.Contains(v.Error, "binary content") {
			t.Errorf("%s: new version %d: %+v, %v; want a version of %d saying the page is binary", p.URL, p.NewVersion, v, err, res.ID)
		}
	}
	if ops[site.URL("/report.pdf")] != intent.Update || ops[site.URL("/logo.png")] != intent.Insert {
		t.Errorf("records %v, want report.pdf changed and logo.png added", ops)
	}
}
