package crawl_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/vigil-web/vigil/internal/crawl"
)

// TestCrawlXMLSitemap: a crawl starting at a sitemap index served as
// application/xml follows its child sitemaps, and each sitemap's <loc>
// URLs, in document order, resolved against the sitemap's URL, only
// http(s) ones, so that it reaches the pages they list, within MaxPages
// (breadth first, the first listed first), a sitemap of 50 000 URLs as
// one of a few. A sitemap gave no
// links: the crawl was that page alone.
func TestCrawlXMLSitemap(t *testing.T) {
	var srv *httptest.Server
	const ns = `xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"`
	docs := map[string]string{
		"/site/sitemap.xml": `<?xml version="1.0"?><sitemapindex ` + ns + `><sitemap><loc>SRV/site/maps/one.xml</loc></sitemap>` +
			`<sitemap><loc>maps/two.xml</loc></sitemap></sitemapindex>`,
		"/site/maps/one.xml": `<?xml version="1.0"?><urlset ` + ns + `><url><loc>SRV/site/a.html</loc></url>` +
			`<url><loc>ftp://example.org/x</loc></url><url><loc>../b.html</loc></url></urlset>`,
		"/site/maps/two.xml": `<?xml version="1.0"?><urlset><url><loc>/site/c.html</loc></url></urlset>`,
		"/site/large.xml":    largeSitemap(50000),
	}
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if body, ok := docs[r.URL.Path]; ok {
			w.Header().Set("Content-Type", "application/xml")
			w.Write([]byte(strings.ReplaceAll(body, "SRV", srv.URL)))
			return
		}
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<title>" + r.URL.Path + "</title>"))
	}))
	t.Cleanup(srv.Close)

	for _, tt := range []struct {
		name     string
		start    string
		maxPages int
		want     []string
	}{
		{"all", "/site/sitemap.xml", 0, []string{"/site/sitemap.xml", "/site/maps/one.xml", "/site/maps/two.xml", "/site/a.html", "/site/b.html", "/site/c.html"}},
		{"page limit", "/site/sitemap.xml", 4, []string{"/site/sitemap.xml", "/site/maps/one.xml", "/site/maps/two.xml", "/site/a.html"}},
		{"50 000 URLs, page limit", "/site/large.xml", 3, []string{"/site/large.xml", "/site/p0.html", "/site/p1.html"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			q := crawl.NewQuery(srv.URL + tt.start)
			if tt.maxPages > 0 {
				q.MaxPages, q.Order = tt.maxPages, crawl.OrderBreadth
			}
			snap := crawlSite(t, loopbackFetcher(), q)
			got := pagePaths(t, snap, srv.URL)
			if !slices.Equal(got, tt.want) {
				t.Errorf("pages %q, want %q", got, tt.want)
			}
		})
	}
}

// largeSitemap is a sitemap of n URLs, /site/p0.html on, written relative.
func largeSitemap(n int) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for i := range n {
		b.WriteString("<url><loc>p" + strconv.Itoa(i) + ".html</loc></url>")
	}
	b.WriteString("</urlset>")
	return b.String()
}

// TestUnreadLinksAfterTheSiteGrew: a page keeps its links to the URLs
// the crawl did not read, so that UnreadLinks names every page a crawl
// before read that is still linked but cut by the page limit: a sitemap
// crawled for 5 pages, then again after 10 URLs were listed before the
// pages that crawl read, in either order. A snapshot kept of a page's
// links to URLs not read only the first MaxPages, so the pages read
// before, listed after them, were told "no longer reached", though the
// sitemap still listed them.
func TestUnreadLinksAfterTheSiteGrew(t *testing.T) {
	const maxPages = 5
	var mu sync.Mutex
	added := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/site/sitemap.xml":
			mu.Lock()
			n := added
			mu.Unlock()
			var b strings.Builder
			b.WriteString(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
			for i := range n {
				b.WriteString("<url><loc>new" + strconv.Itoa(i) + ".html</loc></url>")
			}
			for i := range 20 {
				b.WriteString("<url><loc>p" + strconv.Itoa(i) + ".html</loc></url>")
			}
			b.WriteString("</urlset>")
			w.Header().Set("Content-Type", "application/xml")
			w.Write([]byte(b.String()))
		case "/robots.txt":
			http.NotFound(w, r)
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<title>" + r.URL.Path + "</title>"))
		}
	}))
	t.Cleanup(srv.Close)
	for _, order := range []crawl.Order{crawl.OrderBreadth, crawl.OrderImportance} {
		t.Run(string(order), func(t *testing.T) {
			mu.Lock()
			added = 0
			mu.Unlock()
			q := crawl.NewQuery(srv.URL + "/site/sitemap.xml")
			q.MaxPages, q.Order = maxPages, order
			before := crawlSite(t, loopbackFetcher(), q)
			mu.Lock()
			added = 10
			mu.Unlock()
			after := crawlSite(t, loopbackFetcher(), q)
			unread := after.UnreadLinks()
			if len(unread) != 30-(maxPages-1) {
				t.Errorf("%d unread links, want %d: every URL the sitemap lists that was not read", len(unread), 30-(maxPages-1))
			}
			for _, p := range before.Pages[1:] {
				if after.Page(p.URL) != nil {
					continue
				}
				if why := unread[p.URL]; why != crawl.UnreadPages {
					t.Errorf("%s, read before and still listed: unread %q, want %q", p.URL, why, crawl.UnreadPages)
				}
			}
		})
	}
}
