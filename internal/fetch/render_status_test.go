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

// TestRenderChromiumStatus: a rendered page reports its main document's
// final status (after redirects), and one that is not 2xx fails with it
// (ErrStatus) as the plain fetch does, with no body, where the render
// reported 200 with the server's error page as the page.
func TestRenderChromiumStatus(t *testing.T) {
	needChromium(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/ok":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<!DOCTYPE html><html><body>fine</body></html>`))
		case "/gone":
			http.Redirect(w, r, "/missing", http.StatusFound)
		case "/broken":
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusInternalServerError)
			w.Write([]byte(`<!DOCTYPE html><html><body>oops</body></html>`))
		case "/moved":
			http.Redirect(w, r, "/ok", http.StatusMovedPermanently)
		default:
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`<!DOCTYPE html><html><body>no such page</body></html>`))
		}
	}))
	defer srv.Close()
	chrome := &Chromium{}
	defer chrome.Close()
	c := testClient(Options{IgnoreRobots: true, Renderer: chrome, TotalTimeout: 60 * time.Second})
	for _, tc := range []struct {
		path   string
		status int
	}{
		{"/ok", 200},
		{"/moved", 200},
		{"/missing", 404},
		{"/gone", 404},
		{"/broken", 500},
	} {
		for _, render := range []bool{false, true} {
			url := srv.URL + tc.path
			res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: url, Render: render})
			if res == nil || res.Status != tc.status {
				t.Errorf("fetch %s (render %v): %+v, %v; want status %d", tc.path, render, res, err, tc.status)
				continue
			}
			if tc.status/100 == 2 {
				if err != nil || len(res.Body) == 0 {
					t.Errorf("fetch %s (render %v): %v, %d bytes; want the page", tc.path, render, err, len(res.Body))
				}
				continue
			}
			if !errors.Is(err, ErrStatus) || !strings.HasPrefix(err.Error(), "fetch "+url+": ") ||
				!strings.Contains(err.Error(), http.StatusText(tc.status)) || len(res.Body) > 0 {
				t.Errorf("fetch %s (render %v): %v, body %q; want ErrStatus naming %d, no body", tc.path, render, err, res.Body, tc.status)
			}
		}
	}
}
