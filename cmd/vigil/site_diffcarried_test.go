package main

import (
	"encoding/json"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
)

// carriedSite is a site whose index links to a page about to fail for a
// moment (b.html, the only way to c.html) and to one about to go
// (gone.html).
func carriedSite(t *testing.T) *crawltest.Site {
	return crawltest.NewSite(t, crawltest.Release{
		"/docs/index.html": []byte(`<title>Docs</title><a href="a.html">A</a> <a href="b.html">B</a> <a href="gone.html">Gone</a>`),
		"/docs/a.html":     []byte(`<title>A</title>`),
		"/docs/b.html":     []byte(`<title>B</title><a href="c.html">C</a>`),
		"/docs/c.html":     []byte(`<title>C</title>`),
		"/docs/gone.html":  []byte(`<title>Gone</title>`),
	})
}

// TestSiteDiffCarried: a page down for a moment (503) in the new crawl is
// not removed but reported as failed, on a line of its own, its last
// version kept, and so is the page only it links to, which the crawl
// could not reach; only the page that answers 404 is removed. The JSON
// lists them under failed, not under deleted. A diff whose only news is
// pages failing exits 0: no page changed.
func TestSiteDiffCarried(t *testing.T) {
	site := carriedSite(t)
	dir := t.TempDir()
	first := siteCrawl(t, dir, "first.json", site.URL("/docs/"))
	site.Mu.Lock()
	site.Broken = map[string]int{"/docs/b.html": 503}
	site.Gone = map[string]bool{"/docs/gone.html": true}
	site.Mu.Unlock()
	second := siteCrawl(t, dir, "second.json", site.URL("/docs/"))

	code, out := siteDiff(t, first, second)
	if code != exitChanged {
		t.Errorf("exit %d, want %d (gone.html removed)", code, exitChanged)
	}
	b, c := site.URL("/docs/b.html"), site.URL("/docs/c.html")
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`(?m)^- removed  ` + regexp.QuoteMeta(site.URL("/docs/gone.html")) + ` "Gone"  via \./  \(now failing: HTTP 404\)$`),
		regexp.MustCompile(`(?m)^! failed   ` + regexp.QuoteMeta(b) + ` "B"  via \./  \(HTTP 503; last read \S+Z, that version kept\)$`),
		regexp.MustCompile(`(?m)^! failed   ` + regexp.QuoteMeta(c) + ` "C"  via \./ > b\.html  \(not read: linked only from ` + regexp.QuoteMeta(b) + `, which was not read; last read \S+Z, that version kept\)$`),
		regexp.MustCompile(`(?m)^total: 0 added, 1 removed, 0 changed, 2 failed, 2 unchanged \(5 pages read, then 2\)$`),
	} {
		if !want.MatchString(out) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}
	if strings.Contains(out, "removed  "+b) || strings.Contains(out, "removed  "+c) {
		t.Errorf("a page failing for a moment is removed:\n%s", out)
	}

	_, out = siteDiff(t, "--format", "json", first, second)
	var got struct {
		Deleted []string `json:"deleted"`
		Failed  map[string]struct {
			New      string `json:"new"`
			LastRead string `json:"lastRead"`
		} `json:"failed"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if strings.Join(got.Deleted, " ") != site.URL("/docs/gone.html") || got.Failed[b].New != "HTTP 503" || got.Failed[b].LastRead == "" ||
		!strings.HasPrefix(got.Failed[c].New, "not read") || len(got.Failed) != 3 {
		t.Errorf("deleted %q, failed %+v; want gone.html deleted, b.html and c.html failed, their last read told\n%s", got.Deleted, got.Failed, out)
	}

	// Only failures: nothing changed.
	site.Mu.Lock()
	site.Gone = nil
	site.Mu.Unlock()
	third := siteCrawl(t, dir, "third.json", site.URL("/docs/"))
	if code, out := siteDiff(t, first, third); code != exitOK || !strings.Contains(out, "total: 0 added, 0 removed, 0 changed, 2 failed, 3 unchanged") {
		t.Errorf("exit %d, want %d:\n%s", code, exitOK, out)
	}
}

// TestSiteCrawlPrevious: vigil site crawl --previous carries a page down
// for a moment over into the snapshot it writes, and follows its links
// (the page only it links to is read), so that the next diff, once it
// answers again, finds nothing added; the summary counts it. A previous
// snapshot of another crawl is refused before anything is fetched.
func TestSiteCrawlPrevious(t *testing.T) {
	site := carriedSite(t)
	dir := t.TempDir()
	first := siteCrawl(t, dir, "first.json", site.URL("/docs/"))
	site.Mu.Lock()
	site.Broken = map[string]int{"/docs/b.html": 500}
	site.Mu.Unlock()
	out := dir + "/second.json"
	code, _, stderr := runVigilEnv(t, allowPrivate, "site", "crawl", "--bodies", "--host-delay", "0", "--previous", first, "--out", out, site.URL("/docs/"))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, ": 5 pages (1 failed: 1 carried over from --previous, its last version kept), ") {
		t.Errorf("summary %q", stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := crawl.Decode(strings.NewReader(string(data)), 0)
	if err != nil {
		t.Fatal(err)
	}
	if p := snap.Page(site.URL("/docs/b.html")); p == nil || p.Carried == nil || p.Carried.Status != 500 {
		t.Errorf("b.html: %+v, want it carried over", p)
	}
	if p := snap.Page(site.URL("/docs/c.html")); p == nil || p.Carried != nil || p.Failed() {
		t.Errorf("c.html: %+v, want it read through b.html's last links", p)
	}
	site.Mu.Lock()
	site.Broken = nil
	site.Mu.Unlock()
	third := siteCrawl(t, dir, "third.json", site.URL("/docs/"), "--previous", out)
	if code, diff := siteDiff(t, out, third); code != exitOK || !strings.Contains(diff, "total: 0 added, 0 removed, 0 changed, 5 unchanged") {
		t.Errorf("b.html back: exit %d, want %d:\n%s", code, exitOK, diff)
	}

	code, _, stderr = runVigilEnv(t, allowPrivate, "site", "crawl", "--depth", "1", "--previous", first, site.URL("/docs/"))
	if code != exitError || !strings.Contains(stderr, "--previous "+first+": a snapshot of another crawl: query.maxDepth is 3 there, 1 here") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}
