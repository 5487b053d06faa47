package crawl_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/fetch"
)

// loopbackFetcher is the daemon's fetcher, allowed to reach the test's
// server on loopback, with no delay between requests.
func loopbackFetcher() vigil.Fetcher {
	return fetch.New(fetch.Options{AllowPrivateNetworks: true, HostConcurrency: 4, TotalTimeout: 30 * time.Second})
}

func crawlSite(t testing.TB, f vigil.Fetcher, q crawl.Query) *crawl.Snapshot {
	t.Helper()
	snap, err := crawl.Crawl(context.Background(), f, q)
	if err != nil {
		t.Fatalf("Crawl(%s): %v", q.Start, err)
	}
	if err := snap.Validate(); err != nil {
		t.Fatalf("Crawl(%s) gave a snapshot that does not validate: %v", q.Start, err)
	}
	return snap
}

// pagePaths returns the URLs of snap's pages in the order of discovery,
// without the prefix srvURL (the test server's), reporting each page that
// failed.
func pagePaths(t testing.TB, snap *crawl.Snapshot, srvURL string) []string {
	t.Helper()
	var got []string
	for _, p := range snap.Pages {
		if p.Failed() {
			t.Errorf("%s: %s", p.URL, p.Error)
		}
		got = append(got, strings.TrimPrefix(p.URL, srvURL))
	}
	return got
}

func hashOf(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// png is the start of a PNG image: binary, so the fetcher does not return
// it.
var png = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89")

var imgDate = time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)

