package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/crawl"
)

// TestSiteCrawlFailedImportance: the pages of a crawl that failed (404,
// 503) or that robots.txt blocked have no importance, though every page
// read links to the 404: the most important page of the snapshot is a
// page read, the one the summary names. A site diff of a snapshot made
// when failed pages had an importance (their share taken from the pages
// read) and one made now, of the same site, tells no change, and names
// no importance.
func TestSiteCrawlFailedImportance(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		missing := `<a href="missing.html">Missing</a>`
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "User-agent: *\nDisallow: /docs/private/\n")
			return
		case "/docs/down.html":
			http.Error(w, "down for a moment", http.StatusServiceUnavailable)
			return
		case "/docs/":
			missing += `<a href="a.html">A</a> <a href="b.html">B</a> <a href="down.html">Down</a> <a href="private/x.html">X</a>`
		case "/docs/a.html":
			missing += `<a href="b.html">B</a> <a href="private/x.html">X</a>`
		case "/docs/b.html":
		default:
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<title>`+r.URL.Path+`</title>`+missing)
	}))
	defer srv.Close()
	dir := t.TempDir()
	out := filepath.Join(dir, "new.json")
	code, _, stderr := runVigilEnv(t, allowPrivate, "site", "crawl", "--host-delay", "0", "--out", out, srv.URL+"/docs/")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	snap := decodeSnapshot(t, out)
	var top *crawl.Page
	failed := 0
	for _, p := range snap.Pages {
		if p.Failed() {
			failed++
			if p.Importance != 0 {
				t.Errorf("%s failed (%s), importance %v", p.URL, p.Failure(), p.Importance)
			}
		}
		if top == nil || p.Importance > top.Importance {
			top = p
		}
	}
	if failed != 3 || top.Failed() {
		t.Fatalf("%d pages failed, the most important %s (error %q); want 3, and a page read", failed, top.URL, top.Error)
	}
	want := "; most important: " + strings.TrimPrefix(top.URL, srv.URL+"/docs/") + " (" + percent(top.Importance) + ")"
	if !strings.Contains(stderr, want) {
		t.Errorf("summary %q, want %q", stderr, want)
	}

	// The same crawl as a Vigil made it before: the failed pages share
	// the importance with the pages read.
	old := decodeSnapshot(t, out)
	for _, p := range old.Pages {
		if p.Failed() {
			p.Importance = 0.1
		} else {
			p.Importance *= 0.7
		}
	}
	old.Sites[0].Pages = len(old.Pages)
	var b bytes.Buffer
	if err := old.Encode(&b); err != nil {
		t.Fatal(err)
	}
	oldName := filepath.Join(dir, "old.json")
	if err := os.WriteFile(oldName, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	decodeSnapshot(t, oldName)
	code, sum := siteDiff(t, oldName, out)
	if code != exitOK || !regexp.MustCompile(`^total: 0 added, 0 removed, 0 changed, 3 unchanged \(3 pages read, then 3\)\n$`).MatchString(sum) {
		t.Errorf("exit %d:\n%s", code, sum)
	}
	_, js := siteDiff(t, "--format", "json", oldName, out)
	var got map[string]json.RawMessage
	if err := json.Unmarshal([]byte(js), &got); err != nil {
		t.Fatal(err)
	}
	if imp, ok := got["importance"]; ok {
		t.Errorf("JSON names importances %s", imp)
	}
}
