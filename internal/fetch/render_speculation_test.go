package fetch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestRenderChromiumNoSpeculativeLoads: a page that asks the browser to
// prerender and prefetch other documents, by speculation rules (a list,
// and document rules eager for every link) and by link hints, renders
// with no request for any of them, where the browser asked the site for
// each, held to no robots.txt. The page's own fetch() still goes through.
// The browser's profile, made for it, and its temporary files are gone
// once it is closed.
func TestRenderChromiumNoSpeculativeLoads(t *testing.T) {
	needChromium(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where browserProfile makes the profile
	var mu sync.Mutex
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.URL.Path)
		mu.Unlock()
		switch r.URL.Path {
		case "/a":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<!DOCTYPE html><html><head>
<link rel="prefetch" href="/hint-prefetch"><link rel="prerender" href="/hint-prerender">
</head><body><p>page a</p><a href="/link">a link</a><p id="got"></p>
<script type="speculationrules">{"prerender": [{"source": "list", "urls": ["/rule-prerender"]}],
"prefetch": [{"source": "list", "urls": ["/rule-prefetch"]},
{"source": "document", "where": {"href_matches": "/*"}, "eagerness": "immediate"}]}</script>
<script>fetch("/data").then(r => r.text()).then(t => document.getElementById("got").textContent = t);</script>
</body></html>`))
		case "/data":
			w.Header().Set("Content-Type", "text/plain")
			w.Write([]byte("fetched data"))
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(`<!DOCTYPE html><html><body><p>another page</p></body></html>`))
		}
	}))
	defer srv.Close()
	chrome := &Chromium{Settle: time.Second, Allow: func(ctx context.Context, url string) error { return nil }}
	defer chrome.Close()
	testClient(Options{IgnoreRobots: true, Renderer: chrome, TotalTimeout: 30 * time.Second})
	p, err := chrome.RenderPage(context.Background(), srv.URL+"/a")
	if err != nil {
		t.Fatalf("render: %v", err)
	}
	if body := p.HTML; !strings.Contains(body, "page a") || !strings.Contains(body, "fetched data") {
		t.Errorf("rendered page: %s; want page a with its fetched data", body)
	}
	chrome.Close()
	mu.Lock()
	for _, path := range asked {
		if path != "/a" && path != "/data" {
			t.Errorf("the site was asked for %s, a document the page only hinted at (asked: %s)", path, strings.Join(asked, " "))
		}
	}
	mu.Unlock()
	// Nothing is left: neither the profile nor the directory the
	// browser makes in its TMPDIR at each start (its singleton's socket,
	// org.chromium.Chromium.*), which it leaves when killed.
	left, err := os.ReadDir(tmp)
	if err != nil || len(left) != 0 {
		var names []string
		for _, e := range left {
			names = append(names, e.Name())
		}
		t.Errorf("after the browser closed, the temporary directory holds %v (%v); want nothing", names, err)
	}
}
