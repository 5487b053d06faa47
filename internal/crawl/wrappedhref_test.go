package crawl_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/vigil-web/vigil/internal/crawl"
)

// TestCrawlFollowsWrappedLinks: a link or frame whose reference holds a
// tab or a line break, as an editor's line wrapping leaves in a long href,
// is followed where a browser goes, the tabs and line breaks dropped
// (intent.CleanRef, the WHATWG URL parser's rule), and stored as it
// resolves. url.Parse refuses a control character, so such a link was no
// link: its page was never reached by the crawl.
func TestCrawlFollowsWrappedLinks(t *testing.T) {
	home := "<html><head><title>Home</title><link rel=\"next\" href=\"page\r\n2.html\"></head><body>" +
		"<a href=\"guide/very-\n    long.html\">Guide</a> <a href=\"\tfaq\t.html \">FAQ</a>" +
		"<iframe src=\"fra\nme.html\" title=\"Frame\"></iframe></body></html>"
	leaves := []string{"/site/guide/very-    long.html", "/site/faq.html", "/site/frame.html", "/site/page2.html"}
	mux := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch {
		case r.URL.Path == "/site/":
			io.WriteString(w, home)
		case slices.Contains(leaves, r.URL.Path):
			io.WriteString(w, `<title>Leaf</title>`)
		default:
			http.NotFound(w, r)
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	snap := crawlSite(t, loopbackFetcher(), crawl.Query{Start: srv.URL + "/site/", MaxDepth: 2, MaxPages: 20})
	tests := []struct {
		name, url string
	}{
		{"a link wrapped, its indentation kept as a browser keeps it", srv.URL + "/site/guide/very-%20%20%20%20long.html"},
		{"a link with tabs", srv.URL + "/site/faq.html"},
		{"a frame wrapped", srv.URL + "/site/frame.html"},
		{"a paging link wrapped", srv.URL + "/site/page2.html"},
	}
	pages := snap.PagesByURL()
	for _, tc := range tests {
		p := pages[tc.url]
		if p == nil || p.Failed() {
			var got []string
			for _, q := range snap.Pages {
				got = append(got, q.URL)
			}
			t.Errorf("%s: %s not read (%+v); the pages: %q", tc.name, tc.url, p, got)
			continue
		}
		if !slices.ContainsFunc(snap.Pages[0].Links, func(l crawl.Link) bool { return l.Target == tc.url }) {
			t.Errorf("%s: the start page has no link to %s: %+v", tc.name, tc.url, snap.Pages[0].Links)
		}
	}
}
