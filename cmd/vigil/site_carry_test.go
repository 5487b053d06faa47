package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/crawl"
)

// carrySite serves /docs/: the index links to a.html and b.html, a.html
// alone to deep.html; a.html answers *status when it is not 0. hits, if
// not nil, counts the requests.
func carrySite(t *testing.T, status, hits *atomic.Int32) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hits != nil {
			hits.Add(1)
		}
		pages := map[string]string{
			"/docs/":          `<title>Docs</title><a href="a.html">A</a> <a href="b.html">B</a>`,
			"/docs/a.html":    `<title>A</title><a href="deep.html">Deep</a>`,
			"/docs/b.html":    `<title>B</title>`,
			"/docs/deep.html": `<title>Deep</title>`,
		}
		body, ok := pages[r.URL.Path]
		switch {
		case !ok:
			http.NotFound(w, r)
		case r.URL.Path == "/docs/a.html" && status.Load() != 0:
			http.Error(w, "not now", int(status.Load()))
		default:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(body))
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestSiteCrawlPrevious: vigil site crawl --previous keeps a page that
// answers 503 from the previous snapshot, with the page reached only
// through it, in a snapshot vigil site diff reads: no page removed, the
// one that failed said "failed (kept from the last crawl)", the other
// not fetched, each counted once in the total, in the text and in the
// JSON, and the crawl's summary counts the failure; read again at the next crawl, nothing is added. A page
// gone (404) is removed at once.
func TestSiteCrawlPrevious(t *testing.T) {
	var status atomic.Int32
	srv := carrySite(t, &status, nil)
	start := srv.URL + "/docs/"
	dir := t.TempDir()
	first := siteCrawl(t, dir, "first.json", start)
	status.Store(503)
	second := filepath.Join(dir, "second.json")
	code, _, stderr := runVigilEnv(t, allowPrivate, "site", "crawl", "--bodies", "--host-delay", "0", "--out", second, "--previous", first, start)
	if want := "4 pages (1 failed: 1 kept from --previous; 1 not fetched, kept from --previous (linked only from kept pages))"; code != exitOK || !strings.Contains(stderr, want) {
		t.Errorf("site crawl --previous: exit %d, stderr %q, want %q", code, stderr, want)
	}

	code, out := siteDiff(t, first, second)
	for _, want := range []string{
		"! failed   " + srv.URL + `/docs/a.html "A"  via ./  (kept from the last crawl: HTTP 503; last read `,
		"! kept     " + srv.URL + `/docs/deep.html "Deep"  via ./ > a.html  (not fetched, linked only from kept pages; last read `,
		"total: 0 added, 0 removed, 0 changed, 2 unchanged, 1 failed and 1 not fetched (kept from the last crawl) (4 pages read, then 4)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("site diff lacks %q:\n%s", want, out)
		}
	}
	if code != exitOK || strings.Contains(out, "removed  ") {
		t.Errorf("exit %d, want %d (no change):\n%s", code, exitOK, out)
	}
	_, js := siteDiff(t, "--format", "json", first, second)
	var got struct {
		Carried map[string]struct {
			Failure string `json:"failure"`
			Crawls  int    `json:"crawls"`
		} `json:"carried"`
	}
	if err := json.Unmarshal([]byte(js), &got); err != nil {
		t.Fatal(err)
	}
	if c := got.Carried[srv.URL+"/docs/a.html"]; c.Failure != "HTTP 503" || c.Crawls != 1 || len(got.Carried) != 2 {
		t.Errorf("JSON carried %+v", got.Carried)
	}

	status.Store(0)
	third := siteCrawl(t, dir, "third.json", start, "--previous", second)
	if code, out := siteDiff(t, second, third); code != exitOK || strings.Contains(out, "+ added") || strings.Contains(out, "! failed") {
		t.Errorf("read again: exit %d\n%s", code, out)
	}

	status.Store(404)
	gone := siteCrawl(t, dir, "gone.json", start, "--previous", third)
	_, out = siteDiff(t, third, gone)
	for _, want := range []string{"- removed  " + srv.URL + `/docs/a.html "A"  via ./  (now failing: HTTP 404)`, "- removed  " + srv.URL + "/docs/deep.html"} {
		if !strings.Contains(out, want) {
			t.Errorf("404: site diff lacks %q:\n%s", want, out)
		}
	}
}

// TestSiteCrawlPreviousQuery: --previous refuses a snapshot of another
// query, and a file that is no snapshot, before it crawls (the site gets
// no request), and writes nothing.
func TestSiteCrawlPreviousQuery(t *testing.T) {
	var status, hits atomic.Int32
	srv := carrySite(t, &status, &hits)
	dir := t.TempDir()
	first := siteCrawl(t, dir, "first.json", srv.URL+"/docs/", "--depth", "1")
	junk := filepath.Join(dir, "junk.json")
	os.WriteFile(junk, []byte(`{}`), 0o644)
	for _, tc := range []struct {
		previous string
		flags    []string
		want     string
	}{
		{first, nil, "--previous: " + first + " and this crawl are snapshots of different queries: query.maxDepth"},
		{first, []string{"--depth", "1", "--max-pages", "7"}, "--previous: " + first + " and this crawl are snapshots of different queries: query.maxPages"},
		{first, []string{"--depth", "1", "--match", "a"}, "--previous: " + first + " and this crawl are snapshots of different queries: query.match"},
		{first, []string{"--depth", "1", "--scope", srv.URL + "/"}, "--previous: " + first + " and this crawl are snapshots of different queries: query.scope"},
		{junk, nil, "--previous: " + junk + ": snapshot: format"},
	} {
		out := filepath.Join(dir, "out.json")
		hits.Store(0)
		args := append([]string{"site", "crawl", "--host-delay", "0", "--previous", tc.previous, "--out", out}, tc.flags...)
		code, _, stderr := runVigilEnv(t, allowPrivate, append(args, srv.URL+"/docs/")...)
		if code != exitError || !strings.Contains(stderr, tc.want) {
			t.Errorf("--previous %s %q: exit %d, stderr %q, want %q", filepath.Base(tc.previous), tc.flags, code, stderr, tc.want)
		}
		if n := hits.Load(); n != 0 {
			t.Errorf("--previous %s %q: %d requests, want none", filepath.Base(tc.previous), tc.flags, n)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("--previous %s: a snapshot written", filepath.Base(tc.previous))
		}
	}
}

