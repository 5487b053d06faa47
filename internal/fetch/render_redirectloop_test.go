package fetch

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestRenderChromiumRedirectLoop: a rendered page whose redirects lead
// back to a document the navigation asked already, until the browser
// gives up, fails naming the loop as the plain fetch does ("redirect
// loop: A → B → A", ErrRedirects), where the render said only
// net::ERR_TOO_MANY_REDIRECTS. A page that sends the browser back to
// itself once with a cookie is no loop, and renders.
func TestRenderChromiumRedirectLoop(t *testing.T) {
	needChromium(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/cookie" {
			// A page that sets a cookie and sends the browser back to
			// itself to see it: no loop for a browser, which has it.
			if _, err := r.Cookie("seen"); err != nil {
				http.SetCookie(w, &http.Cookie{Name: "seen", Value: "1"})
				http.Redirect(w, r, "/cookie", http.StatusFound)
				return
			}
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<!DOCTYPE html><html><body>cookie seen</body></html>`))
			return
		}
		to := map[string]string{"/a": "/b", "/b": "/a", "/self": "/self"}[r.URL.Path]
		if to == "" {
			http.NotFound(w, r)
			return
		}
		http.Redirect(w, r, to, http.StatusFound)
	}))
	defer srv.Close()
	u := func(p string) string { return srv.URL + p }
	chrome := &Chromium{}
	defer chrome.Close()
	c := testClient(Options{IgnoreRobots: true, Renderer: chrome, TotalTimeout: 60 * time.Second})
	for _, tc := range []struct{ path, want string }{
		{"/a", "fetch " + u("/a") + ": render: redirect loop: " + u("/a") + " → " + u("/b") + " → " + u("/a")},
		{"/self", "fetch " + u("/self") + ": render: redirect loop: " + u("/self") + " → " + u("/self")},
	} {
		_, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: u(tc.path), Render: true})
		if err == nil || err.Error() != tc.want || !errors.Is(err, ErrRedirects) {
			t.Errorf("render %s: %v\nwant %s (ErrRedirects)", tc.path, err, tc.want)
		}
	}
	res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: u("/cookie"), Render: true})
	if err != nil || !strings.Contains(string(res.Body), "cookie seen") {
		t.Errorf("render of a page that redirects to itself once, with a cookie: %v", err)
	}
}
