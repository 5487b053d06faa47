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

// TestCrawlSkipsHostDNSRefuses: a link or a frame whose host DNS refuses
// (spec.CheckHostName) is no link of the crawl: not queued, not fetched,
// not among the page's links, as one IDNA refuses is not. A name with an
// empty label at its end, "127.0.0.1..", was keyed as "127.0.0.1", so the
// link was in the scope of a site served there, and followed.
func TestCrawlSkipsHostDNSRefuses(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.URL.Path)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		if r.URL.Path == "/site/" {
			dots := strings.Replace(srv.URL, "127.0.0.1", "127.0.0.1..", 1)
			w.Write([]byte(`<title>Home</title><a href="ok.html">ok</a>
<a href="` + dots + `/site/dots.html">dots</a> <iframe src="` + dots + `/site/frame.html" title="f"></iframe>
<a href="http://a..example/site/x.html">empty label</a>`))
			return
		}
		w.Write([]byte("<title>" + r.URL.Path + "</title>"))
	}))
	t.Cleanup(srv.Close)
	snap := crawlSite(t, loopbackFetcher(), crawl.NewQuery(srv.URL+"/site/"))
	var pages []string
	for _, p := range snap.Pages {
		pages = append(pages, strings.TrimPrefix(p.URL, srv.URL))
	}
	if want := []string{"/site/", "/site/ok.html"}; !slices.Equal(pages, want) {
		t.Errorf("pages %q, want %q", pages, want)
	}
	if home := snap.Page(srv.URL + "/site/"); home == nil || !slices.Equal(home.Links, []crawl.Link{{Target: srv.URL + "/site/ok.html", Label: "ok"}}) {
		t.Errorf("the start page: %+v, want the link to ok.html alone", home)
	}
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(asked)
	if want := []string{"/robots.txt", "/site/", "/site/ok.html"}; !slices.Equal(asked, want) {
		t.Errorf("asked %q, want %q", asked, want)
	}
}
