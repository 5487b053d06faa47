package crawl_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/fetch"
)

// TestCrawlFollowsLinksAgainstPageBase: a crawl follows a page's links
// and frames resolved as its views, change records and stored links
// resolve them (intent.PageBase): against the first base element with an
// href, a base that is not http or https (ftp:, javascript:) passed over
// for the page's address. The frames of a page with an ftp: base were
// resolved against it, and so not followed; a second base overrode the
// first. A base that leads to a loopback address does not open it: the
// fetcher still refuses the page there unless private networks are
// allowed.
func TestCrawlFollowsLinksAgainstPageBase(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<title>Other</title>`)
	}))
	defer other.Close()
	mux := http.NewServeMux()
	page := func(body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, body)
		}
	}
	mux.HandleFunc("/site/{$}", page(`<html><head><base href="ftp://files.example/"><title>Home</title></head>`+
		`<body><a href="a.html">A</a><iframe src="frame.html" title="Frame"></iframe></body></html>`))
	mux.HandleFunc("/site/a.html", page(`<html><head><base href="javascript:void(0)"></head><body><a href="b.html">B</a></body></html>`))
	mux.HandleFunc("/site/b.html", page(`<html><head><base target="_top"><base href="/site/sub/"><base href="/site/wrong/"></head>`+
		`<body><a href="c.html">C</a><iframe src="f.html" title="F"></iframe></body></html>`))
	mux.HandleFunc("/site/frame.html", page(`<title>Frame</title><a href="loop.html">Loop</a>`))
	mux.HandleFunc("/site/loop.html", page(`<html><head><base href="`+other.URL+`/site/"></head><body><a href="x.html">X</a></body></html>`))
	for _, p := range []string{"/site/sub/c.html", "/site/sub/f.html"} {
		mux.HandleFunc(p, page(`<title>Leaf</title>`))
	}
	srv := httptest.NewServer(mux)
	defer srv.Close()
	u := func(p string) string { return srv.URL + p }

	// The site's own server is reached; any other address goes through
	// the daemon's fetcher, allowed to reach private networks or not.
	strict := fetch.New(fetch.Options{HostConcurrency: 4, TotalTimeout: 30 * time.Second})
	for _, tc := range []struct {
		name    string
		private vigil.Fetcher
		otherOK bool
	}{
		{"private networks refused", strict, false},
		{"private networks allowed", loopbackFetcher(), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := fetcherFunc(func(ctx context.Context, req *vigil.FetchRequest) (*vigil.FetchResult, error) {
				if strings.HasPrefix(req.URL, srv.URL+"/") {
					return loopbackFetcher().Fetch(ctx, req)
				}
				return tc.private.Fetch(ctx, req)
			})
			q := crawl.NewQuery(u("/site/"))
			q.Scope = []string{u("/site/"), other.URL + "/site/"}
			snap := crawlSite(t, f, q)
			var got []string
			for _, p := range snap.Pages {
				got = append(got, p.URL)
			}
			want := []string{u("/site/"), u("/site/a.html"), u("/site/frame.html"), u("/site/b.html"), u("/site/loop.html"),
				u("/site/sub/c.html"), u("/site/sub/f.html"), other.URL + "/site/x.html"}
			if !slices.Equal(got, want) {
				t.Fatalf("pages\n%q\nwant\n%q", got, want)
			}
			if home := snap.Page(u("/site/")); !slices.Equal(home.Links, []crawl.Link{{u("/site/a.html"), "A"}, {u("/site/frame.html"), "Frame"}}) {
				t.Errorf("home links %v, resolved against its address, its ftp: base passed over", home.Links)
			}
			if b := snap.Page(u("/site/b.html")); !slices.Equal(b.Links, []crawl.Link{{u("/site/sub/c.html"), "C"}, {u("/site/sub/f.html"), "F"}}) {
				t.Errorf("b.html links %v, resolved against its first base with an href", b.Links)
			}
			x := snap.Page(other.URL + "/site/x.html")
			if tc.otherOK {
				if x.Failed() || x.Title != "Other" {
					t.Errorf("the page a base led to, private networks allowed: %+v", x)
				}
			} else if !x.Failed() || !strings.Contains(x.Error, "loopback") || x.Title != "" {
				t.Errorf("the page a base led to on loopback, private networks refused: %+v, want refused", x)
			}
		})
	}
}
