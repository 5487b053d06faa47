package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/vigil-web/vigil"
)

// needChromium skips the test when Debian's chromium is absent, unless
// VIGIL_TEST_CHROMIUM is set (CI), which makes it fail.
func needChromium(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(ChromiumPath); err != nil {
		if os.Getenv("VIGIL_TEST_CHROMIUM") != "" {
			t.Fatalf("VIGIL_TEST_CHROMIUM is set but %s is missing: install the chromium package", ChromiumPath)
		}
		t.Skipf("%s not installed (apt-get install chromium); set VIGIL_TEST_CHROMIUM=1 to make this a failure", ChromiumPath)
	}
}

// TestRenderChromium renders a page whose content is written by a script,
// in the real browser. It needs Debian's chromium; without it the test
// skips, unless VIGIL_TEST_CHROMIUM is set (CI), which makes it fail.
func TestRenderChromium(t *testing.T) {
	needChromium(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!DOCTYPE html><html><body><div id="out">static</div>
<script>document.getElementById("out").textContent = "written by " + "script";</script></body></html>`)
	}))
	defer srv.Close()
	chrome := &Chromium{}
	defer chrome.Close()
	c := testClient(Options{IgnoreRobots: true, Renderer: chrome, TotalTimeout: 60 * time.Second})
	res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/", Render: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.Body), "written by script") {
		t.Errorf("rendered page lacks the script's text:\n%s", res.Body)
	}
	plain, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(plain.Body), "written by script</div>") {
		t.Error("plain fetch ran the script?")
	}

	strict := New(Options{IgnoreRobots: true, Renderer: chrome})
	if _, err := strict.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/", Render: true}); err == nil {
		t.Error("rendering a loopback page without the allow flag succeeded")
	}
}

// TestRenderChromiumGuard renders a page that loads an image, a frame, a
// script's request and a WebRTC STUN exchange from a loopback address the
// client refuses: the
// browser's requests go through the client's guard (guardProxy), so none
// reaches it, while what the page loads from its own, permitted, address
// does.
func TestRenderChromiumGuard(t *testing.T) {
	needChromium(t)
	ln, err := net.Listen("tcp", "127.0.0.2:0")
	if err != nil {
		t.Skipf("cannot listen on 127.0.0.2: %v", err)
	}
	var mu sync.Mutex
	var private, own []string
	inner := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		private = append(private, r.URL.Path)
		mu.Unlock()
		w.Header().Set("Access-Control-Allow-Origin", "*")
		fmt.Fprint(w, "secret")
	}))
	inner.Listener = ln
	inner.Start()
	defer inner.Close()
	// A STUN server there too: WebRTC's UDP must not go around the proxy.
	udp, err := net.ListenPacket("udp", "127.0.0.2:0")
	if err != nil {
		t.Skipf("cannot listen on 127.0.0.2 (UDP): %v", err)
	}
	defer udp.Close()
	var stun int
	go func() {
		buf := make([]byte, 1500)
		for {
			if _, _, err := udp.ReadFrom(buf); err != nil {
				return
			}
			mu.Lock()
			stun++
			mu.Unlock()
		}
	}()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		own = append(own, r.URL.Path)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!DOCTYPE html><html><body><div id="out">page</div><img src="/own.png"><img src="%[1]s/img.png">
<iframe src="%[1]s/frame"></iframe><script>fetch("%[1]s/api").then(r => r.text()).then(s => document.getElementById("out").textContent = s);
const pc = new RTCPeerConnection({iceServers: [{urls: "stun:%[2]s"}]}); pc.createDataChannel("x");
pc.createOffer().then(o => pc.setLocalDescription(o));</script>
</body></html>`, inner.URL, udp.LocalAddr())
	}))
	defer srv.Close()
	chrome := &Chromium{Settle: 500 * time.Millisecond}
	defer chrome.Close()
	only := netip.MustParseAddr("127.0.0.1")
	c := New(Options{IgnoreRobots: true, Renderer: chrome, TotalTimeout: 60 * time.Second, permit: func(a netip.Addr) bool { return a == only }})
	res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/", Render: true})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(private) != 0 || stun != 0 || strings.Contains(string(res.Body), "secret") {
		t.Errorf("the rendered page reached a refused address: %v, %d STUN packets\n%s", private, stun, res.Body)
	}
	if !slices.Contains(own, "/own.png") {
		t.Errorf("the page's own image was not loaded through the proxy: %v", own)
	}
}

// TestRenderChromiumRestarts: a browser whose process dies (a crash, the
// OOM killer) is started again at the next render, not left to fail every
// render after it.
func TestRenderChromiumRestarts(t *testing.T) {
	needChromium(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!DOCTYPE html><html><body><p id="p"></p><script>document.getElementById("p").textContent = "rendered";</script></body></html>`)
	}))
	defer srv.Close()
	chrome := &Chromium{}
	defer chrome.Close()
	c := testClient(Options{IgnoreRobots: true, Renderer: chrome, TotalTimeout: 60 * time.Second})
	render := func() error {
		res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/", Render: true})
		if err == nil && !strings.Contains(string(res.Body), "rendered</p>") {
			err = fmt.Errorf("the page lacks the script's text: %s", res.Body)
		}
		return err
	}
	if err := render(); err != nil {
		t.Fatal(err)
	}
	chrome.mu.Lock()
	browser := chrome.browser
	chrome.mu.Unlock()
	if err := chromedp.FromContext(browser).Browser.Process().Kill(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-browser.Done(): // chromedp saw the process exit
	case <-time.After(30 * time.Second):
		t.Fatal("the browser's context outlived its process")
	}
	if err := render(); err != nil {
		t.Errorf("render after the browser died: %v", err)
	}
}

// TestRenderChromiumTimeout: a page that does not load within the
// fetch's TotalTimeout fails with context.DeadlineExceeded, not with the
// context.Canceled of the tab closed for it.
func TestRenderChromiumTimeout(t *testing.T) {
	needChromium(t)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	chrome := &Chromium{}
	defer chrome.Close()
	c := testClient(Options{IgnoreRobots: true, Renderer: chrome, TotalTimeout: 2 * time.Second})
	_, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/", Render: true})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("render of a page that never loads: %v, want context.DeadlineExceeded", err)
	}
}
