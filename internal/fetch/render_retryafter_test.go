package fetch

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestRenderChromiumRetryAfter: a rendered page whose main document
// answers 429 or 503 with Retry-After is rendered as the plain fetch
// fetches it: its host is left alone for that long, by the page's render
// and every other fetch of the host, and the page asked again once then,
// within the fetch's time; an answer that asks for longer than the fetch
// has fails with its status (ErrStatus), with or without a body. The
// render took the limited answer for the page, or failed with the
// browser's net::ERR_HTTP_RESPONSE_CODE_FAILURE when it had no body; and
// the browser asked the host for the limited page's images, and for its
// favicon, at once.
func TestRenderChromiumRetryAfter(t *testing.T) {
	needChromium(t)
	chrome := &Chromium{}
	defer chrome.Close()
	for _, tc := range []struct {
		name   string
		status int
		body   string
	}{
		{"429 without a body", http.StatusTooManyRequests, ""},
		{"503 with a page", http.StatusServiceUnavailable, `<!DOCTYPE html><html><body>down for a while<img src="/logo.png"></body></html>`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var until time.Time // no request before it
			var early []string  // the paths asked before it
			limited := false
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				defer mu.Unlock()
				if time.Now().Before(until) {
					early = append(early, r.URL.Path)
				}
				if r.URL.Path == "/favicon.ico" || r.URL.Path == "/logo.png" {
					http.NotFound(w, r)
					return
				}
				w.Header().Set("Content-Type", "text/html")
				switch {
				case r.URL.Path == "/a" && !limited, r.URL.Path == "/always":
					limited = true
					wait := "1"
					if r.URL.Path == "/always" {
						wait = "30"
					}
					until = time.Now().Add(time.Second)
					w.Header().Set("Retry-After", wait)
					w.WriteHeader(tc.status)
					w.Write([]byte(tc.body))
					return
				}
				w.Write([]byte("<!DOCTYPE html><html><body><p>" + r.URL.Path + "</p></body></html>"))
			}))
			defer srv.Close()
			c := testClient(Options{IgnoreRobots: true, Renderer: chrome, TotalTimeout: 20 * time.Second})
			res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/a", Render: true})
			if err != nil || res.Status != http.StatusOK {
				t.Fatalf("render of a page limited for a second: %+v, %v; want it read when asked again", res, err)
			}
			if _, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/b", Render: true}); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			if len(early) != 0 {
				t.Errorf("requests before the time Retry-After gave: %v", early)
			}
			mu.Unlock()
			res, err = c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/always", Render: true})
			if res == nil || res.Status != tc.status || !errors.Is(err, ErrStatus) || len(res.Body) != 0 {
				t.Errorf("render of a page limited for longer than the fetch's time: %+v, %v; want status %d, ErrStatus", res, err, tc.status)
			}
		})
	}
}
