package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/crawl"
)

// TestSiteCrawlBlocked: the pages robots.txt disallows are listed in the
// snapshot as blocked, the summary says how many of the failures they are,
// and they take no part of --max-pages: the three pages allowed are read
// with --max-pages 3, though the start page links to two disallowed pages
// first.
func TestSiteCrawlBlocked(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, "User-agent: *\nDisallow: /docs/private/\n")
			return
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<title>`+r.URL.Path+`</title>`)
		if r.URL.Path == "/docs/" {
			io.WriteString(w, `<a href="private/x.html">X</a> <a href="private/y.html">Y</a> <a href="a.html">A</a> <a href="b.html">B</a>`)
		}
	}))
	defer srv.Close()
	code, stdout, stderr := runVigilEnv(t, allowPrivate, "site", "crawl", "--host-delay", "0", "--order", "breadth", "--max-pages", "3", srv.URL+"/docs/")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	snap, err := crawl.Decode(strings.NewReader(stdout), 0)
	if err != nil {
		t.Fatal(err)
	}
	var read, blocked []string
	for _, p := range snap.Pages {
		if p.Blocked {
			blocked = append(blocked, strings.TrimPrefix(p.URL, srv.URL))
		} else if !p.Failed() {
			read = append(read, strings.TrimPrefix(p.URL, srv.URL))
		}
	}
	if strings.Join(read, " ") != "/docs/ /docs/a.html /docs/b.html" || strings.Join(blocked, " ") != "/docs/private/x.html /docs/private/y.html" || snap.Truncated {
		t.Errorf("read %v, blocked %v, truncated %v", read, blocked, snap.Truncated)
	}
	if !regexp.MustCompile(`: 5 pages \(2 failed: 2 blocked by robots\.txt, not fetched\), `).MatchString(stderr) {
		t.Errorf("summary %q", stderr)
	}
}
