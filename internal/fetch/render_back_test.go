package fetch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestRenderChromiumHistoryBack: a page whose script sends the tab to
// another, which comes back to it (history.back(), the page restored from
// the browser's back/forward cache), is read as the tab shows it once
// there, where the render waited for a document chromedp's tracking of
// the DOM never saw to the fetch's deadline, and failed.
func TestRenderChromiumHistoryBack(t *testing.T) {
	needChromium(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/a":
			w.Write([]byte(`<!DOCTYPE html><html><body><p>page a</p><script>if (!sessionStorage.getItem("left")) {
sessionStorage.setItem("left", "1"); addEventListener("load", () => setTimeout(() => location.href = "/b", 50)); }</script></body></html>`))
		case "/b":
			w.Write([]byte(`<!DOCTYPE html><html><body><p>page b</p><script>addEventListener("load", () => setTimeout(() => history.back(), 50));</script></body></html>`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	// Settled long enough for the tab to be back on the page.
	chrome := &Chromium{Settle: 2 * time.Second}
	defer chrome.Close()
	c := testClient(Options{IgnoreRobots: true, Renderer: chrome, TotalTimeout: 20 * time.Second})
	res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/a", Render: true})
	if err != nil || !strings.Contains(string(res.Body), "page a") || res.URL != srv.URL+"/a" {
		t.Errorf("render of a page a script leaves and comes back to: %+v, %v; want page a", res, err)
	}
}
