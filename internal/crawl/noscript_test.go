package crawl_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/vigil-web/vigil/internal/crawl"
)

// TestCrawlSkipsNoscript: a crawl follows no link, frame or paging link
// inside a <noscript>, as a links sentinel reads none (see intent's
// package doc, noscript): Vigil reads a page as a browser that runs
// scripts shows it, and the HTML parser reads a noscript's content as
// text. An XHTML page's noscript, whose content the XML parser reads as
// elements, followed them, so that a site crawl and a links sentinel
// disagreed on the page's links.
func TestCrawlSkipsNoscript(t *testing.T) {
	page := func(ctype, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", ctype)
			io.WriteString(w, body)
		}
	}
	const noscript = `<noscript><a href="n/a.html">N</a><iframe src="n/frame.html"></iframe><link rel="next" href="n/next.html"/></noscript>`
	for _, tc := range []struct{ name, ctype, home string }{
		{"html", "text/html; charset=utf-8", `<html><head><title>Home</title>` + noscript + `</head><body>` + noscript + `<a href="b.html">B</a></body></html>`},
		{"xhtml", "application/xhtml+xml", `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>Home</title>` + noscript + `</head><body>` + noscript + `<a href="b.html">B</a></body></html>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mux := http.NewServeMux()
			mux.HandleFunc("/site/{$}", page(tc.ctype, tc.home))
			mux.HandleFunc("/site/b.html", page("text/html", `<title>B</title>`))
			for _, p := range []string{"/site/n/a.html", "/site/n/frame.html", "/site/n/next.html"} {
				mux.HandleFunc(p, page("text/html", `<title>Noscript</title>`))
			}
			srv := httptest.NewServer(mux)
			defer srv.Close()
			u := func(p string) string { return srv.URL + p }

			snap := crawlSite(t, loopbackFetcher(), crawl.NewQuery(u("/site/")))
			var got []string
			for _, p := range snap.Pages {
				got = append(got, p.URL)
			}
			if want := []string{u("/site/"), u("/site/b.html")}; !slices.Equal(got, want) {
				t.Errorf("pages\n%q\nwant\n%q", got, want)
			}
			if home := snap.Page(u("/site/")); home == nil || !slices.Equal(home.Links, []crawl.Link{{u("/site/b.html"), "B"}}) {
				t.Errorf("home links %+v, want b.html only", home)
			}
		})
	}
}
