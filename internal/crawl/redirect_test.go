package crawl_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/vigil-web/vigil/internal/crawl"
)

// TestCrawlRedirectLimits: a redirect is held to the rules a link is. A
// page in scope that redirects to a path robots.txt disallows gives that
// page with the fetcher's refusal, never requested; one that redirects out
// of the scope (another site) gives the redirect alone: its target is
// neither fetched nor a page, and its links are not followed. Before,
// robots.txt and the scope were checked for the URL asked only: the
// disallowed page was fetched and recorded, and the other site's page and
// robots.txt were fetched.
func TestCrawlRedirectLimits(t *testing.T) {
	var mu sync.Mutex
	otherHits := map[string]int{}
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		otherHits[r.URL.Path]++
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<title>Other</title><a href="/more.html">more</a>`)
	}))
	defer other.Close()
	privateHits := 0
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "User-agent: *\nDisallow: /site/private/\n")
	})
	mux.HandleFunc("/site/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<title>Home</title><a href="hidden.html">Hidden</a> <a href="away.html">Away</a> <a href="moved.html">Moved</a>`)
	})
	mux.Handle("/site/hidden.html", http.RedirectHandler("/site/private/page.html", http.StatusFound))
	mux.Handle("/site/moved.html", http.RedirectHandler("/site/new.html", http.StatusMovedPermanently))
	mux.HandleFunc("/site/away.html", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/site/x.html", http.StatusFound)
	})
	mux.HandleFunc("/site/private/", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		privateHits++
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<title>Private</title>`)
	})
	mux.HandleFunc("/site/new.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<title>New</title>`)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	u := func(p string) string { return srv.URL + p }

	snap := crawlSite(t, loopbackFetcher(), crawl.NewQuery(u("/site/")))
	var got []string
	for _, p := range snap.Pages {
		got = append(got, p.URL)
	}
	if want := []string{u("/site/"), u("/site/private/page.html"), u("/site/new.html")}; !slices.Equal(got, want) {
		t.Errorf("pages %q, want %q", got, want)
	}
	if p := snap.Page(u("/site/private/page.html")); p == nil || p.Status != 0 || p.Title != "" ||
		!strings.Contains(p.Error, "redirect to "+u("/site/private/page.html")+": disallowed by robots.txt") {
		t.Errorf("the page the redirect to a disallowed path led to: %+v, want the robots.txt refusal", p)
	}
	wantRedirects := []crawl.Redirect{
		{From: u("/site/hidden.html"), To: u("/site/private/page.html")},
		{From: u("/site/away.html"), To: other.URL + "/site/x.html"},
		{From: u("/site/moved.html"), To: u("/site/new.html")},
	}
	if !slices.Equal(snap.Redirects, wantRedirects) {
		t.Errorf("redirects\n%v\nwant\n%v", snap.Redirects, wantRedirects)
	}
	mu.Lock()
	defer mu.Unlock()
	if privateHits != 0 || len(otherHits) != 0 {
		t.Errorf("requests to the disallowed path: %d; to the other site: %v; want none", privateHits, otherHits)
	}
}

// TestCrawlRedirectCredentials: a page in scope that redirects to a URL
// with credentials (http://user:pass@host/...) is recorded with the
// fetcher's refusal, and the credentials are in nothing the crawl
// records (the pages' URLs, their errors, the redirects) and never sent.
// The page at that URL without credentials is another page, read when a
// link leads to it: the refusal was recorded as its own, and a link to it
// found it recorded already, so that a working page was a failed one.
func TestCrawlRedirectCredentials(t *testing.T) {
	var mu sync.Mutex
	withAuth, newHits := 0, 0
	mux := http.NewServeMux()
	var srv *httptest.Server
	mux.HandleFunc("/site/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<title>Home</title><a href="moved.html">Moved</a> <a href="new.html">New</a>`)
	})
	mux.HandleFunc("/site/moved.html", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, strings.Replace(srv.URL, "://", "://user:s3cret@", 1)+"/site/new.html", http.StatusFound)
	})
	mux.HandleFunc("/site/new.html", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		newHits++
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<title>New</title>`)
	})
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "" {
			mu.Lock()
			withAuth++
			mu.Unlock()
		}
		mux.ServeHTTP(w, r)
	}))
	defer srv.Close()

	snap := crawlSite(t, loopbackFetcher(), crawl.NewQuery(srv.URL+"/site/"))
	if p := snap.Page(srv.URL + "/site/moved.html"); p == nil || p.Status != 0 ||
		!strings.Contains(p.Error, "redirect to "+srv.URL+"/site/new.html") || !strings.Contains(p.Error, "credentials") {
		t.Errorf("the page that redirects: %+v, want the refusal", p)
	}
	if p := snap.Page(srv.URL + "/site/new.html"); p == nil || p.Status != 200 || p.Title != "New" || p.Error != "" {
		t.Errorf("the page the link leads to: %+v, want it read", p)
	}
	recorded, err := json.Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(recorded), "s3cret") || strings.Contains(string(recorded), "user@") {
		t.Errorf("the snapshot holds the credentials:\n%s", recorded)
	}
	mu.Lock()
	defer mu.Unlock()
	if withAuth != 0 || newHits != 1 {
		t.Errorf("%d requests carried credentials, %d reached the page the redirect named; want none and the link's one", withAuth, newHits)
	}
}
