package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/vigil-web/vigil"
)

// TestRenderChromiumCapsDocument renders a page whose script writes a
// document far larger than the cap on a body (MaxDecodedSize): the page
// fails with ErrTooLarge, as a fetched page over the cap does, rather
// than handing the monitor a body of any size a script may build.
func TestRenderChromiumCapsDocument(t *testing.T) {
	needChromium(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, `<!DOCTYPE html><html><body><div id="out">static</div>
<script>document.getElementById("out").textContent = "A".repeat(4 << 20);</script></body></html>`)
	}))
	defer srv.Close()
	chrome := &Chromium{}
	defer chrome.Close()
	c := testClient(Options{IgnoreRobots: true, Renderer: chrome, TotalTimeout: 60 * time.Second,
		MaxBodySize: 1 << 20, MaxDecodedSize: 2 << 20})
	res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/", Render: true})
	if !errors.Is(err, ErrTooLarge) {
		n := 0
		if res != nil {
			n = len(res.Body)
		}
		t.Fatalf("rendered a 4 MiB document under a 2 MiB cap: %d bytes, %v; want ErrTooLarge", n, err)
	}
}

// documentRenderer renders every page as doc: a Renderer other than
// Chromium, which the client holds to the cap itself.
type documentRenderer string

func (d documentRenderer) Render(context.Context, string) (string, error) { return string(d), nil }

// TestRenderCapsDocument: a rendered document over MaxDecodedSize fails
// with ErrTooLarge, whatever renders it; one at the cap is taken.
func TestRenderCapsDocument(t *testing.T) {
	const limit = 1 << 10
	for _, tc := range []struct {
		size    int
		wantErr bool
	}{{limit, false}, {limit + 1, true}} {
		doc := strings.Repeat("A", tc.size)
		c := testClient(Options{IgnoreRobots: true, Renderer: documentRenderer(doc), MaxDecodedSize: limit})
		res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: "http://127.0.0.1:1/", Render: true})
		switch {
		case tc.wantErr && !errors.Is(err, ErrTooLarge):
			t.Errorf("%d bytes: %v, want ErrTooLarge", tc.size, err)
		case tc.wantErr && !strings.Contains(err.Error(), "rendered document is over the cap of 1024 bytes"):
			t.Errorf("%d bytes: %q does not name the cap", tc.size, err)
		case !tc.wantErr && (err != nil || len(res.Body) != tc.size):
			t.Errorf("%d bytes: %v; want the document", tc.size, err)
		}
	}
}

// TestDocumentHTMLIgnoresPageScript: a rendered document, and its length
// read before it is copied out of the browser, is its own even where the
// page's script redefines outerHTML to hide it (a length of nothing, or a
// getter that throws): otherwise a hostile page had its document of any
// size copied whole into the daemon before the cap was checked.
func TestDocumentHTMLIgnoresPageScript(t *testing.T) {
	needChromium(t)
	for _, hide := range []string{
		`Object.defineProperty(document.documentElement, "outerHTML", {get() { return ""; }});`,
		`Object.defineProperty(Element.prototype, "outerHTML", {get() { throw new Error("hidden"); }});`,
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, `<!DOCTYPE html><html><body><div id="out">static</div>
<script>document.getElementById("out").textContent = "A".repeat(1 << 20); %s</script></body></html>`, hide)
		}))
		chrome := &Chromium{Dial: (&net.Dialer{}).DialContext, Allow: func(context.Context, string) error { return nil }}
		b, err := chrome.start()
		if err != nil {
			t.Fatal(err)
		}
		tab, cancel, err := b.newTab(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		gate, err := openNavigationGate(tab, b.allow, b.proxy) // gives the guard proxy its credentials
		if err != nil {
			t.Fatal(err)
		}
		err = chromedp.Do(tab, chromedp.Navigate(srv.URL+"/"), chromedp.Sleep(100*time.Millisecond))
		if err == nil {
			var html string
			html, err = documentHTML(tab, 0)
			if err == nil && len(html) < 1<<20 {
				t.Errorf("%s: document of %d bytes, want over %d", hide, len(html), 1<<20)
			}
			if _, capped := documentHTML(tab, 1<<10); !errors.Is(capped, ErrTooLarge) {
				t.Errorf("%s: document read under a cap of 1024 bytes: %v, want ErrTooLarge", hide, capped)
			}
		}
		if err != nil {
			t.Errorf("%s: %v", hide, err)
		}
		gate.close()
		cancel()
		chrome.Close()
		srv.Close()
	}
}
