package crawl_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/vigil-web/vigil/internal/crawl"
)

// textSite serves a site whose start page, /site/sitemap.txt, is a text
// sitemap (text/plain, one URL a line, as sitemaps.org allows): two pages
// in scope (one respelt, one a Markdown link with a fragment), one out of
// the scope, two whose host DNS refuses (one that was keyed as the
// site's host, "127.0.0.1.."); the page in scope b.txt is text
// too, and lists an HTML page that does not parse, whose source text
// names a last page, and links to another in an <a href> written relative
// (intent's markupRefs).
func textSite(t *testing.T) (*httptest.Server, func() []string) {
	var mu sync.Mutex
	var asked []string
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.URL.Path)
		mu.Unlock()
		text := func(body string) {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.Write([]byte(body))
		}
		switch r.URL.Path {
		case "/site/sitemap.txt":
			text(srv.URL + "/site/a.html\n" +
				"See [Page  B](" + srv.URL + "/site/b.txt#part).\n" +
				strings.Replace(srv.URL, "http://", "HTTP://", 1) + "/site/./a.html\n" +
				srv.URL + "/elsewhere/x.html\n" +
				"http://a..example/site/c.html\n" +
				strings.Replace(srv.URL, "127.0.0.1", "127.0.0.1..", 1) + "/site/dots.html\n" +
				"relative.html\n")
		case "/site/b.txt":
			text("the deep page: <" + srv.URL + "/site/deep.html>\n")
		case "/site/deep.html":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<title>Deep</title>` + strings.Repeat("<div>", 600) + `<a href="e.html">E</a> see ` +
				srv.URL + `/site/d.html.` + strings.Repeat("</div>", 600)))
		case "/robots.txt":
			http.NotFound(w, r)
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<title>" + r.URL.Path + "</title>"))
		}
	}))
	t.Cleanup(srv.Close)
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Sorted(slices.Values(asked))
	}
}

// TestCrawlTextLinks: a page read as its source text, served as text
// (a text sitemap) or HTML that does not parse, has for links the http(s)
// URLs written in its text (intent.TextLinks), labelled by their Markdown
// label or else by the URL as written, and the href and src its tags
// write relative, resolved against its URL and labelled by their target
// (intent.SourceLinks, as a links sentinel reads them), canonical and
// without fragment, in scope, a host DNS refuses left out: the crawl
// follows them, as an HTML page's links, and they weigh in its
// importance. Such a page had no links: a site whose start page is a text
// sitemap was that page alone; then only its absolute URLs.
func TestCrawlTextLinks(t *testing.T) {
	srv, asked := textSite(t)
	u := func(p string) string { return srv.URL + p }
	snap := crawlSite(t, loopbackFetcher(), crawl.NewQuery(u("/site/sitemap.txt")))
	var got []string
	for _, p := range snap.Pages {
		got = append(got, strings.TrimPrefix(p.URL, srv.URL))
	}
	if want := []string{"/site/sitemap.txt", "/site/a.html", "/site/b.txt", "/site/deep.html", "/site/e.html", "/site/d.html"}; !slices.Equal(got, want) {
		t.Fatalf("pages %q, want %q", got, want)
	}
	if want := []string{"/robots.txt", "/site/a.html", "/site/b.txt", "/site/d.html", "/site/deep.html", "/site/e.html", "/site/sitemap.txt"}; !slices.Equal(asked(), want) {
		t.Errorf("asked %q, want %q", asked(), want)
	}
	start := snap.Pages[0]
	wantLinks := []crawl.Link{{u("/site/a.html"), u("/site/a.html")}, {u("/site/b.txt"), "Page B"},
		{u("/site/a.html"), strings.Replace(srv.URL, "http://", "HTTP://", 1) + "/site/./a.html"}}
	if !slices.Equal(start.Links, wantLinks) {
		t.Errorf("start page links\n%q\nwant\n%q", start.Links, wantLinks)
	}
	if start.Note != crawl.NoteReadAsText+"served as text/plain" || start.Title != "" {
		t.Errorf("start page: note %q, title %q; want read as text, served as text/plain, without title", start.Note, start.Title)
	}
	if why, read := crawl.ReadAsText(start); why != "served as text/plain" || !read {
		t.Errorf("ReadAsText(start) = %q, %v", why, read)
	}
	if b := snap.Page(u("/site/b.txt")); b == nil || !slices.Equal(b.Links, []crawl.Link{{u("/site/deep.html"), u("/site/deep.html")}}) || b.Depth != 1 {
		t.Errorf("b.txt: %+v", b)
	}
	deep := snap.Page(u("/site/deep.html"))
	if deep == nil || !strings.Contains(deep.Note, "nested more than 512 deep") || deep.Title != "" ||
		!slices.Equal(deep.Links, []crawl.Link{{u("/site/e.html"), u("/site/e.html")}, {u("/site/d.html"), u("/site/d.html")}}) {
		t.Errorf("deep.html, HTML read as text: %+v; want its relative href and the URL in its text as its links", deep)
	}
	if a := snap.Page(u("/site/a.html")); a == nil || a.Note != "" || a.Title != "/site/a.html" {
		t.Errorf("a.html: %+v", a)
	}
	// The graph of OPIC holds the links of pages read as text: each page
	// of it has an importance.
	for _, p := range snap.Pages {
		if p.Importance <= 0 {
			t.Errorf("%s: importance %v", p.URL, p.Importance)
		}
	}
	if st := snap.Stats(); st != (crawl.Stats{Pages: 6, Links: 6}) {
		t.Errorf("stats %+v", st)
	}
}

// TestCrawlJSONLinks: a page served as JSON written with its slashes
// escaped (PHP's json_encode: "http:\/\/host\/site\/a.html") links to
// the URLs in its strings, unescaped (intent.TextLinks), and the crawl
// follows them; it found none, or URLs cut at their first \/.
func TestCrawlJSONLinks(t *testing.T) {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/site/index.json":
			esc := strings.ReplaceAll(srv.URL, "/", `\/`)
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"pages":["` + esc + `\/site\/a.html","` + esc + `\/site\/b\u002fc.html\"x"],"next":"` + esc + `\/elsewhere\/d.html"}`))
		case "/robots.txt":
			http.NotFound(w, r)
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<title>" + r.URL.Path + "</title>"))
		}
	}))
	t.Cleanup(srv.Close)
	snap := crawlSite(t, loopbackFetcher(), crawl.NewQuery(srv.URL+"/site/index.json"))
	var got []string
	for _, p := range snap.Pages {
		got = append(got, strings.TrimPrefix(p.URL, srv.URL))
	}
	if want := []string{"/site/index.json", "/site/a.html", "/site/b/c.html"}; !slices.Equal(got, want) {
		t.Fatalf("pages %q, want %q", got, want)
	}
	want := []crawl.Link{{srv.URL + "/site/a.html", srv.URL + "/site/a.html"}, {srv.URL + "/site/b/c.html", srv.URL + "/site/b/c.html"}}
	if links := snap.Pages[0].Links; !slices.Equal(links, want) {
		t.Errorf("links\n%q\nwant\n%q", links, want)
	}
}