// smallSite serves a site under /site/ with one page of each kind the
// crawler meets, and a page out of the scope.
func smallSite(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	page := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(body))
		}
	}
	mux.HandleFunc("/site/{$}", page(`<!doctype html><title> Home
		page </title>
		<a href="a.html">A</a> <a href="a.html#part">A, part</a> <a href="A.html">not a</a>
		<a href="b.html">B</a> <a href="notes.txt">Notes</a> <a href="img.png">Image</a>
		<a href="missing.html">Missing</a> <a href="error.html">Error</a> <a href="slow.html">Slow</a>
		<a href="old.html">Old</a> <a href="away.html">Away</a> <a href="/elsewhere/x.html">Elsewhere</a>
		<a href="mailto:me@example.org">Mail</a> <a href="http://127.0.0.1:1/closed.html">Closed</a>
		<a href="#top">Top</a> <a href="./">Home</a>`))
	mux.HandleFunc("/site/a.html", page(`<title>A</title><a href="/site/">Home</a> <a href="a.html#x">Here</a> <a href="%2e/deep/../b.html">B <b>again</b></a>`))
	mux.HandleFunc("/site/b.html", page(`<html><head><base href="/site/sub/"><title>B</title></head>
		<body><a href="c.html">C</a><iframe src="frame.html" title="The  frame"></iframe></body></html>`))
	mux.HandleFunc("/site/sub/c.html", page(`<title>C</title><a href="../a.html">A</a>`))
	mux.HandleFunc("/site/sub/frame.html", page(`<title>Frame</title>`))
	mux.HandleFunc("/site/notes.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("notes: <a href=\"a.html\">a link, as a links sentinel reads it</a>\n"))
	})
	mux.HandleFunc("/site/img.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Header().Set("Last-Modified", imgDate.Format(http.TimeFormat))
		w.Write(png)
	})
	mux.HandleFunc("/site/error.html", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "broken", http.StatusInternalServerError)
	})
	mux.HandleFunc("/site/slow.html", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(5 * time.Second):
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/site/old.html", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/site/sub/c.html", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/site/away.html", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/elsewhere/x.html", http.StatusFound)
	})
	mux.HandleFunc("/elsewhere/x.html", page(`<title>X</title><a href="/site/secret.html">Secret</a>`))
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// TestCrawlPages: each kind of page is recorded as it should be: HTML
// pages with their title and links (fragments dropped, <base> and frames
// read, one URL a page), leaves, failures of every sort, redirects inside
// and out of the scope.
func TestCrawlPages(t *testing.T) {
	srv := smallSite(t)
	u := func(p string) string { return srv.URL + p }
	f := fetch.New(fetch.Options{AllowPrivateNetworks: true, HostConcurrency: 4, TotalTimeout: 500 * time.Millisecond})
	q := crawl.NewQuery(u("/site/"))
	q.Scope = []string{u("/site/"), "http://127.0.0.1:1/"}
	snap := crawlSite(t, f, q)

	var got []string
	for _, p := range snap.Pages {
		got = append(got, strings.TrimPrefix(p.URL, srv.URL))
	}
	want := []string{"/site/", "/site/a.html", "/site/A.html", "/site/b.html", "/site/notes.txt", "/site/img.png",
		"/site/missing.html", "/site/error.html", "/site/slow.html", "/site/sub/c.html", "http://127.0.0.1:1/closed.html",
		"/site/sub/frame.html"}
	if !slices.Equal(got, want) {
		t.Fatalf("pages\n%q\nwant\n%q", got, want)
	}
	home := snap.Pages[0]
	if home.Title != "Home page" || home.Status != 200 || home.ContentType != "text/html" || home.VersionKind != crawl.VersionContentHash {
		t.Errorf("home: %+v", home)
	}
	wantLinks := []crawl.Link{{u("/site/a.html"), "A"}, {u("/site/a.html"), "A, part"}, {u("/site/A.html"), "not a"},
		{u("/site/b.html"), "B"}, {u("/site/notes.txt"), "Notes"}, {u("/site/img.png"), "Image"},
		{u("/site/missing.html"), "Missing"}, {u("/site/error.html"), "Error"}, {u("/site/slow.html"), "Slow"},
		{u("/site/sub/c.html"), "Old"}, {u("/site/away.html"), "Away"}, {"http://127.0.0.1:1/closed.html", "Closed"}}
	if !slices.Equal(home.Links, wantLinks) {
		t.Errorf("home links\n%v\nwant\n%v", home.Links, wantLinks)
	}
	if a := snap.Page(u("/site/a.html")); !slices.Equal(a.Links, []crawl.Link{{u("/site/"), "Home"}, {u("/site/b.html"), "B again"}}) {
		t.Errorf("a.html links %v", a.Links)
	}
	if b := snap.Page(u("/site/b.html")); !slices.Equal(b.Links, []crawl.Link{{u("/site/sub/c.html"), "C"}, {u("/site/sub/frame.html"), "The frame"}}) {
		t.Errorf("b.html links %v", b.Links)
	}
	if p := snap.Page(u("/site/sub/frame.html")); p.Depth != 2 || p.Title != "Frame" {
		t.Errorf("frame: %+v", p)
	}
	if p := snap.Page(u("/site/sub/c.html")); p.Depth != 1 || p.Failed() {
		t.Errorf("c.html, reached at depth 1 by the redirect from old.html: %+v", p)
	}
	notes := snap.Page(u("/site/notes.txt"))
	if notes.Failed() || notes.ContentType != "text/plain" || notes.Hash == "" || notes.Version != notes.Hash ||
		!slices.Equal(notes.Links, []crawl.Link{{u("/site/a.html"), u("/site/a.html")}}) {
		t.Errorf("text page: %+v, want its tag's relative href as its link", notes)
	}
	img := snap.Page(u("/site/img.png"))
	if img.Failed() || img.Status != 200 || img.ContentType != "image/png" || img.Hash != hashOf(png) || img.Size != int64(len(png)) ||
		img.VersionKind != crawl.VersionLastModified || img.Version != "2024-05-01T12:00:00Z" {
		t.Errorf("binary leaf: %+v", img)
	}
	for _, tc := range []struct {
		path   string
		status int
		err    string
	}{
		{"/site/missing.html", 404, "404 Not Found"},
		{"/site/A.html", 404, "404 Not Found"},
		{"/site/error.html", 500, "500 Internal Server Error"},
		{"/site/slow.html", 0, "deadline exceeded"},
		{"http://127.0.0.1:1/closed.html", 0, "refused"},
	} {
		url := u(tc.path)
		if strings.HasPrefix(tc.path, "http:") {
			url = tc.path
		}
		p := snap.Page(url)
		if p == nil || p.Status != tc.status || !strings.Contains(p.Error, tc.err) || p.Version != "" || len(p.Links) != 0 {
			t.Errorf("%s: %+v, want status %d and an error with %q", tc.path, p, tc.status, tc.err)
		}
	}
	wantRedirects := []crawl.Redirect{{u("/site/old.html"), u("/site/sub/c.html")}, {u("/site/away.html"), u("/elsewhere/x.html")}}
	if !slices.Equal(snap.Redirects, wantRedirects) {
		t.Errorf("redirects %v, want %v", snap.Redirects, wantRedirects)
	}
	if st := snap.Stats(); st != (crawl.Stats{Pages: 12, Failures: 5, Links: 18, Redirects: 2}) {
		t.Errorf("stats %+v", st)
	}
}

