package fetch

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestRenderChromiumScriptNavigationAfterLoad: a page whose script sends
// the tab on to another page once loaded, within the settle time, which
// sends it on again, renders as the last page, with that page's URL,
// where the render read the second page, the one the tab showed when the
// settle time ended (and, with the third one committing as it read, could
// pair one page's HTML with another's URL).
func TestRenderChromiumScriptNavigationAfterLoad(t *testing.T) {
	needChromium(t)
	const onward = `<script>addEventListener("load", () => setTimeout(() => location.href = %q, 50));</script>`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/a":
			fmt.Fprintf(w, `<!DOCTYPE html><html><body><p>page a, on its way out</p>`+onward+`</body></html>`, "/b")
		case "/b":
			time.Sleep(time.Second) // longer than the settle time
			fmt.Fprintf(w, `<!DOCTYPE html><html><body><p>page b, on its way out</p>`+onward+`</body></html>`, "/c")
		case "/c":
			time.Sleep(300 * time.Millisecond)
			w.Write([]byte(`<!DOCTYPE html><html><body><p>page c</p></body></html>`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	chrome := &Chromium{Settle: 400 * time.Millisecond, Allow: func(ctx context.Context, url string) error { return nil }}
	defer chrome.Close()
	testClient(Options{IgnoreRobots: true, Renderer: chrome, TotalTimeout: 30 * time.Second})
	p, err := chrome.RenderPage(context.Background(), srv.URL+"/a")
	if err != nil {
		t.Fatalf("render: %v", err)
	}
	if !strings.Contains(p.HTML, "page c") || !strings.HasSuffix(p.URL, "/c") {
		t.Errorf("render of a page whose script goes on to another once loaded: %s at %s; want page c at /c", p.HTML, p.URL)
	}
}

// TestRenderChromiumScriptNavigatesForever: a page whose script sends the
// tab on to another page once loaded, for ever, is followed a few pages
// only: the render ends long before its deadline, with one of the pages,
// its HTML and URL the same page's (where a document that committed as
// the page was read paired one's HTML with another's URL, or failed the
// read), or with the error that says the scripts kept navigating.
func TestRenderChromiumScriptNavigatesForever(t *testing.T) {
	needChromium(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!DOCTYPE html><html><body><p>page %d</p>
<script>addEventListener("load", () => setTimeout(() => location.href = "/next?n=%d", 10));</script></body></html>`, n, n+1)
	}))
	defer srv.Close()
	chrome := &Chromium{Allow: func(ctx context.Context, url string) error { return nil }}
	defer chrome.Close()
	testClient(Options{IgnoreRobots: true, Renderer: chrome, TotalTimeout: time.Minute})
	start := time.Now()
	p, err := chrome.RenderPage(context.Background(), srv.URL+"/next?n=0")
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("render of a page that navigates for ever took %v; want it ended after a few pages", took)
	}
	if err != nil {
		if !errors.Is(err, ErrUnsupported) {
			t.Errorf("render of a page that navigates for ever: %v; want a page, or ErrUnsupported", err)
		}
		return
	}
	u, err := url.Parse(p.URL)
	if err != nil {
		t.Fatal(err)
	}
	if want := "<p>page " + u.Query().Get("n") + "</p>"; u.Query().Get("n") == "" || !strings.Contains(p.HTML, want) {
		t.Errorf("render of a page that navigates for ever: %s at %s; want the page of its URL, %s", p.HTML, p.URL, want)
	}
}
