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
)

// TestRenderChromiumPrerenderHeldToRobots: a page whose speculation rules
// prerender a document Allow refuses, and whose script then sends the tab
// there, fails with Allow's refusal, where the browser activated the
// page it had prerendered, a request of no tab's main frame, which the
// gate never held to robots.txt, and the render returned it as the page.
func TestRenderChromiumPrerenderHeldToRobots(t *testing.T) {
	needChromium(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/a":
			w.Write([]byte(`<!DOCTYPE html><html><body><p>page a</p>
<script type="speculationrules">{"prerender": [{"source": "list", "urls": ["/private"]}]}</script>
<script>setTimeout(() => location.href = "/private", 1500);</script></body></html>`))
		case "/private":
			w.Write([]byte(`<!DOCTYPE html><html><body><p>private page</p></body></html>`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	disallowed := fmt.Errorf("%w: the test's", ErrRobots)
	// Settled long enough for the script to leave the page.
	chrome := &Chromium{Settle: 3 * time.Second, Allow: func(ctx context.Context, url string) error {
		if strings.HasSuffix(url, "/private") {
			return disallowed
		}
		return nil
	}}
	defer chrome.Close()
	testClient(Options{IgnoreRobots: true, Renderer: chrome, TotalTimeout: 30 * time.Second})
	p, err := chrome.RenderPage(context.Background(), srv.URL+"/a")
	if !errors.Is(err, ErrRobots) || p != nil {
		t.Errorf("render of a page that prerenders a disallowed page and goes there: %+v, %v; want the refusal", p, err)
	}
}
