package fetch

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestRenderChromiumProxyCredentials: the browser's guard proxy refuses a
// local client without its credentials (407), as it would forward that
// client with the operator's proxy's, while a rendered page, its document,
// a script's request and an image, still loads through it: the browser is
// given the credentials when the proxy asks.
func TestRenderChromiumProxyCredentials(t *testing.T) {
	needChromium(t)
	var image atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/data":
			fmt.Fprint(w, "fetched by script")
		case "/pixel.gif":
			image.Store(true)
			w.Header().Set("Content-Type", "image/gif")
		default:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<!DOCTYPE html><html><body><div id="out">static</div><img src="/pixel.gif">
<script>fetch("/data").then(r => r.text()).then(t => document.getElementById("out").textContent = t);</script></body></html>`)
		}
	}))
	defer srv.Close()
	chrome := &Chromium{Settle: 500 * time.Millisecond}
	defer chrome.Close()
	c := testClient(Options{IgnoreRobots: true, Renderer: chrome, TotalTimeout: 30 * time.Second})
	for i := range 2 { // the second in a browser context of its own, which asks again
		res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/", Render: true})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(res.Body), "fetched by script") {
			t.Errorf("render %d: the script's request did not load through the guard proxy:\n%s", i+1, res.Body)
		}
	}
	if !image.Load() {
		t.Error("the page's image did not load through the guard proxy")
	}
	chrome.mu.Lock()
	proxyURL := chrome.proxy.URL()
	chrome.mu.Unlock()
	pu, _ := url.Parse(proxyURL)
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(pu)}}
	resp, err := client.Get(srv.URL + "/data")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusProxyAuthRequired {
		t.Errorf("a local client without the guard proxy's credentials: status %d, want 407", resp.StatusCode)
	}
}