// TestCrawlBodies: with Bodies, each page's text is kept, and it is what
// the hash is of.
func TestCrawlBodies(t *testing.T) {
	srv := smallSite(t)
	q := crawl.NewQuery(srv.URL + "/site/a.html")
	q.MaxDepth = 1
	q.Bodies = true
	snap := crawlSite(t, loopbackFetcher(), q)
	a := snap.Pages[0]
	if !strings.HasPrefix(a.Body, "<title>A</title>") || a.Hash != hashOf([]byte(a.Body)) || a.Size != int64(len(a.Body)) {
		t.Errorf("a.html: body %q, hash %s, size %d", a.Body, a.Hash, a.Size)
	}
	q.Bodies = false
	if snap := crawlSite(t, loopbackFetcher(), q); snap.Pages[0].Body != "" || snap.Pages[0].Hash != a.Hash {
		t.Errorf("without bodies: %+v", snap.Pages[0])
	}
}

// TestCrawlCancel: the end of the context ends the crawl with its error.
func TestCrawlCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/two.html" {
			cancel()
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<a href="one.html">1</a><a href="two.html">2</a><a href="three.html">3</a>`))
	}))
	defer srv.Close()
	snap, err := crawl.Crawl(ctx, loopbackFetcher(), crawl.NewQuery(srv.URL+"/"))
	if !errors.Is(err, context.Canceled) || snap != nil {
		t.Fatalf("Crawl = %v, %v; want context.Canceled", snap, err)
	}
}

// TestCrawlHostBusy: a page whose fetch keeps finding its host busy
// (never sent) is asked again until it is sent, however many times: after
// three tries it was recorded as failed, and a slow host's pages were
// "deleted" from one snapshot to the next at random.
func TestCrawlHostBusy(t *testing.T) {
	srv := smallSite(t)
	busy := 0
	f := fetcherFunc(func(ctx context.Context, req *vigil.FetchRequest) (*vigil.FetchResult, error) {
		if busy < 25 {
			busy++
			return nil, errors.Join(vigil.ErrHostBusy, errors.New("waited too long"))
		}
		return loopbackFetcher().Fetch(ctx, req)
	})
	q := crawl.NewQuery(srv.URL + "/site/a.html")
	q.MaxDepth = 0
	snap := crawlSite(t, f, q)
	if snap.StartFailure() != "" || busy != 25 {
		t.Errorf("start failure %q after %d busy answers", snap.StartFailure(), busy)
	}
}

// TestCrawlNotModifiedUnasked: a page that answers 304 Not Modified to
// the crawl's request, which carries no validators, is a failed page: the
// answer says nothing of its content. It was recorded as read, status 304
// and the hash of an empty body, a page that had "changed" to nothing.
func TestCrawlNotModifiedUnasked(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<a href="/stale.html">stale</a>`))
	})
	mux.HandleFunc("/stale.html", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusNotModified)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	snap := crawlSite(t, loopbackFetcher(), crawl.NewQuery(srv.URL+"/"))
	var stale *crawl.Page
	for _, p := range snap.Pages {
		if strings.HasSuffix(p.URL, "/stale.html") {
			stale = p
		}
	}
	if stale == nil {
		t.Fatalf("no page /stale.html in %+v", snap.Pages)
	}
	if stale.Error == "" || !strings.Contains(stale.Error, "304") || stale.Hash != "" || stale.Version != "" {
		t.Errorf("a 304 to a request without validators: %+v; want a failed page naming the 304", stale)
	}
}

