package fetch

import (
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestRenderChromiumKeepsNoStorage renders a page whose script stores
// 150 MB in the Cache Storage of its origin, and a cookie: once the render
// is over, none of it is left in the browser's profile on disk (each
// render has a browser context of its own, discarded with its tab), so
// that a page rendered at every check cannot fill the host's disk, and a
// second render, as another user's page would be, finds no cookie of the
// first. TMPDIR points at a temporary directory for the test: the
// browser's profile is made there.
func TestRenderChromiumKeepsNoStorage(t *testing.T) {
	needChromium(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!DOCTYPE html><html><body><p id="out">page</p>
<script>
var out = document.getElementById("out");
out.textContent = "cookie before: [" + document.cookie + "]";
document.cookie = "kept=yes; max-age=86400";
(async () => {
  const cache = await caches.open("fill");
  const block = new Uint8Array(50 << 20);
  for (let i = 0; i < 3; i++) { block[0] = i; await cache.put("/block" + i, new Response(block)); }
  out.textContent += " stored";
})().catch(e => out.textContent += " refused: " + e.name);
</script></body></html>`)
	}))
	defer srv.Close()
	chrome := &Chromium{Settle: 3 * time.Second}
	defer chrome.Close()
	c := testClient(Options{IgnoreRobots: true, Renderer: chrome, TotalTimeout: 60 * time.Second})
	for i, want := range []string{"cookie before: []", "cookie before: []"} {
		res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/", Render: true})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(res.Body), want) {
			t.Errorf("render %d: the page found another render's cookie:\n%s", i+1, res.Body)
		}
		if !strings.Contains(string(res.Body), "stored") && !strings.Contains(string(res.Body), "refused") {
			t.Fatalf("render %d: the page's script did not finish storing:\n%s", i+1, res.Body)
		}
	}
	var size int64
	filepath.WalkDir(tmp, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				size += info.Size()
			}
		}
		return nil
	})
	if size > 50<<20 {
		t.Errorf("the browser's profile holds %d MB after two renders of a page that stores 150 MB", size>>20)
	}
}
