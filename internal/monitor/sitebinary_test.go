package monitor

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/spec"
)

// TestSiteBinaryChanged: a PDF a site's crawl finds is stored as a version
// with its content type, saying its size and hash; when its bytes change
// (served without Last-Modified), a new version is stored and the site's
// change lists it as changed between the two, saying how its size and
// hash changed, with its content type for the dashboard to link both. It
// got a version saying "binary content" alone, without content type, the
// same version for every PDF, so a changed PDF was no change at all.
func TestSiteBinaryChanged(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	pdf1 := []byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n")
	pdf2 := []byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<</Title (v2)>>\nendobj\n")
	index := []byte(`<html><head><title>Reports</title></head><body><a href="report.pdf">Report</a></body></html>`)
	site := crawltest.NewSite(t, crawltest.Release{"/index.html": index, "/report.pdf": pdf1})
	now := time.Now().UTC()
	sen := createSentinel(t, db, spec.NewChecker(now), u, "reports", "Create Sentinel reports Using site "+site.URL("/index.html")+" Notify By email owner@example.test Every immediate")
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	runOnce(t, m, 1)
	hash := func(b []byte) string {
		sum := sha256.Sum256(b)
		return hex.EncodeToString(sum[:])
	}

	site.Set(crawltest.Release{"/index.html": index, "/report.pdf": pdf2}, nil)
	checkAnHourLater(t, m, db, sen, &now)
	cs := changesOf(t, db, sen)
	if len(cs) != 1 {
		t.Fatalf("%d changes, want 1: the PDF changed", len(cs))
	}
	recs := siteRecords(t, cs[0])
	if len(recs) != 1 || recs[0].Op != intent.Update || recs[0].Page.URL != site.URL("/report.pdf") {
		t.Fatalf("records %+v, want report.pdf changed", recs)
	}
	p := recs[0].Page
	if p.OldVersion == 0 || p.NewVersion == 0 || p.OldVersion == p.NewVersion || p.ContentType != "application/pdf" {
		t.Errorf("report.pdf: versions %d and %d, content type %q; want two versions, application/pdf", p.OldVersion, p.NewVersion, p.ContentType)
	}
	want := fmt.Sprintf("application/pdf: %d bytes -> %d bytes, sha256:%s… -> sha256:%s…", len(pdf1), len(pdf2), hash(pdf1)[:12], hash(pdf2)[:12])
	if p.Summary != want {
		t.Errorf("summary %q, want %q", p.Summary, want)
	}
	for i, c := range []struct {
		id   int64
		body []byte
	}{{p.OldVersion, pdf1}, {p.NewVersion, pdf2}} {
		v, err := db.FindVersionByID(ctx, c.id)
		if err != nil {
			t.Fatal(err)
		}
		if v.ContentType != "application/pdf" || v.Status != 200 || !strings.Contains(v.Error, "binary content") ||
			!strings.Contains(v.Error, fmt.Sprintf("(%d bytes, sha256:%s)", len(c.body), hash(c.body))) {
			t.Errorf("version %d: %+v; want application/pdf, saying its size and hash", i+1, v)
		}
	}
	msgs := messagesOf(t, db, u, sen)
	if len(msgs) != 1 || !strings.Contains(msgs[0].Text, "~ page changed: "+site.URL("/report.pdf")+": "+want) {
		t.Errorf("messages %+v, want one saying how report.pdf changed", msgs)
	}

	// The same bytes again: no change, no new version.
	checkAnHourLater(t, m, db, sen, &now)
	if cs := changesOf(t, db, sen); len(cs) != 1 {
		t.Errorf("%d changes, want 1: the PDF did not change again", len(cs))
	}
	res, head, err := db.LatestVersionByURL(ctx, site.URL("/report.pdf"))
	if err != nil || head.ID != p.NewVersion {
		t.Errorf("report.pdf's newest version %+v (resource %+v), %v; want %d still", head, res, err, p.NewVersion)
	}
}
