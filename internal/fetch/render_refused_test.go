package fetch

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestRenderChromiumRefused: a main-frame document the guard proxy
// refuses (its address is loopback, the client does not allow private
// networks) fails the render with the guard's reason, naming the URL,
// where the browser showed the proxy's 403 as the page and Render
// returned it with a nil error: a direct caller of Render, and a client
// whose page redirects to such an address, took the refusal for the page.
func TestRenderChromiumRefused(t *testing.T) {
	needChromium(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, "http://[::1]:8080/private", http.StatusFound)
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<!DOCTYPE html><html><body>public</body></html>`))
		}
	}))
	defer srv.Close()
	chrome := &Chromium{}
	defer chrome.Close()
	only := netip.MustParseAddr("127.0.0.1")
	c := New(Options{IgnoreRobots: true, Renderer: chrome, TotalTimeout: 60 * time.Second, permit: func(a netip.Addr) bool { return a == only }})
	ctx := context.Background()
	if html, err := chrome.Render(ctx, srv.URL+"/"); err != nil || !strings.Contains(html, "public") {
		t.Fatalf("Render of the permitted page: %v\n%s", err, html)
	}
	for _, tc := range []struct {
		name string
		run  func() (string, error)
	}{
		{"Render", func() (string, error) { return chrome.Render(ctx, "http://[::1]:8080/private") }},
		{"Render https", func() (string, error) { return chrome.Render(ctx, "https://[::1]:8080/private") }},
		{"Fetch redirect", func() (string, error) {
			res, err := c.Fetch(ctx, &vigil.FetchRequest{URL: srv.URL + "/away", Render: true})
			if res != nil {
				return string(res.Body), err
			}
			return "", err
		}},
	} {
		html, err := tc.run()
		if err == nil || !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "://[::1]:8080/private:") ||
			!strings.Contains(err.Error(), "::1 is a loopback address") {
			t.Errorf("%s of a refused address: %v\n%s\nwant ErrRefused naming the URL and the reason", tc.name, err, html)
		}
	}
}