type fetcherFunc func(context.Context, *vigil.FetchRequest) (*vigil.FetchResult, error)

func (f fetcherFunc) Fetch(ctx context.Context, req *vigil.FetchRequest) (*vigil.FetchResult, error) {
	return f(ctx, req)
}

// TestQueryValidate: a bad query is refused before anything is fetched,
// with the field named.
func TestQueryValidate(t *testing.T) {
	f := fetcherFunc(func(context.Context, *vigil.FetchRequest) (*vigil.FetchResult, error) {
		t.Fatal("fetched")
		return nil, nil
	})
	good := crawl.NewQuery("https://example.org/docs/index.html")
	for name, tc := range map[string]struct {
		edit func(*crawl.Query)
		want string
	}{
		"start":     {func(q *crawl.Query) { q.Start = "ftp://example.org/" }, "start: url \"ftp://example.org/\": scheme must be http or https"},
		"relative":  {func(q *crawl.Query) { q.Start = "/docs/" }, "start: url \"/docs/\": scheme must be http or https"},
		"scope":     {func(q *crawl.Query) { q.Scope = []string{"https://example.org/", "example.org/x"} }, "scope 2: url \"example.org/x\": scheme must be http or https"},
		"match":     {func(q *crawl.Query) { q.Match = "a(b" }, "match: error parsing regexp: missing closing ): `a(b`"},
		"depth":     {func(q *crawl.Query) { q.MaxDepth = -1 }, "maxDepth: -1, want 0 to 64"},
		"too deep":  {func(q *crawl.Query) { q.MaxDepth = 65 }, "maxDepth: 65, want 0 to 64"},
		"max pages": {func(q *crawl.Query) { q.MaxPages = 0 }, "maxPages: 0, want at least 1"},
		"workers":   {func(q *crawl.Query) { q.Workers = -2 }, "workers: -2 is negative"},
	} {
		q := good
		tc.edit(&q)
		_, err := crawl.Crawl(context.Background(), f, q)
		if vigil.ErrorCode(err) != vigil.EINVALID || vigil.ErrorMessage(err) != tc.want {
			t.Errorf("%s: %v, want EINVALID %q", name, err, tc.want)
		}
	}
}

func TestDefaultScope(t *testing.T) {
	for in, want := range map[string]string{
		"https://example.org/docs/index.html?x=1/y": "https://example.org/docs/",
		"https://example.org/docs/":                 "https://example.org/docs/",
		"https://example.org/docs":                  "https://example.org/",
		"HTTP://Example.org:80":                     "http://example.org/",
		"http://[::1]:8080/a/b/../c/d.html#f":       "http://[::1]:8080/a/c/",
	} {
		if got, err := crawl.DefaultScope(in); got != want || err != nil {
			t.Errorf("DefaultScope(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
}

// TestDefaultScopeAfterRedirect: without a scope, the crawl's is the
// directory of where the start page led (a site that moved to another
// place).
func TestDefaultScopeAfterRedirect(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle("/old/", http.RedirectHandler("/new/", http.StatusMovedPermanently))
	mux.HandleFunc("/new/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<a href="page.html">page</a> <a href="/other.html">other</a>`))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	snap := crawlSite(t, loopbackFetcher(), crawl.NewQuery(srv.URL+"/old/"))
	if !slices.Equal(snap.Query.Scope, []string{srv.URL + "/new/"}) || snap.Pages[0].URL != srv.URL+"/new/" || len(snap.Pages) != 2 {
		t.Errorf("scope %v, pages %d, start %s", snap.Query.Scope, len(snap.Pages), snap.Pages[0].URL)
	}
}

// TestCrawlLinkBomb: a page of more links than MaxLinks keeps MaxLinks of
// them and says it had more, and the URLs queued stop at what MaxPages can
// fetch: every link of every page was kept and queued (a 20 MB page of
// links kept 100 MB, endless query strings more).
func TestCrawlLinkBomb(t *testing.T) {
	const links = crawl.MaxLinks + 500
	var page strings.Builder
	page.WriteString("<title>bomb</title>")
	for i := range links {
		fmt.Fprintf(&page, `<a href="?n=%d">%d</a>`, i, i)
	}
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		requests.Add(1)
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, page.String())
	}))
	defer srv.Close()
	q := crawl.NewQuery(srv.URL + "/bomb/")
	q.MaxPages = 5
	snap := crawlSite(t, loopbackFetcher(), q)
	start := snap.Pages[0]
	if len(start.Links) != crawl.MaxLinks || !start.LinksTruncated {
		t.Errorf("the start page keeps %d links (truncated: %v), want %d and truncated", len(start.Links), start.LinksTruncated, crawl.MaxLinks)
	}
	if n := requests.Load(); n > int32(q.MaxPages) || len(snap.Pages) != q.MaxPages || !snap.Truncated {
		t.Errorf("%d requests, %d pages, truncated %v; want at most %d requests, %d pages, truncated", n, len(snap.Pages), snap.Truncated, q.MaxPages, q.MaxPages)
	}
}

