package fetch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestRenderChromiumNoIcons: a render asks the page's host for no icon,
// neither /favicon.ico nor the one a <link rel="icon"> names, where the
// browser asked for one at every render, a request of the site's that the
// product never uses and that no robots.txt held; what the page loads to
// render (its images, scripts, styles, a worker's script) is still asked.
func TestRenderChromiumNoIcons(t *testing.T) {
	needChromium(t)
	var mu sync.Mutex
	asked := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked[r.URL.Path]++
		mu.Unlock()
		const body = `<link rel="stylesheet" href="/style.css"><script src="/app.js"></script></head>
<body><p>page</p><img src="/pic.png"><script>new Worker("/worker.js");</script></body></html>`
		switch r.URL.Path {
		case "/plain":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<!DOCTYPE html><html><head>` + body))
		case "/linked":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<!DOCTYPE html><html><head><link rel="icon" href="/icon.png">` + body))
		case "/style.css":
			w.Header().Set("Content-Type", "text/css")
			w.Write([]byte(`p { color: red; }`))
		case "/app.js", "/worker.js":
			w.Header().Set("Content-Type", "text/javascript")
			w.Write([]byte(`void 0;`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	// Settled long enough for the browser to ask for the page's icon,
	// which it does once the page is loaded.
	chrome := &Chromium{Settle: 2 * time.Second}
	defer chrome.Close()
	c := testClient(Options{IgnoreRobots: true, Renderer: chrome, TotalTimeout: 30 * time.Second})
	for _, page := range []string{"/plain", "/linked"} {
		t.Run(page[1:], func(t *testing.T) {
			mu.Lock()
			clear(asked)
			mu.Unlock()
			res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + page, Render: true})
			if err != nil || res.Status != http.StatusOK {
				t.Fatalf("render of %s: %+v, %v; want the page", page, res, err)
			}
			mu.Lock()
			defer mu.Unlock()
			for _, icon := range []string{"/favicon.ico", "/icon.png"} {
				if asked[icon] != 0 {
					t.Errorf("render of %s asked for %s %d times; want none", page, icon, asked[icon])
				}
			}
			for _, needed := range []string{page, "/pic.png", "/app.js", "/style.css", "/worker.js"} {
				if asked[needed] == 0 {
					t.Errorf("render of %s did not ask for %s (asked: %v)", page, needed, asked)
				}
			}
		})
	}
}
