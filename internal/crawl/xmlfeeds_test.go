package crawl_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/webtable"
)

// xmlSite serves, under /site/, feeds and other XML documents served with
// their proper media types, each linking to pages of the site: an Atom
// feed as application/atom+xml, an RSS 2.0 feed as application/rss+xml, an
// RSS 1.0 feed as application/rdf+xml, an RSS feed as application/xml and
// as text/xml, a document with an xlink:href as application/xml (no page
// nor list of pages: a leaf, whose link the crawl does not follow), one that
// is not well-formed XML as application/xml (read as its source text, its
// links the URLs written in it), and an XML sitemap, whose <loc> a crawl
// follows (warehouse.ExtractSiteLinks).
func xmlSite(t *testing.T) *httptest.Server {
	var srv *httptest.Server
	rss := func(item string) string {
		return `<?xml version="1.0"?><rss version="2.0"><channel><title>News</title><link>` + srv.URL + `/site/</link>` +
			`<item><title>` + strings.ToUpper(item) + `</title><link>` + srv.URL + `/site/` + item + `.html</link></item></channel></rss>`
	}
	docs := map[string]struct{ contentType, body string }{
		"/site/atom": {"application/atom+xml", ""},
		"/site/rss":  {"application/rss+xml; charset=utf-8", ""},
		"/site/rdf": {"application/rdf+xml", `<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">` +
			`<channel rdf:about="/site/rdf"><title>RDF</title></channel><item rdf:about="/site/rdf-item.html"><title>RDF item</title></item></rdf:RDF>`},
		"/site/appxml":  {"application/xml", ""},
		"/site/textxml": {"Text/XML", ""},
		"/site/xlink": {"application/xml", `<?xml version="1.0"?><doc xmlns:xlink="http://www.w3.org/1999/xlink">` +
			`<ref xlink:href="xlinked.html">Linked</ref></doc>`},
		"/site/broken": {"application/xml", `<?xml version="1.0"?><doc>see ` + "\n" + `SRV/site/broken-linked.html` + "\n" + `<unclosed></doc>`},
		"/site/sitemap.xml": {"application/xml", `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` +
			`<url><loc>SRV/site/in-sitemap.html</loc></url></urlset>`},
	}
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if d, ok := docs[r.URL.Path]; ok {
			body := strings.ReplaceAll(d.body, "SRV", srv.URL)
			switch r.URL.Path {
			case "/site/atom":
				body = `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom" xml:base="` + srv.URL + `/site/">` +
					`<title>Blog</title><link rel="self" href="atom"/><link rel="next" href="atom-2"/>` +
					`<entry><title>Post</title><link rel="alternate" href="post.html"/></entry></feed>`
			case "/site/rss":
				body = rss("story")
			case "/site/appxml":
				body = rss("appxml-item")
			case "/site/textxml":
				body = rss("textxml-item")
			}
			w.Header().Set("Content-Type", d.contentType)
			w.Write([]byte(body))
			return
		}
		switch r.URL.Path {
		case "/robots.txt":
			http.NotFound(w, r)
		case "/site/atom-2":
			w.Header().Set("Content-Type", "application/atom+xml")
			w.Write([]byte(`<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Blog</title>` +
				`<entry><title>Older</title><link href="` + srv.URL + `/site/older.html"/></entry></feed>`))
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<title>" + r.URL.Path + "</title>"))
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestCrawlXMLFeeds: a crawl reads a feed served with its proper media
// type (application/atom+xml, application/rss+xml, application/rdf+xml,
// application/xml, text/xml) as the warehouse reads it, for its feed links
// and its pages (RFC 5005), so that a crawl starting at a feed reaches its
// entries, and a sitemap for its <loc>, and of an XML document that is
// not well-formed the URLs written in its source text; another XML
// document is a leaf (TestCrawlReadsOnlyPagesAndListsOfPages). It read
// them as leaves, without links: a crawl starting at a real feed found
// nothing.
func TestCrawlXMLFeeds(t *testing.T) {
	srv := xmlSite(t)
	for _, tt := range []struct {
		start string
		want  []string // the pages, in the order of discovery
		title string
	}{
		{"/site/atom", []string{"/site/atom", "/site/atom-2", "/site/post.html", "/site/older.html"}, "Blog"},
		{"/site/rss", []string{"/site/rss", "/site/", "/site/story.html"}, "News"},
		{"/site/rdf", []string{"/site/rdf", "/site/rdf-item.html"}, "RDF"},
		{"/site/appxml", []string{"/site/appxml", "/site/", "/site/appxml-item.html"}, "News"},
		{"/site/textxml", []string{"/site/textxml", "/site/", "/site/textxml-item.html"}, "News"},
		{"/site/xlink", []string{"/site/xlink"}, ""}, // generic XML, no page: a leaf
		{"/site/broken", []string{"/site/broken", "/site/broken-linked.html"}, ""},
		{"/site/sitemap.xml", []string{"/site/sitemap.xml", "/site/in-sitemap.html"}, ""},
	} {
		t.Run(strings.TrimPrefix(tt.start, "/site/"), func(t *testing.T) {
			snap := crawlSite(t, loopbackFetcher(), crawl.NewQuery(srv.URL+tt.start))
			got := pagePaths(t, snap, srv.URL)
			if !slices.Equal(got, tt.want) {
				t.Errorf("pages %q, want %q", got, tt.want)
			}
			start := snap.Pages[0]
			if start.Title != tt.title {
				t.Errorf("title %q, want %q", start.Title, tt.title)
			}
			why, read := crawl.ReadAsText(start)
			if !read || (why != "") != (tt.start == "/site/broken") {
				t.Errorf("ReadAsText: %q, %v; want it read, as its source text only if it is not well-formed", why, read)
			}
		})
	}
}

// TestCrawlXMLFeedUpgrade: a site diff between a snapshot crawled before
// XML was read (the feed a leaf: no title, no links, no other page) and
// one crawled now shows the entries reached through the feed as added,
// and the feed itself, whose version is its hash read or not, unchanged,
// as doc.go says; both are of format 3.
func TestCrawlXMLFeedUpgrade(t *testing.T) {
	srv := xmlSite(t)
	cur := crawlSite(t, loopbackFetcher(), crawl.NewQuery(srv.URL+"/site/rss"))
	before := *cur.Pages[0]
	before.Title, before.Links = "", nil
	prev := *cur
	prev.Pages = []*crawl.Page{&before}
	prev.Sites = nil
	if err := prev.Validate(); err != nil {
		t.Fatalf("the snapshot as crawled before: %v", err)
	}
	w1, err := prev.Table(crawl.ByContent)
	if err != nil {
		t.Fatal(err)
	}
	w2, err := cur.Table(crawl.ByContent)
	if err != nil {
		t.Fatal(err)
	}
	d, err := webtable.Diff(w1, w2, nil)
	if err != nil {
		t.Fatal(err)
	}
	var added []string
	for _, id := range d.Added {
		added = append(added, strings.TrimPrefix(string(id), srv.URL))
	}
	if want := []string{"/site/", "/site/story.html"}; !slices.Equal(added, want) || len(d.Deleted) != 0 || len(d.Modified) != 0 {
		t.Errorf("added %q, deleted %q, modified %q; want added %q only", added, d.Deleted, d.Modified, want)
	}
}