// TestCrawlScopeBoundary: a scope prefix without a final slash takes its
// path and what lies under it, not the paths that merely start with the
// same letters: the scope .../docs crawled /docs-old/ and /docsx too. Its
// scheme and host are compared in canonical form.
func TestCrawlScopeBoundary(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/" {
			io.WriteString(w, `<a href="/docs">docs</a> <a href="/docs-old/x.html">old</a> <a href="/docsx">x</a>
				<a href="/docs/a.html">a</a> <a href="/docs?q=1">q</a> <a href="/other/">other</a>`)
			return
		}
		io.WriteString(w, `<title>`+r.URL.Path+`</title><a href="/docs/">dir</a>`)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	q := crawl.NewQuery(srv.URL + "/")
	q.Scope = []string{"HTTP://" + strings.TrimPrefix(srv.URL, "http://") + "/docs"}
	snap := crawlSite(t, loopbackFetcher(), q)
	var got []string
	for _, p := range snap.Pages {
		got = append(got, strings.TrimPrefix(p.URL, srv.URL))
	}
	if want := []string{"/", "/docs", "/docs/a.html", "/docs?q=1", "/docs/"}; !slices.Equal(got, want) {
		t.Errorf("pages %q, want %q", got, want)
	}
	if snap.Format != crawl.Format || !slices.Equal(snap.Query.Scope, []string{srv.URL + "/docs"}) {
		t.Errorf("format %q, scope %q", snap.Format, snap.Query.Scope)
	}
}

// TestCrawlPageReadAsText: a page that does not parse (nested past the
// HTML parser's limit) is read as its source text, with no title, and for
// links those its text writes (its <a href> relative, resolved against
// its URL and labelled by its target, as a links sentinel reads it), and
// its note says so and why; a page that parses has no note.
func TestCrawlPageReadAsText(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<title>Home</title><a href="/p.html">P</a>`))
	})
	mux.HandleFunc("/p.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<title>P</title>` + strings.Repeat("<div>", 600) + `<a href="/q.html">Q</a>` + strings.Repeat("</div>", 600)))
	})
	mux.HandleFunc("/q.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<title>Q</title>`))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	snap := crawlSite(t, loopbackFetcher(), crawl.NewQuery(srv.URL+"/"))
	home, p := snap.Page(srv.URL+"/"), snap.Page(srv.URL+"/p.html")
	if home == nil || p == nil {
		t.Fatalf("pages %+v, want / and /p.html", snap.Pages)
	}
	if home.Note != "" {
		t.Errorf("a page that parses has the note %q", home.Note)
	}
	if !strings.HasPrefix(p.Note, crawl.NoteReadAsText) || !strings.Contains(p.Note, "nested more than 512 deep") {
		t.Errorf("note %q, want %q and the parse error", p.Note, crawl.NoteReadAsText)
	}
	if p.Failed() || p.Title != "" || !slices.Equal(p.Links, []crawl.Link{{srv.URL + "/q.html", srv.URL + "/q.html"}}) {
		t.Errorf("page read as text: %+v; want one read, without title, its link the href its text writes", p)
	}
}

