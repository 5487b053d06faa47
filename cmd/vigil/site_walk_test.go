package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

// TestSiteCrawlMostImportantRead: the summary names the most important
// page read, never a page that failed or that robots.txt blocked, which
// the crawl did not read: a start page linking to two disallowed pages
// named one of them.
func TestSiteCrawlMostImportantRead(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "User-agent: *\nDisallow: /docs/private/\n")
		case "/docs/":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<title>Docs</title><a href="private/x.html">X</a> <a href="private/y.html">Y</a> <a href="gone.html">Gone</a> <a href="a.html">A</a>`)
		case "/docs/a.html":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<title>A</title>`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	code, _, stderr := runVigilEnv(t, allowPrivate, "site", "crawl", "--host-delay", "0", srv.URL+"/docs/")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !regexp.MustCompile(`; most important: (\./|a\.html) \(\d+\.\d\d%\)\n$`).MatchString(stderr) {
		t.Errorf("summary %q: the most important page is not one read", stderr)
	}
}

// TestSiteUnknownCommand: an unknown command of the site group points to
// the group's own list, which has it, not to vigil help's.
func TestSiteUnknownCommand(t *testing.T) {
	code, stdout, stderr := runVigilEnv(t, nil, "site", "craw", "https://example.org/")
	if code != exitError || stdout != "" || !strings.Contains(stderr, `vigil: unknown command "site craw"; run 'vigil site --help' for the list`) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}
