package fetch

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestRenderChromiumNoDownloads renders a page that makes the browser
// download files (a frame served as an attachment, and a script's click on
// a link with a download attribute): the browser saves none of them, so
// that a watched page cannot write files of its choosing, of any size, to
// the daemon's host. HOME points at a temporary directory for the test:
// Chromium saves to its Downloads folder.
func TestRenderChromiumNoDownloads(t *testing.T) {
	needChromium(t)
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_DOWNLOAD_DIR", filepath.Join(home, "Downloads"))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/file" {
			w.Header().Set("Content-Disposition", "attachment; filename=planted.txt")
			fmt.Fprint(w, "written by the watched page")
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!DOCTYPE html><html><body><p>page</p><iframe src="/file"></iframe>
<script>var a = document.createElement("a"); a.href = URL.createObjectURL(new Blob(["blob"])); a.download = "blob.txt";
document.body.appendChild(a); a.click();</script></body></html>`)
	}))
	defer srv.Close()
	chrome := &Chromium{Settle: time.Second}
	defer chrome.Close()
	c := testClient(Options{IgnoreRobots: true, Renderer: chrome, TotalTimeout: 60 * time.Second})
	if _, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/", Render: true}); err != nil {
		t.Fatal(err)
	}
	// A download may end after the render: look again for a while.
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		var saved []string
		filepath.WalkDir(home, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && filepath.Base(filepath.Dir(path)) == "Downloads" {
				saved = append(saved, path)
			}
			return nil
		})
		if len(saved) > 0 {
			t.Fatalf("the rendered page made the browser save %v", saved)
		}
	}
}