// TestSiteDiffFormatV3: a snapshot of format 3 (testdata/site-v3.json,
// written before pages were carried over) still reads, against one of
// the format written now.
func TestSiteDiffFormatV3(t *testing.T) {
	dir := t.TempDir()
	b, err := os.ReadFile("testdata/site-v3.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := crawl.Decode(strings.NewReader(string(b)), 0)
	if err != nil {
		t.Fatal(err)
	}
	s.Format = crawl.Format
	v4 := filepath.Join(dir, "v4.json")
	f, err := os.Create(v4)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Encode(f); err != nil {
		t.Fatal(err)
	}
	f.Close()
	code, out := siteDiff(t, "testdata/site-v3.json", v4)
	if code != exitOK || !strings.Contains(out, "total: 0 added, 0 removed, 0 changed, 3 unchanged") {
		t.Errorf("format 3 against format 4: exit %d\n%s", code, out)
	}
}

// TestSiteDiffCarriedThenFailing: a page kept from the last crawl, then
// gone (404), is removed "now failing: HTTP 404", as a page gone at once
// is; one still failing for a moment past the bounds of keeping it is
// removed "now failing: HTTP 503, failing 4 crawls in a row since" the
// first of them, "last read" when it was.
func TestSiteDiffCarriedThenFailing(t *testing.T) {
	var status atomic.Int32
	srv := carrySite(t, &status, nil)
	start := srv.URL + "/docs/"
	dir := t.TempDir()
	first := siteCrawl(t, dir, "first.json", start)
	status.Store(503)
	prev := siteCrawl(t, dir, "kept1.json", start, "--previous", first)
	status.Store(404)
	gone := siteCrawl(t, dir, "gone.json", start, "--previous", prev)
	_, out := siteDiff(t, prev, gone)
	if want := "- removed  " + srv.URL + `/docs/a.html "A"  via ./  (now failing: HTTP 404)` + "\n"; !strings.Contains(out, want) {
		t.Errorf("404 after 503: site diff lacks %q:\n%s", want, out)
	}

	status.Store(503)
	for i := 2; i <= crawl.MaxCarriedCrawls; i++ {
		prev = siteCrawl(t, dir, "kept"+strconv.Itoa(i)+".json", start, "--previous", prev)
	}
	b, err := os.ReadFile(prev)
	if err != nil {
		t.Fatal(err)
	}
	s, err := crawl.Decode(bytes.NewReader(b), 0)
	if err != nil {
		t.Fatal(err)
	}
	c := s.Page(srv.URL + "/docs/a.html").Carried
	if c == nil || c.Crawls != crawl.MaxCarriedCrawls {
		t.Fatalf("a.html kept %+v", c)
	}
	failing := siteCrawl(t, dir, "failing.json", start, "--previous", prev)
	_, out = siteDiff(t, prev, failing)
	want := fmt.Sprintf(`/docs/a.html "A"  via ./  (now failing: HTTP 503, failing %d crawls in a row since %s, last read %s)`,
		crawl.MaxCarriedCrawls+1, c.Since.UTC().Format(time.RFC3339), c.Read.UTC().Format(time.RFC3339))
	if !strings.Contains(out, want) {
		t.Errorf("503 past the bounds: site diff lacks %q:\n%s", want, out)
	}
}

// TestSiteCrawlPreviousBodies: --previous OLD crawled without --bodies,
// for a crawl with --bodies, can keep no page (OLD has not the body each
// would need): vigil site crawl says so on standard error, and the page
// failing is in the snapshot failing.
func TestSiteCrawlPreviousBodies(t *testing.T) {
	var status atomic.Int32
	srv := carrySite(t, &status, nil)
	start := srv.URL + "/docs/"
	dir := t.TempDir()
	first := filepath.Join(dir, "first.json")
	if code, _, stderr := runVigilEnv(t, allowPrivate, "site", "crawl", "--host-delay", "0", "--out", first, start); code != exitOK {
		t.Fatalf("first crawl: exit %d: %s", code, stderr)
	}
	status.Store(503)
	second := filepath.Join(dir, "second.json")
	code, _, stderr := runVigilEnv(t, allowPrivate, "site", "crawl", "--bodies", "--host-delay", "0", "--out", second, "--previous", first, start)
	want := "vigil site crawl: warning: --previous " + first + " was crawled without --bodies: no page failing for a moment is kept from it in a crawl with --bodies"
	if code != exitOK || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stderr %q, want %q", code, stderr, want)
	}
	// Without --bodies, it keeps pages, and says nothing.
	third := filepath.Join(dir, "third.json")
	code, _, stderr = runVigilEnv(t, allowPrivate, "site", "crawl", "--host-delay", "0", "--out", third, "--previous", first, start)
	if code != exitOK || strings.Contains(stderr, "warning") || !strings.Contains(stderr, "1 kept from --previous") {
		t.Errorf("without --bodies: exit %d, stderr %q", code, stderr)
	}
}
