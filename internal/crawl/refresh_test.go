package crawl_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	"github.com/vigil-web/vigil/internal/crawl"
)

// TestCrawlMetaRefresh: a page whose meta refresh leads to another page is
// a redirect, as an HTTP one is: the crawl records the page it leads to,
// and the redirect, not the page that carries the refresh; a refresh out
// of the scope is a redirect only, its target not fetched; a refresh of
// the page itself is no redirect. Before, the page with the refresh was a
// page of the site, and the page it led to was not reached.
func TestCrawlMetaRefresh(t *testing.T) {
	var mu sync.Mutex
	hits := map[string]int{}
	pages := map[string]string{
		"/site/":           `<title>Home</title><a href="old.html">Old</a> <a href="away.html">Away</a> <a href="self.html">Self</a>`,
		"/site/old.html":   `<head><meta http-equiv="refresh" content="0; URL='new.html'"></head><body>Moved</body>`,
		"/site/new.html":   `<title>New</title>`,
		"/site/away.html":  `<meta http-equiv="refresh" content="0;url=/other/page.html">`,
		"/site/self.html":  `<title>Self</title><meta http-equiv="refresh" content="0;url=self.html">`,
		"/other/page.html": `<title>Other</title>`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits[r.URL.Path]++
		mu.Unlock()
		body, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, body)
	}))
	defer srv.Close()
	u := func(p string) string { return srv.URL + p }

	snap := crawlSite(t, loopbackFetcher(), crawl.NewQuery(u("/site/")))
	var got []string
	for _, p := range snap.Pages {
		got = append(got, p.URL)
	}
	if want := []string{u("/site/"), u("/site/new.html"), u("/site/self.html")}; !slices.Equal(got, want) {
		t.Errorf("pages %q, want %q", got, want)
	}
	if p := snap.Page(u("/site/new.html")); p == nil || p.Title != "New" {
		t.Errorf("the page the refresh led to: %+v, want New", p)
	}
	wantRedirects := []crawl.Redirect{
		{From: u("/site/old.html"), To: u("/site/new.html")},
		{From: u("/site/away.html"), To: u("/other/page.html")},
	}
	if !slices.Equal(snap.Redirects, wantRedirects) {
		t.Errorf("redirects %+v, want %+v", snap.Redirects, wantRedirects)
	}
	var targets []string
	for _, l := range snap.Page(u("/site/")).Links {
		targets = append(targets, l.Target)
	}
	if want := []string{u("/site/new.html"), u("/site/away.html"), u("/site/self.html")}; !slices.Equal(targets, want) {
		t.Errorf("the home page links to %q, want %q (the refresh resolved)", targets, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if hits["/other/page.html"] != 0 || hits["/site/self.html"] != 1 {
		t.Errorf("requests %v: want the page out of scope never asked, the page refreshing itself once", hits)
	}
}

// TestCrawlQueryPercent: links whose queries spell an unreserved
// character percent-encoded ("%7e", "%7E") or not ("~") are one page,
// fetched once; a reserved character encoded ("%26") is another page.
// Before, each spelling was a page of its own.
func TestCrawlQueryPercent(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/site/" {
			io.WriteString(w, `<a href="p?a=%7e">1</a> <a href="p?a=%7E">2</a> <a href="p?a=~">3</a> <a href="p?a=%26">4</a> <a href="p?a=%7e%2f">5</a>`)
			return
		}
		if r.URL.Path == "/site/p" {
			mu.Lock()
			asked = append(asked, r.URL.RawQuery)
			mu.Unlock()
		}
		io.WriteString(w, `<title>`+r.URL.Query().Get("a")+`</title>`)
	}))
	defer srv.Close()
	u := func(p string) string { return srv.URL + p }

	q := crawl.NewQuery(u("/site/"))
	q.Workers = 1
	snap := crawlSite(t, loopbackFetcher(), q)
	var got []string
	for _, p := range snap.Pages {
		got = append(got, p.URL)
	}
	if want := []string{u("/site/"), u("/site/p?a=~"), u("/site/p?a=%26"), u("/site/p?a=~%2F")}; !slices.Equal(got, want) {
		t.Errorf("pages %q, want %q", got, want)
	}
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(asked)
	if want := []string{"a=%26", "a=~", "a=~%2F"}; !slices.Equal(asked, want) {
		t.Errorf("queries asked %q, want %q", asked, want)
	}
}
