package fetch

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vigil-web/vigil"
)

// TestRobotsRedirectsWithoutEnd: a robots.txt whose redirects loop, or
// run past MaxRedirects, is unavailable, as RFC 9309 (§2.3.1.2) lets a
// crawler take it: no rules (a 4xx's), kept in the cache as any answer.
// Every page of its host failed with "robots.txt: too many redirects",
// where a browser shows them, and each fetch asked robots.txt again
// through its whole chain.
func TestRobotsRedirectsWithoutEnd(t *testing.T) {
	for _, tc := range []struct {
		name string
		next func(path string) string // where robots.txt's hop at path leads
	}{
		{"loop", func(path string) string {
			if path == "/robots.txt" {
				return "/elsewhere/robots.txt"
			}
			return "/robots.txt"
		}},
		{"endless", func(path string) string { return path + "x" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var robots atomic.Int32
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if strings.HasSuffix(r.URL.Path, "/robots.txt") || strings.HasPrefix(r.URL.Path, "/robots.txt") {
					robots.Add(1)
					http.Redirect(w, r, tc.next(r.URL.Path), http.StatusFound)
					return
				}
				io.WriteString(w, "page")
			}))
			defer srv.Close()
			c := testClient(Options{})
			for i := range 2 {
				res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/page"})
				if err != nil || string(res.Body) != "page" {
					t.Fatalf("fetch %d: %v; want the page, robots.txt unavailable", i+1, err)
				}
			}
			if n, most := robots.Load(), int32(c.opt.MaxRedirects+1); n > most {
				t.Errorf("robots.txt's chain asked %d times in two fetches, want at most %d (once, then cached)", n, most)
			}
		})
	}
}
