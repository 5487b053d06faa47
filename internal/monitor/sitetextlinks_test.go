package monitor

import (
	"context"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/spec"
)

// TestSiteTextLinks: a site sentinel whose start page is a text sitemap
// (one URL a line) watches the pages it lists in scope: the crawl reads
// them, stores their versions, and a change of one is reported. Compared
// with a crawl stored before such URLs were followed (format 2: the
// sitemap alone), the pages reached through it are added, and say why.
func TestSiteTextLinks(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, crawltest.Release{})
	release := func(b string) crawltest.Release {
		return crawltest.Release{
			"/docs/sitemap.txt": []byte(site.URL("/docs/a.html") + "\n" + site.URL("/docs/b.html") + "\n" + site.URL("/other/x.html") + "\nhttp://a..example/docs/c.html\n"),
			"/docs/a.html":      []byte(`<html><head><title>A</title></head><body><p>Alpha</p></body></html>`),
			"/docs/b.html":      []byte(`<html><head><title>B</title></head><body><p>` + b + `</p></body></html>`),
			"/other/x.html":     []byte(`<html><head><title>X</title></head><body><p>` + b + `</p></body></html>`),
		}
	}
	site.Set(release("Beta"), nil)
	now := time.Now().UTC()
	src := "Create Sentinel docs Using site " + site.URL("/docs/sitemap.txt") + " Monitor any change Every immediate"
	sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", src)
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	runOnce(t, m, 1)
	raw, _, err := db.SiteSnapshot(ctx, sen.ID)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := decodeSite(raw)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Snapshot.Format != crawl.Format || len(rec.Snapshot.Pages) != 3 || rec.Versions[site.URL("/docs/b.html")] == 0 {
		t.Fatalf("the first crawl: format %s, pages %+v, versions %v; want the sitemap, a.html and b.html, stored", rec.Snapshot.Format, rec.Snapshot.Pages, rec.Versions)
	}

	site.Set(release("Beta, edited"), nil)
	checkAnHourLater(t, m, db, sen, &now)
	cs := changesOf(t, db, sen)
	if len(cs) != 1 {
		t.Fatalf("%d changes, want 1", len(cs))
	}
	recs := siteRecords(t, cs[0])
	if len(recs) != 1 || recs[0].Op != "update" || recs[0].Page.URL != site.URL("/docs/b.html") {
		t.Fatalf("records %+v, want b.html changed alone", recs)
	}

	// The crawl stored as a Vigil that did not follow such URLs stored
	// it: the sitemap alone, a leaf.
	raw, _, err = db.SiteSnapshot(ctx, sen.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rec, err = decodeSite(raw); err != nil {
		t.Fatal(err)
	}
	start := rec.Snapshot.Pages[0]
	start.Note, start.Links, start.Importance = "", nil, 0
	// Its sitemap listed a page less then (its hash alone: the record
	// keeps no body).
	start.Hash = "sha256:" + strings.Repeat("0", 64)
	start.Version = start.Hash
	rec.Snapshot.Format, rec.Snapshot.Pages, rec.Snapshot.Sites = crawl.FormatV2, rec.Snapshot.Pages[:1], nil
	rec.Versions = map[string]int64{start.URL: rec.Versions[start.URL]}
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
	checkAnHourLater(t, m, db, sen, &now)
	cs = changesOf(t, db, sen)
	if len(cs) != 2 {
		t.Fatalf("%d changes, want 2", len(cs))
	}
	got := map[string]string{}
	for _, r := range siteRecords(t, cs[0]) {
		got[string(r.Op)+" "+r.Page.URL] = r.Page.Note
	}
	note := "reached through " + site.URL("/docs/sitemap.txt") + ", read as text, whose URLs the crawl before did not follow"
	// The sitemap changed, and is read as text as it was (a text page,
	// which a crawl of format 2 did not read): no note of its reading.
	want := map[string]string{"insert " + site.URL("/docs/a.html"): note, "insert " + site.URL("/docs/b.html"): note,
		"update " + site.URL("/docs/sitemap.txt"): ""}
	if !maps.Equal(got, want) {
		t.Errorf("records %q, want %q", got, want)
	}
}
