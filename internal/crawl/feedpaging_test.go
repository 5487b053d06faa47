package crawl_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/crawl"
)

// pagedFeed serves a blog whose start page is an Atom feed in two pages
// (RFC 5005), served as text/html as many servers do, so that the crawl
// reads it: page 1 has the entry a and links to page 2 (rel next), to
// itself (self), to a comments feed (replies) and to a hub off the site;
// page 2 has the entry b, links back to page 1 (rel "previous", in capitals,
// and "first" as its IANA IRI) and on to an archive (prev-archive) whose
// entry is c.
func pagedFeed(t *testing.T) *httptest.Server {
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		feed := func(links, entry string) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write([]byte(`<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom" xml:base="` + srv.URL + `/blog/">` +
				`<title>Blog</title>` + links + entry + `</feed>`))
		}
		entry := func(name string) string {
			return `<entry><title>` + strings.ToUpper(name) + `</title><link rel="alternate" href="` + name + `.html"/></entry>`
		}
		switch r.URL.Path + "?" + r.URL.RawQuery {
		case "/blog/feed?":
			feed(`<link rel="self" href="feed"/><link rel="next" href="feed?page=2"/><link rel="hub" href="https://hub.example/"/>`,
				entry("a")+`<entry><title>A comments</title><link rel="replies" href="a/comments"/></entry>`)
		case "/blog/feed?page=2":
			feed(`<link rel="self" href="feed?page=2"/><link rel=" PREVIOUS " href="feed"/>`+
				`<link rel="http://www.iana.org/assignments/relation/first" href="feed"/><link rel="prev-archive" href="archive/2023"/>`,
				entry("b"))
		case "/blog/archive/2023?":
			feed(`<link rel="current" href="feed"/><link rel="next-archive" href="archive/2024"/>`, entry("c"))
		case "/robots.txt?":
			http.NotFound(w, r)
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<title>" + r.URL.Path + "</title>"))
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestCrawlFeedPaging: a feed the crawl reads links to its pages (RFC
// 5005: next, previous, first, last, prev-archive, next-archive, current,
// in any case or as their IANA IRI), which the crawl follows as pages of
// the site, feeds read as such, so that it reaches the entries of the
// older pages. A links sentinel does not count them as links of the feed
// (intent.FeedLinks), and the crawl follows no other relation (self,
// replies, hub) that it does not count either.
func TestCrawlFeedPaging(t *testing.T) {
	srv := pagedFeed(t)
	u := func(p string) string { return srv.URL + p }
	snap := crawlSite(t, loopbackFetcher(), crawl.NewQuery(u("/blog/feed")))
	got := pagePaths(t, snap, srv.URL)
	want := []string{"/blog/feed", "/blog/feed?page=2", "/blog/a.html", "/blog/archive/2023", "/blog/b.html", "/blog/archive/2024", "/blog/c.html"}
	if !slices.Equal(got, want) {
		t.Fatalf("pages %q, want %q", got, want)
	}
	links := map[string][]crawl.Link{}
	for _, p := range snap.Pages {
		for _, l := range p.Links {
			l.Target = strings.TrimPrefix(l.Target, srv.URL)
			links[strings.TrimPrefix(p.URL, srv.URL)] = append(links[strings.TrimPrefix(p.URL, srv.URL)], l)
		}
	}
	for page, want := range map[string][]crawl.Link{
		"/blog/feed":         {{Target: "/blog/feed?page=2", Label: "Blog"}, {Target: "/blog/a.html", Label: "A"}},
		"/blog/feed?page=2":  {{Target: "/blog/feed", Label: "Blog"}, {Target: "/blog/archive/2023", Label: "Blog"}, {Target: "/blog/b.html", Label: "B"}},
		"/blog/archive/2023": {{Target: "/blog/feed", Label: "Blog"}, {Target: "/blog/archive/2024", Label: "Blog"}, {Target: "/blog/c.html", Label: "C"}},
	} {
		if !slices.Equal(links[page], want) {
			t.Errorf("%s: links %+v, want %+v", page, links[page], want)
		}
	}
	for page, depth := range map[string]int{"/blog/b.html": 2, "/blog/c.html": 3} {
		if p := snap.Page(u(page)); p == nil || p.Depth != depth {
			t.Errorf("%s: %+v, want it at depth %d", page, p, depth)
		}
	}
}
