package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

// TestRedirectLoop: a fetch whose redirects lead back to a page it
// already asked fails as soon as they do, naming the loop and the pages
// on it, in order, from the page asked to the page met again ("redirect
// loop: A → B → A"), where it followed the loop up to MaxRedirects and
// said only "too many redirects: more than 10 redirects". A long chain
// without a loop still fails at the cap, saying so; both are
// ErrRedirects.
func TestRedirectLoop(t *testing.T) {
	hits := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits[r.URL.Path]++
		to := map[string]string{
			"/a": "/b", "/b": "/a", // A → B → A
			"/self": "/self",
			"/x":    "/y", "/y": "/z", "/z": "/y", // a loop entered later
		}[r.URL.Path]
		if strings.HasPrefix(r.URL.Path, "/chain/") {
			var n int
			fmt.Sscanf(r.URL.Path, "/chain/%d", &n)
			to = fmt.Sprintf("/chain/%d", n+1)
		}
		if to == "" {
			http.NotFound(w, r)
			return
		}
		http.Redirect(w, r, to, http.StatusFound)
	}))
	defer srv.Close()
	u := func(p string) string { return srv.URL + p }
	c := testClient(Options{IgnoreRobots: true})
	for _, tc := range []struct {
		path, want string
		requests   int
	}{
		{"/a", "fetch " + u("/a") + ": redirect loop: " + u("/a") + " → " + u("/b") + " → " + u("/a"), 2},
		{"/self", "fetch " + u("/self") + ": redirect loop: " + u("/self") + " → " + u("/self"), 1},
		{"/x", "fetch " + u("/x") + ": redirect loop: " + u("/x") + " → " + u("/y") + " → " + u("/z") + " → " + u("/y"), 3},
		{"/chain/0", "fetch " + u("/chain/0") + ": too many redirects: more than 10 redirects", 11},
	} {
		clear(hits)
		_, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: u(tc.path)})
		if err == nil || err.Error() != tc.want || !errors.Is(err, ErrRedirects) {
			t.Errorf("Fetch(%s): %v\nwant %s (ErrRedirects)", tc.path, err, tc.want)
		}
		n := 0
		for _, h := range hits {
			n += h
		}
		if n != tc.requests {
			t.Errorf("Fetch(%s): %d requests, want %d", tc.path, n, tc.requests)
		}
	}
}
