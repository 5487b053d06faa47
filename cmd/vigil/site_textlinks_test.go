package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/crawl"
)

// textSitemap is a text sitemap of the site at base, under /docs/: two
// pages in scope, one out of it, and one on a host DNS refuses.
func textSitemap(base string) string {
	return base + "/docs/a.html\n" + base + "/docs/b.html\n" + base + "/other/x.html\nhttp://a..example/docs/c.html\n"
}

// TestSiteDiffTextLinks: a site whose start page is a text sitemap
// (text/plain, one URL a line) is crawled through it: vigil site crawl
// reads the pages it lists in scope, and neither the one out of the scope
// nor the one on a host DNS refuses; vigil site diff tells the one that
// changes, reached through the sitemap. The crawl was the sitemap alone.
// Against a snapshot of format 2, whose crawl did not follow the URLs of
// a page read as text, the pages reached through them say so.
func TestSiteDiffTextLinks(t *testing.T) {
	site := newSite(t)
	base := site.srv.URL
	site.setTyped("/docs/sitemap.txt", "text/plain; charset=utf-8", textSitemap(base))
	site.set("/docs/a.html", "<title>A</title><p>Alpha</p>")
	site.set("/docs/b.html", "<title>B</title><p>Beta</p>")
	site.set("/other/x.html", "<title>X</title>")
	dir := t.TempDir()
	before := siteCrawl(t, dir, "before.json", base+"/docs/sitemap.txt")
	snap := decodeSnapshot(t, before)
	var pages []string
	for _, p := range snap.Pages {
		pages = append(pages, strings.TrimPrefix(p.URL, base))
	}
	if want := []string{"/docs/sitemap.txt", "/docs/a.html", "/docs/b.html"}; !slices.Equal(pages, want) {
		t.Fatalf("pages %q, want %q", pages, want)
	}
	if start := snap.Pages[0]; start.Note != crawl.NoteReadAsText+"served as text/plain" || len(start.Links) != 2 {
		t.Errorf("start page %+v: want read as text, with two links", start)
	}

	site.set("/docs/b.html", "<title>B</title><p>Beta, edited</p>")
	site.set("/other/x.html", "<title>X</title><p>edited</p>")
	after := siteCrawl(t, dir, "after.json", base+"/docs/sitemap.txt")
	code, out := siteDiff(t, before, after)
	lines := summaryLines(out)
	b := base + "/docs/b.html"
	if want := `~ changed  ` + b + ` "B"  via sitemap.txt  (importance `; code != exitChanged || !strings.HasPrefix(lines[b], want) || len(lines) != 1 {
		t.Errorf("exit %d, lines %q; want %q... alone", code, lines, want)
	}
	if !strings.HasPrefix(lastLine(out), "total: 0 added, 0 removed, 1 changed, 2 unchanged (3 pages read, then 3)") {
		t.Errorf("total %q", lastLine(out))
	}
	_, out = siteDiff(t, "--format", "json", before, after)
	var got struct {
		Modified []string               `json:"modified"`
		Reading  map[string]siteReading `json:"reading"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Modified, []string{b}) || got.Reading[b] != (siteReading{Old: "page", New: "page"}) {
		t.Errorf("JSON: modified %q, reading %+v", got.Modified, got.Reading)
	}

	// The same site crawled before the crawl followed such URLs: the
	// sitemap alone, a leaf without a note.
	old := snap
	old.Format, old.Pages, old.Sites = crawl.FormatV2, old.Pages[:1], nil
	old.Pages[0].Note, old.Pages[0].Links, old.Pages[0].Importance = "", nil, 0
	// Its sitemap listed a page less then.
	sitemap := old.Pages[0]
	sitemap.Body = base + "/docs/a.html\n"
	sum := sha256.Sum256([]byte(sitemap.Body))
	sitemap.Hash, sitemap.Size = "sha256:"+hex.EncodeToString(sum[:]), int64(len(sitemap.Body))
	sitemap.Version = sitemap.Hash
	var buf bytes.Buffer
	if err := old.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	v2 := filepath.Join(dir, "v2.json")
	if err := os.WriteFile(v2, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out = siteDiff(t, v2, after)
	lines = summaryLines(out)
	a := base + "/docs/a.html"
	for _, u := range []string{a, b} {
		want := "(reached through sitemap.txt, read as text, whose URLs a crawl of format " + crawl.FormatV2 + " did not follow)"
		if !strings.HasPrefix(lines[u], "+ added    "+u) || !strings.HasSuffix(lines[u], want) {
			t.Errorf("line of %s: %q, want it added, %q", u, lines[u], want)
		}
	}
	// The sitemap changed, and is read as text as it was: a text page
	// that a crawl of format 2 did not read.
	if line := lines[base+"/docs/sitemap.txt"]; !strings.HasPrefix(line, "~ changed  "+base+"/docs/sitemap.txt  (start page)") || strings.Contains(line, "read as text") {
		t.Errorf("line of the sitemap %q, want it changed, without a note of its reading", line)
	}
	if code != exitChanged || len(lines) != 3 {
		t.Errorf("exit %d, lines %q", code, lines)
	}
	// So does --format json: the sitemap's reading did not change, and it
	// was read as text, as the warehouse read it, in both.
	_, out = siteDiff(t, "--format", "json", v2, after)
	var gotV2 struct {
		ReadAsText map[string]siteReadAsText `json:"readAsText"`
		Reading    map[string]siteReading    `json:"reading"`
	}
	if err := json.Unmarshal([]byte(out), &gotV2); err != nil {
		t.Fatal(err)
	}
	u := base + "/docs/sitemap.txt"
	if r := gotV2.Reading[u]; r != (siteReading{Old: "text", New: "text"}) {
		t.Errorf("JSON reading of the sitemap %+v, want text in both", r)
	}
	if r := gotV2.ReadAsText[u]; r != (siteReadAsText{Old: "served as text/plain", New: "served as text/plain"}) {
		t.Errorf("JSON readAsText of the sitemap %+v, want served as text/plain in both", r)
	}
}