// TestLinkerReadAsText: a page no longer reached is blamed on the first
// page that linked to it and is read as text now, without a URL of it in
// its text, and on no other.
func TestLinkerReadAsText(t *testing.T) {
	const home, p, r, q = "https://example.org/", "https://example.org/p.html", "https://example.org/r.html", "https://example.org/q.html"
	snap := func(pages ...*crawl.Page) *crawl.Snapshot { return &crawl.Snapshot{Pages: pages} }
	linksQ := []crawl.Link{{Target: q}}
	prev := snap(&crawl.Page{URL: home}, &crawl.Page{URL: p, Links: linksQ}, &crawl.Page{URL: r, Links: linksQ}, &crawl.Page{URL: q})
	asText := crawl.NoteReadAsText + "too deep"
	for name, tc := range map[string]struct {
		cur  *crawl.Snapshot
		want string
	}{
		"p read as text":     {snap(&crawl.Page{URL: home}, &crawl.Page{URL: p, Note: asText}, &crawl.Page{URL: r}), p},
		"r read as text":     {snap(&crawl.Page{URL: home}, &crawl.Page{URL: p}, &crawl.Page{URL: r, Note: asText}), r},
		"both: the first":    {snap(&crawl.Page{URL: home}, &crawl.Page{URL: p, Note: asText}, &crawl.Page{URL: r, Note: asText}), p},
		"none read as text":  {snap(&crawl.Page{URL: home}, &crawl.Page{URL: p}, &crawl.Page{URL: r}), ""},
		"linkers gone":       {snap(&crawl.Page{URL: home}), ""},
		"home, not a linker": {snap(&crawl.Page{URL: home, Note: asText}, &crawl.Page{URL: p}, &crawl.Page{URL: r}), ""},
		// Its text still names q: it is not why q went.
		"p read as text, naming q": {snap(&crawl.Page{URL: home}, &crawl.Page{URL: p, Note: asText, Links: linksQ}, &crawl.Page{URL: r}), ""},
		"p naming q, r not":        {snap(&crawl.Page{URL: home}, &crawl.Page{URL: p, Note: asText, Links: linksQ}, &crawl.Page{URL: r, Note: asText}), r},
	} {
		t.Run(name, func(t *testing.T) {
			if got := crawl.NewTextLinkers(prev, tc.cur).LinkerReadAsText(q); got != tc.want {
				t.Errorf("LinkerReadAsText = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestReachedThroughText: a page of a snapshot of format 3 that a page
// read as text links to, which the snapshot before, of format 2, read
// without following its URLs, is new to it because of that page, and
// names it; not against a snapshot of format 3, nor through a page the
// snapshot before did not read or a page read as one.
func TestReachedThroughText(t *testing.T) {
	const start, p, a = "https://example.org/sitemap.txt", "https://example.org/p.html", "https://example.org/a.html"
	asText := crawl.NoteReadAsText + "served as text/plain"
	toA := []crawl.Link{{Target: a, Label: a}}
	cur := &crawl.Snapshot{Format: crawl.Format, Pages: []*crawl.Page{
		{URL: start, Note: asText, Links: toA}, {URL: a}}}
	byPage := &crawl.Snapshot{Format: crawl.Format, Pages: []*crawl.Page{
		{URL: start, Links: []crawl.Link{{Target: p}}}, {URL: p, Links: toA}, {URL: a}}}
	bothLink := &crawl.Snapshot{Format: crawl.Format, Pages: []*crawl.Page{
		{URL: start, Note: asText, Links: []crawl.Link{{Target: p}, {Target: a}}}, {URL: p, ContentType: "text/html", Links: toA}, {URL: a}}}
	for name, tc := range map[string]struct {
		prev, cur *crawl.Snapshot
		want      string
	}{
		"format 2, the sitemap a leaf": {&crawl.Snapshot{Format: crawl.FormatV2, Pages: []*crawl.Page{{URL: start}}}, cur, start},
		"format 1 too":                 {&crawl.Snapshot{Format: crawl.FormatV1, Pages: []*crawl.Page{{URL: start}}}, cur, start},
		"format 3":                     {&crawl.Snapshot{Format: crawl.Format, Pages: []*crawl.Page{{URL: start}}}, cur, ""},
		"the sitemap failed before":    {&crawl.Snapshot{Format: crawl.FormatV2, Pages: []*crawl.Page{{URL: start, Error: "404"}}}, cur, ""},
		"the sitemap new too":          {&crawl.Snapshot{Format: crawl.FormatV2, Pages: []*crawl.Page{{URL: p}}}, cur, ""},
		"linked by a page":             {&crawl.Snapshot{Format: crawl.FormatV2, Pages: []*crawl.Page{{URL: start}, {URL: p}}}, byPage, ""},
		// A page the crawl of format 2 read links to it too: new to the
		// site (or left unread then), not to the crawl's reading.
		"linked by a page read before too": {&crawl.Snapshot{Format: crawl.FormatV2, Pages: []*crawl.Page{{URL: start}, {URL: p, ContentType: "text/html"}}}, bothLink, ""},
		"linked by a text leaf before":     {&crawl.Snapshot{Format: crawl.FormatV2, Pages: []*crawl.Page{{URL: start}, {URL: p, ContentType: "text/plain"}}}, bothLink, start},
	} {
		t.Run(name, func(t *testing.T) {
			if got := crawl.NewTextLinkers(tc.prev, tc.cur).ReachedThroughText(a); got != tc.want {
				t.Errorf("ReachedThroughText = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestReadingChanged: a page read as text in one snapshot and as a page
// in the other, or as text for another reason, is read otherwise; a text
// page of a snapshot of format 2 (a leaf, without a note) is not against
// the same page read as text in format 3, served as text either way.
func TestReadingChanged(t *testing.T) {
	v2, v3 := &crawl.Snapshot{Format: crawl.FormatV2}, &crawl.Snapshot{Format: crawl.Format}
	asText := crawl.NoteReadAsText + "served as text/plain"
	deep := crawl.NoteReadAsText + "markup: parse HTML: elements nested more than 512 deep"
	for name, tc := range map[string]struct {
		prev          *crawl.Snapshot
		before, after crawl.Page
		want          bool
	}{
		"a page still":                   {v3, crawl.Page{ContentType: "text/html"}, crawl.Page{ContentType: "text/html"}, false},
		"a page read as text now":        {v3, crawl.Page{ContentType: "text/html"}, crawl.Page{ContentType: "text/html", Note: deep}, true},
		"HTML as text, format 2":         {v2, crawl.Page{ContentType: "text/html"}, crawl.Page{ContentType: "text/html", Note: deep}, true},
		"a page again":                   {v3, crawl.Page{ContentType: "text/html", Note: deep}, crawl.Page{ContentType: "text/html"}, true},
		"text, a leaf of format 2":       {v2, crawl.Page{ContentType: "text/plain"}, crawl.Page{ContentType: "text/plain", Note: asText}, false},
		"text leaf, now HTML as text":    {v2, crawl.Page{ContentType: "text/plain"}, crawl.Page{ContentType: "text/html", Note: deep}, true},
		"XML leaf of format 2, now text": {v2, crawl.Page{ContentType: "application/xml"}, crawl.Page{ContentType: "text/plain", Note: asText}, true},
		"text, format 3":                 {v3, crawl.Page{ContentType: "text/plain", Note: asText}, crawl.Page{ContentType: "text/plain", Note: asText}, false},
		"text, now served as HTML":       {v3, crawl.Page{ContentType: "text/plain", Note: asText}, crawl.Page{ContentType: "text/html"}, true},
		"text, format 3, as markup?":     {v3, crawl.Page{ContentType: "text/plain"}, crawl.Page{ContentType: "text/plain", Note: asText}, true},
	} {
		t.Run(name, func(t *testing.T) {
			if got := crawl.ReadingChanged(tc.prev, v3, &tc.before, &tc.after); got != tc.want {
				t.Errorf("ReadingChanged = %v, want %v", got, tc.want)
			}
		})
	}
}
