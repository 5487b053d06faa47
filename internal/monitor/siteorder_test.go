package monitor

import (
	"context"
	"testing"
	"time"

	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/spec"
)

// hubRelease is a site whose every page links hub.html, its most
// important page, and whose pages a.html and hub.html say what text says.
func hubRelease(text string) crawltest.Release {
	page := func(title, body string) []byte {
		return []byte(`<html><head><title>` + title + `</title></head><body><p>` + body + `</p><a href="hub.html">Hub</a></body></html>`)
	}
	return crawltest.Release{
		"/docs/index.html": []byte(`<html><head><title>Docs</title></head><body><a href="a.html">A</a> <a href="b.html">B</a> <a href="c.html">C</a> <a href="hub.html">Hub</a></body></html>`),
		"/docs/a.html":     page("A", "A says "+text),
		"/docs/b.html":     page("B", "B"),
		"/docs/c.html":     page("C", "C"),
		"/docs/hub.html":   []byte(`<html><head><title>Hub</title></head><body><p>Hub says ` + text + `</p><a href="index.html">Home</a></body></html>`),
	}
}

// TestSiteChangedByImportance: a site sentinel's change lists its pages
// changed the most important first, as vigil site diff does, so that a
// message, which shows the first 50, leads with the changes that matter
// most: here the hub every page links to before a.html, which only the
// start page links to, whatever their URLs' order.
func TestSiteChangedByImportance(t *testing.T) {
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, hubRelease("one"))
	now := time.Now().UTC()
	sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", "Create Sentinel docs Using site "+site.URL("/docs/")+" Notify By webhook https://hooks.example.test/x Every immediate")
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	runOnce(t, m, 1)

	site.Set(hubRelease("two"), nil)
	checkAnHourLater(t, m, db, sen, &now)
	cs := changesOf(t, db, sen)
	if len(cs) != 1 {
		t.Fatalf("%d changes, want 1", len(cs))
	}
	raw, _, err := db.SiteSnapshot(context.Background(), sen.ID)
	if err != nil {
		t.Fatal(err)
	}
	cur, err := decodeSite(raw)
	if err != nil {
		t.Fatal(err)
	}
	importance := map[string]float64{}
	for _, p := range cur.Snapshot.Pages {
		importance[p.URL] = p.Importance
	}
	if a, hub := importance[site.URL("/docs/a.html")], importance[site.URL("/docs/hub.html")]; hub <= a {
		t.Fatalf("importance of hub.html %v, of a.html %v: the site does not test the order", hub, a)
	}
	var changed []string
	for _, r := range siteRecords(t, cs[0]) {
		if r.Op == intent.Update {
			changed = append(changed, r.Page.URL)
		}
	}
	want := []string{site.URL("/docs/hub.html"), site.URL("/docs/a.html")}
	if len(changed) != len(want) || changed[0] != want[0] || changed[1] != want[1] {
		t.Errorf("pages changed in the order %q, want %q (the most important first)", changed, want)
	}
}
