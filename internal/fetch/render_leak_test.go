package fetch

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
	"github.com/vigil-web/vigil"
)

// TestRenderChromiumLeavesNoTabs renders many pages, some that load, some
// too large, some that time out and some refused by robots.txt: once they
// are over, the browser holds no more tabs than before them and no browser
// context of theirs, so that a daemon rendering pages at every check does
// not grow a tab, and its memory, for each.
func TestRenderChromiumLeavesNoTabs(t *testing.T) {
	needChromium(t)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
		case "/slow":
			select {
			case <-release:
			case <-r.Context().Done():
			}
		case "/large":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<!DOCTYPE html><p id="out"></p><script>document.getElementById("out").textContent = "A".repeat(4 << 20);</script>`)
		default:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<!DOCTYPE html><p>page</p>`)
		}
	}))
	defer srv.Close()
	defer close(release)
	chrome := &Chromium{}
	defer chrome.Close()
	// The fetch's time is generous, for a loaded machine where Chromium
	// takes seconds to start or to open a tab; the slow page's render is
	// given up by its request's deadline instead.
	c := testClient(Options{Renderer: chrome, TotalTimeout: time.Minute, MaxDecodedSize: 2 << 20})
	render := func(path string) error {
		ctx := context.Background()
		if path == "/slow" {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, 2*time.Second)
			defer cancel()
		}
		_, err := c.Fetch(ctx, &vigil.FetchRequest{URL: srv.URL + path, Render: true})
		return err
	}
	if err := render("/"); err != nil {
		t.Fatal(err)
	}
	count := func() (pages, contexts int) {
		t.Helper()
		chrome.mu.Lock()
		b := chrome.browser
		chrome.mu.Unlock()
		targets, err := chromedp.Targets(b)
		if err != nil {
			t.Fatal(err)
		}
		for _, tg := range targets {
			if tg.Type == "page" {
				pages++
			}
		}
		ids, err := chromedp.CallBrowser(b, target.GetBrowserContexts, cdp.Empty{})
		if err != nil {
			t.Fatal(err)
		}
		return pages, len(ids.BrowserContextIDs)
	}
	pages0, contexts0 := count()
	for i := range 12 {
		path := []string{"/", "/large", "/slow", "/private"}[i%4]
		err := render(path)
		if (path == "/") != (err == nil) {
			t.Errorf("render of %s: %v", path, err)
		}
	}
	// The slow page again, given up by the fetch's own time this once.
	short := testClient(Options{Renderer: chrome, TotalTimeout: 2 * time.Second, MaxDecodedSize: 2 << 20})
	if _, err := short.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/slow", Render: true}); err == nil {
		t.Errorf("render of /slow past the fetch's time: no error")
	}
	pages, contexts := count()
	if pages != pages0 || contexts != contexts0 {
		t.Errorf("after 13 renders the browser holds %d tabs and %d browser contexts, want %d and %d as before them",
			pages, contexts, pages0, contexts0)
	}
}
