package fetch

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

func TestBrowserEnv(t *testing.T) {
	environ := []string{
		"PATH=/usr/bin:/bin", "HOME=/home/vigil", "LANG=C.UTF-8", "LC_ALL=C", "TZ=Europe/Paris",
		"XDG_CACHE_HOME=/var/cache/vigil", "CHROME_DEVEL_SANDBOX=/usr/lib/chromium/chrome-sandbox", "TMPDIR=/var/tmp",
		"CHROMIUM_FLAGS=--no-sandbox", "CHROME_API_TOKEN=t", "VIGIL_ADMIN_PASSWORD=correct horse battery", "VIGIL_SMTP_PASSWORD=smtp-secret",
		"VIGIL_POSTGRES_DSN=postgres://vigil:pw@db/vigil", "VIGIL_PROXY=http://u:p@proxy:3128",
		"HTTP_PROXY=http://u:p@proxy:3128", "https_proxy=http://u:p@proxy:3128",
		"AWS_SECRET_ACCESS_KEY=abc", "PGPASSWORD=pw", "PATHOLOGICAL=1", "XDG", "=odd",
	}
	want := []string{
		"PATH=/usr/bin:/bin", "HOME=/home/vigil", "LANG=C.UTF-8", "LC_ALL=C", "TZ=Europe/Paris",
		"XDG_CACHE_HOME=/var/cache/vigil", "CHROME_DEVEL_SANDBOX=/usr/lib/chromium/chrome-sandbox", "TMPDIR=/var/tmp",
	}
	if got := browserEnv(environ); !slices.Equal(got, want) {
		t.Errorf("browserEnv:\n got %q\nwant %q", got, want)
	}
}

// TestRenderChromiumEnvironment: the browser holds none of the secrets in
// Vigil's environment, and the variables it needs (PATH, HOME). The
// processes it starts (zygotes, renderers, the GPU process) inherit its
// environment; theirs cannot be read back, as each rewrites its title
// over it.
func TestRenderChromiumEnvironment(t *testing.T) {
	needChromium(t)
	const secret = "vigil-test-secret-8f3a"
	t.Setenv("VIGIL_ADMIN_PASSWORD", secret)
	t.Setenv("VIGIL_SMTP_PASSWORD", secret)
	t.Setenv("HOME", t.TempDir())
	t.Setenv("PATH", "/usr/local/bin:/usr/bin:/bin")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!DOCTYPE html><html><body><p>page</p></body></html>`)
	}))
	defer srv.Close()
	chrome := &Chromium{Settle: 100 * time.Millisecond, Allow: func(ctx context.Context, url string) error { return nil }}
	defer chrome.Close()
	testClient(Options{IgnoreRobots: true, Renderer: chrome, TotalTimeout: 30 * time.Second})
	if _, err := chrome.RenderPage(context.Background(), srv.URL+"/"); err != nil {
		t.Fatalf("render: %v", err)
	}
	chrome.mu.Lock()
	proc := chromedp.FromContext(chrome.browser).Browser.Process()
	chrome.mu.Unlock()
	if proc == nil {
		t.Fatal("no browser process")
	}
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(proc.Pid), "environ"))
	if err != nil {
		t.Fatalf("the browser's environment cannot be read: %v", err)
	}
	env := strings.Split(strings.TrimSuffix(string(b), "\x00"), "\x00")
	for _, kv := range env {
		if strings.Contains(kv, secret) {
			t.Errorf("the browser holds %q", kv)
		}
	}
	for _, name := range []string{"PATH", "HOME"} {
		if !slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, name+"=") }) {
			t.Errorf("the browser has no %s: %q", name, env)
		}
	}
}
