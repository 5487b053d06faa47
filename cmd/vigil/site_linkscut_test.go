package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
)

// TestSiteLinksCut: a page with more links in scope than a snapshot keeps
// (crawl.MaxLinks) is named by vigil site crawl, and by vigil site diff on
// its change; a page no longer reached in a crawl that cut a page's links
// may be linked past the cut, which site diff says: the cut was silent,
// and the page "no longer reached", its link the 10 001st.
func TestSiteLinksCut(t *testing.T) {
	page := func(title, links string) []byte {
		return []byte(`<html><head><title>` + title + `</title></head><body>` + links + `</body></html>`)
	}
	var many strings.Builder
	for i := range crawl.MaxLinks {
		fmt.Fprintf(&many, `<a href="f.html">%d</a>`, i)
	}
	p := `<a href="p.html">P</a>`
	release := func(index string) crawltest.Release {
		return crawltest.Release{"/docs/index.html": page("Docs", index), "/docs/p.html": page("P", ``), "/docs/f.html": page("F", ``)}
	}
	s := crawltest.NewSite(t, release(p+many.String()))
	dir := t.TempDir()
	before := filepath.Join(dir, "before.json")
	code, _, stderr := runVigilEnv(t, allowPrivate, "site", "crawl", "--host-delay", "0", "--out", before, s.URL("/docs/"))
	cut := fmt.Sprintf("more than %d links in scope: the first %d kept and followed, the others not", crawl.MaxLinks, crawl.MaxLinks)
	if want := "vigil site crawl: note: " + s.URL("/docs/") + ": " + cut + "\n"; code != exitOK || !strings.Contains(stderr, want) {
		t.Errorf("vigil site crawl: exit %d, want 0 and %q in:\n%s", code, want, stderr)
	}
	s.Set(release(many.String()+p), nil)
	after := siteCrawl(t, dir, "after.json", s.URL("/docs/"))
	code, out := siteDiff(t, before, after)
	for _, want := range []string{
		"- removed  " + s.URL("/docs/p.html") + ` "P"`,
		"(no longer reached among the links kept; perhaps linked past the first 10000 of " + s.URL("/docs/") + ")",
		"~ changed  " + s.URL("/docs/") + ` "Docs"`,
		"; " + cut + ")",
	} {
		if code != exitChanged || !strings.Contains(out, want) {
			t.Errorf("vigil site diff: exit %d, want 1 and %q in:\n%s", code, want, out)
		}
	}
	// The JSON says it too: a program reading it was told of neither.
	code, out = siteDiff(t, "--format", "json", before, after)
	var d struct {
		LinksNote map[string]string `json:"linksNote"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if got := d.LinksNote[s.URL("/docs/")]; code != exitChanged || got != cut || len(d.LinksNote) != 1 {
		t.Errorf("vigil site diff --format json: exit %d, linksNote %q, want 1 and {%s: %q}", code, d.LinksNote, s.URL("/docs/"), cut)
	}
}
