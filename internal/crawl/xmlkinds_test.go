package crawl_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/crawl"
)

// TestCrawlReadsOnlyPagesAndListsOfPages: a crawl reads for links the
// documents that are pages or lists of pages: HTML (served as text/html,
// or as text/plain beginning as markup), XHTML (served as
// application/xhtml+xml, or as generic XML with an html root in the
// XHTML namespace or none, a comment and a doctype before it), feeds
// (served with their own types or as generic XML) and XML sitemaps and
// sitemap indexes (as text/xml too). An html root in another namespace
// is no page.
// Another XML document is a leaf, without title or links, whatever
// links it writes: an SVG image's xlink:href and <a href>, MathML's
// href, a vendor format's xlink:href, an XSLT stylesheet's <a href>,
// and generic XML (application/xml, text/xml) whose root is neither
// html, a feed nor a sitemap. Each was read for those links, and the
// crawl fetched their targets as pages of the site.
func TestCrawlReadsOnlyPagesAndListsOfPages(t *testing.T) {
	const xlink = `xmlns:xlink="http://www.w3.org/1999/xlink"`
	docs := map[string]struct{ contentType, body string }{
		"/site/page.html": {"text/html", `<title>Page</title><a href="to.html">To</a>`},
		"/site/page.xhtml": {"application/xhtml+xml", `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml">` +
			`<head><title>XHTML</title></head><body><a href="to.html">To</a></body></html>`},
		"/site/xhtml.xml": {"application/xml", `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml">` +
			`<head><title>XHTML as XML</title></head><body><a href="to.html">To</a></body></html>`},
		"/site/atom": {"application/atom+xml", `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom">` +
			`<title>Blog</title><entry><title>Post</title><link href="to.html"/></entry></feed>`},
		"/site/rss.xml": {"text/xml", `<?xml version="1.0"?><rss version="2.0"><channel><title>News</title>` +
			`<item><title>Story</title><link>to.html</link></item></channel></rss>`},
		"/site/sitemap.xml": {"application/xml", `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
			`<url><loc>to.html</loc></url></urlset>`},
		"/site/image.svg": {"image/svg+xml", `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" ` + xlink + `>` +
			`<title>Logo</title><use xlink:href="to.html#shape"/><a href="to.html"><text>To</text></a></svg>`},
		"/site/formula.mml": {"application/mathml+xml", `<?xml version="1.0"?><math xmlns="http://www.w3.org/1998/Math/MathML">` +
			`<mi href="to.html">x</mi><a href="to.html">To</a></math>`},
		"/site/vendor.xml": {"application/vnd.example.doc+xml", `<?xml version="1.0"?><doc ` + xlink + `>` +
			`<title>Vendor</title><ref xlink:href="to.html">To</ref></doc>`},
		"/site/style.xsl": {"text/xsl", `<?xml version="1.0"?><xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">` +
			`<xsl:template match="/"><a href="to.html">To</a></xsl:template></xsl:stylesheet>`},
		"/site/generic.xml": {"application/xml", `<?xml version="1.0"?><doc ` + xlink + `>` +
			`<title>Generic</title><ref xlink:href="to.html">To</ref><a href="to.html">To</a></doc>`},
		"/site/xhtml-nons.xml": {"application/xml", `<?xml version="1.0"?><!-- a page --><!DOCTYPE html><html>` +
			`<head><title>XHTML without namespace</title></head><body><a href="to.html">To</a></body></html>`},
		"/site/index.xml": {"text/xml", `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
			`<sitemap><loc>to.html</loc></sitemap></sitemapindex>`},
		"/site/html.txt": {"text/plain", `<!DOCTYPE html><title>HTML as text</title><a href="to.html">To</a>`},
		"/site/other-html.xml": {"application/xml", `<?xml version="1.0"?><html xmlns="urn:example:not-xhtml">` +
			`<a href="to.html">To</a></html>`},
		"/site/generic-text.xml": {"text/xml; charset=utf-8", `<?xml version="1.0"?><doc ` + xlink + `>` +
			`<ref xlink:href="to.html">To</ref></doc>`},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if d, ok := docs[r.URL.Path]; ok {
			w.Header().Set("Content-Type", d.contentType)
			w.Write([]byte(d.body))
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
		start string
		read  bool // the page is read for links: to.html is reached
		title string
	}{
		{"/site/page.html", true, "Page"},
		{"/site/page.xhtml", true, "XHTML"},
		{"/site/xhtml.xml", true, "XHTML as XML"},
		{"/site/atom", true, "Blog"},
		{"/site/rss.xml", true, "News"},
		{"/site/sitemap.xml", true, ""},
		{"/site/image.svg", false, ""},
		{"/site/formula.mml", false, ""},
		{"/site/vendor.xml", false, ""},
		{"/site/style.xsl", false, ""},
		{"/site/xhtml-nons.xml", true, "XHTML without namespace"},
		{"/site/index.xml", true, ""},
		{"/site/html.txt", true, "HTML as text"},
		{"/site/other-html.xml", false, ""},
		{"/site/generic.xml", false, ""},
		{"/site/generic-text.xml", false, ""},
	} {
		t.Run(strings.TrimPrefix(tt.start, "/site/"), func(t *testing.T) {
			snap := crawlSite(t, loopbackFetcher(), crawl.NewQuery(srv.URL+tt.start))
			got := pagePaths(t, snap, srv.URL)
			want := []string{tt.start}
			if tt.read {
				want = append(want, "/site/to.html")
			}
			if !slices.Equal(got, want) {
				t.Errorf("pages %q, want %q", got, want)
			}
			start := snap.Pages[0]
			if start.Title != tt.title || (len(start.Links) > 0) != tt.read || start.Note != "" {
				t.Errorf("title %q, links %v, note %q; want title %q, links %v, no note", start.Title, start.Links, start.Note, tt.title, tt.read)
			}
			if start.Hash != hashOf([]byte(docs[tt.start].body)) || start.Version != start.Hash {
				t.Errorf("hash %q, version %q: want the body's hash, a page of the site all the same", start.Hash, start.Version)
			}
		})
	}
}
