package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestRenderChromiumFinalURL: a rendered page's result names its main
// document's final URL, after its redirects, as the plain fetch's does, so
// that its links and the dashboard resolve against the page shown; a page
// not redirected keeps the URL as asked (its fragment with it), where the
// browser spells it otherwise, and one redirected to a fragment names it,
// as the plain fetch does (the browser's answer has none). It named the
// URL asked, whatever page the redirects led to.
func TestRenderChromiumFinalURL(t *testing.T) {
	needChromium(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/old":
			http.Redirect(w, r, "/new/", http.StatusMovedPermanently)
		case "/section":
			http.Redirect(w, r, "/new/#prices", http.StatusFound)
		case "/twice":
			http.Redirect(w, r, "/old?from=twice", http.StatusFound)
		case "/lost":
			http.Redirect(w, r, "/missing", http.StatusFound)
		case "/missing":
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `<!DOCTYPE html><html><body>no such page</body></html>`)
		default:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<!DOCTYPE html><html><body><a href="page.html">a link</a></body></html>`)
		}
	}))
	defer srv.Close()
	chrome := &Chromium{}
	defer chrome.Close()
	c := testClient(Options{IgnoreRobots: true, Renderer: chrome, TotalTimeout: 60 * time.Second})
	for _, tc := range []struct {
		path, want string
		status     int
	}{
		{"/old", "/new/", 200},
		{"/twice", "/new/", 200},
		{"/section", "/new/#prices", 200},
		{"/new/#top", "/new/#top", 200},
		{"/lost", "/missing", 404},
	} {
		for _, render := range []bool{false, true} {
			res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + tc.path, Render: render})
			if res == nil || res.URL != srv.URL+tc.want || res.Status != tc.status {
				t.Errorf("fetch %s (render %v): %+v, %v; want the result of %s, status %d", tc.path, render, res, err, tc.want, tc.status)
				continue
			}
			if tc.status != 200 {
				if !errors.Is(err, ErrStatus) || !strings.Contains(err.Error(), "redirect to "+srv.URL+tc.want+": ") {
					t.Errorf("fetch %s (render %v): %v; want ErrStatus naming the redirect to %s", tc.path, render, err, tc.want)
				}
			} else if err != nil {
				t.Errorf("fetch %s (render %v): %v", tc.path, render, err)
			}
		}
	}
}
