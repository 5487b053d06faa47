package crawl_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/vigil-web/vigil/internal/crawl"
)

// TestCrawlBlockedFree: URLs robots.txt disallows are never requested, so
// they do not use up --max-pages: a start page linking to four disallowed
// pages before its three others reads all three within four fetches, in
// either order, and lists the four as blocked pages (the fetcher's error,
// Blocked set) that the crawl skipped. They took four of the four fetches,
// and the crawl stopped with the pages it was meant to read left unread.
func TestCrawlBlockedFree(t *testing.T) {
	var mu sync.Mutex
	asked := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked[r.URL.Path]++
		mu.Unlock()
		switch r.URL.Path {
		case "/robots.txt":
			io.WriteString(w, "User-agent: *\nDisallow: /site/private/\n")
		case "/site/":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<title>Home</title>
				<a href="private/1.html">1</a> <a href="private/2.html">2</a> <a href="private/3.html">3</a> <a href="private/4.html">4</a>
				<a href="a.html">A</a> <a href="b.html">B</a> <a href="c.html">C</a>`)
		default:
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, `<title>`+r.URL.Path+`</title>`)
		}
	}))
	defer srv.Close()
	for _, order := range []crawl.Order{crawl.OrderBreadth, crawl.OrderImportance} {
		t.Run(string(order), func(t *testing.T) {
			q := crawl.NewQuery(srv.URL + "/site/")
			q.Order = order
			q.MaxPages = 4
			snap := crawlSite(t, loopbackFetcher(), q)
			var read, blocked []string
			for _, p := range snap.Pages {
				path := strings.TrimPrefix(p.URL, srv.URL)
				switch {
				case p.Blocked:
					if !strings.Contains(p.Error, "robots.txt") || p.Status != 0 {
						t.Errorf("%s: blocked with status %d, error %q; want the robots.txt refusal", path, p.Status, p.Error)
					}
					blocked = append(blocked, path)
				case p.Failed():
					t.Errorf("%s failed: %s", path, p.Error)
				default:
					read = append(read, path)
				}
			}
			slices.Sort(read)
			slices.Sort(blocked)
			if want := []string{"/site/", "/site/a.html", "/site/b.html", "/site/c.html"}; !slices.Equal(read, want) {
				t.Errorf("pages read %q, want %q", read, want)
			}
			if want := []string{"/site/private/1.html", "/site/private/2.html", "/site/private/3.html", "/site/private/4.html"}; !slices.Equal(blocked, want) {
				t.Errorf("pages blocked %q, want %q", blocked, want)
			}
			if snap.Truncated {
				t.Error("truncated: the disallowed URLs took the page budget")
			}
			if st := snap.Stats(); st.Blocked != 4 || st.Failures != 4 {
				t.Errorf("stats: %d blocked, %d failures; want 4 and 4", st.Blocked, st.Failures)
			}
			mu.Lock()
			defer mu.Unlock()
			for p, n := range asked {
				if strings.HasPrefix(p, "/site/private/") {
					t.Errorf("%s requested %d times", p, n)
				}
			}
		})
	}
}
