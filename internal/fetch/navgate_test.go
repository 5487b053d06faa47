package fetch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestRenderChromiumRobots renders, in the real browser, pages whose main
// frame is led elsewhere by a redirect, a script (its own or a frame's,
// through top.location), a meta refresh or a form it posts: a document
// robots.txt disallows is never requested and fails the render with an
// error that names it and says how the tab was led there, one it allows is rendered, and a frame's document is not held
// to robots.txt. robots.txt is read once for all of them: the renderer's
// check of the page asked for hits the cache the client's filled.
func TestRenderChromiumRobots(t *testing.T) {
	needChromium(t)
	var mu sync.Mutex
	var seen []string
	robots := 0 // requests for robots.txt, over all the cases
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.URL.Path)
		if r.URL.Path == "/robots.txt" {
			robots++
		}
		mu.Unlock()
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private/\n")
		case "/go":
			http.Redirect(w, r, "/private/page", http.StatusFound)
		case "/go-open":
			http.Redirect(w, r, "/open/page", http.StatusFound)
		case "/js":
			w.Header().Set("Content-Type", "text/html")
			// The image holds the load event back: the tab is still
			// loading when the script's navigation is paused.
			fmt.Fprint(w, `<!DOCTYPE html><html><body>leaving<script>location.href = "/private/js";</script><img src="/slow.png"></body></html>`)
		case "/top":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<!DOCTYPE html><html><body>top<iframe src="/to-top"></iframe><img src="/slow.png"></body></html>`)
		case "/to-top":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<!DOCTYPE html><html><body><script>top.location.href = "/private/from-frame";</script></body></html>`)
		case "/refresh":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<!DOCTYPE html><html><head><meta http-equiv="refresh" content="0; url=/private/refresh"></head><body><img src="/slow.png"></body></html>`)
		case "/form":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<!DOCTYPE html><html><body><form id="f" method="post" action="/private/form"><input name="a" value="b"></form><script>document.getElementById("f").submit();</script><img src="/slow.png"></body></html>`)
		case "/popup":
			w.Header().Set("Content-Type", "text/html")
			// The image holds the load event back: the render is not over
			// before the new window would have requested its page.
			fmt.Fprint(w, `<!DOCTYPE html><html><body>popup<script>window.open("/private/popup");</script><img src="/slow.png"></body></html>`)
		case "/slow.png":
			time.Sleep(time.Second)
			http.NotFound(w, r)
		case "/framed":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<!DOCTYPE html><html><body>framed<iframe src="/private/frame"></iframe></body></html>`)
		default:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, `<!DOCTYPE html><html><body>page at %s</body></html>`, r.URL.Path)
		}
	}))
	defer srv.Close()
	chrome := &Chromium{Settle: 500 * time.Millisecond}
	defer chrome.Close()
	c := testClient(Options{Renderer: chrome, TotalTimeout: 60 * time.Second})
	tests := []struct {
		name    string
		path    string
		refused string // the document refused, named by the error; "" if the render succeeds
		hop     string // how the error says the tab was led there
		body    string // in the rendered page, if it succeeds
		reached string // a path the server must have seen
		unsent  string // a path the server must not have seen
	}{
		{name: "redirect to a disallowed path", path: "/go", refused: "/private/page", hop: "redirect to", unsent: "/private/page"},
		{name: "redirect to an allowed path", path: "/go-open", body: "page at /open/page", reached: "/open/page"},
		{name: "script sends to a disallowed path", path: "/js", refused: "/private/js", hop: "navigation to", unsent: "/private/js"},
		{name: "frame sends the tab to a disallowed path", path: "/top", refused: "/private/from-frame", hop: "navigation to", unsent: "/private/from-frame"},
		{name: "meta refresh to a disallowed path", path: "/refresh", refused: "/private/refresh", hop: "navigation to", unsent: "/private/refresh"},
		{name: "form posted to a disallowed path", path: "/form", refused: "/private/form", hop: "navigation to", unsent: "/private/form"},
		{name: "script opens a disallowed path in a new window", path: "/popup", body: "popup", unsent: "/private/popup"},
		{name: "frame from a disallowed path", path: "/framed", body: "framed", reached: "/private/frame"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mu.Lock()
			seen = nil
			mu.Unlock()
			res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + tt.path, Render: true})
			mu.Lock()
			defer mu.Unlock()
			if tt.refused != "" {
				if want := tt.hop + " " + srv.URL + tt.refused; !errors.Is(err, ErrRobots) || !strings.Contains(err.Error(), want) {
					t.Errorf("error %v, want one wrapping ErrRobots that says %q", err, want)
				}
			} else if err != nil {
				t.Errorf("render failed: %v", err)
			} else if !strings.Contains(string(res.Body), tt.body) {
				t.Errorf("rendered page lacks %q:\n%s", tt.body, res.Body)
			}
			if tt.reached != "" && !slices.Contains(seen, tt.reached) {
				t.Errorf("the server did not see %s: %v", tt.reached, seen)
			}
			if tt.unsent != "" && slices.Contains(seen, tt.unsent) {
				t.Errorf("the browser requested %s, which robots.txt disallows: %v", tt.unsent, seen)
			}
		})
	}
	mu.Lock()
	defer mu.Unlock()
	if robots != 1 {
		t.Errorf("robots.txt was requested %d times, want once", robots)
	}
}

// TestRenderChromiumCancel cancels a render while the tab's first document
// is paused, its check under way: the render returns the cancellation, the
// check is ended, and the browser renders the next page (no tab is left
// hung).
func TestRenderChromiumCancel(t *testing.T) {
	needChromium(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, `<!DOCTYPE html><html><body>page at %s</body></html>`, r.URL.Path)
	}))
	defer srv.Close()
	checking, ended := make(chan struct{}), make(chan struct{})
	var dialer net.Dialer
	chrome := &Chromium{Dial: dialer.DialContext, Allow: func(ctx context.Context, url string) error {
		if !strings.HasSuffix(url, "/hang") {
			return nil
		}
		close(checking)
		<-ctx.Done()
		close(ended)
		return ctx.Err()
	}}
	defer chrome.Close()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-checking
		cancel()
	}()
	if _, err := chrome.Render(ctx, srv.URL+"/hang"); !errors.Is(err, context.Canceled) {
		t.Errorf("render of a page cancelled during its check: %v, want context.Canceled", err)
	}
	select {
	case <-ended:
	default:
		t.Error("the render returned before the check it cancelled ended")
	}
	html, err := chrome.Render(context.Background(), srv.URL+"/next")
	if err != nil || !strings.Contains(html, "page at /next") {
		t.Errorf("the next render: %v\n%s", err, html)
	}
}

// TestRenderChromiumCredentials: in the real browser, a redirect of the
// main frame to a URL with credentials (http://user:pass@host/...) is
// refused as the plain path refuses it: the browser does not send them,
// and neither the error nor a result shows them. The browser requested
// the page without them, and sent them when it asked for authentication.
func TestRenderChromiumCredentials(t *testing.T) {
	needChromium(t)
	var mu sync.Mutex
	withAuth, pageHits := 0, 0
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		if r.Header.Get("Authorization") != "" {
			withAuth++
		}
		if r.URL.Path == "/page" {
			pageHits++
		}
		mu.Unlock()
		switch r.URL.Path {
		case "/robots.txt":
			http.NotFound(w, r)
		case "/to-credentials":
			http.Redirect(w, r, strings.Replace(srv.URL, "://", "://user:s3cret@", 1)+"/page", http.StatusFound)
		case "/page":
			// The challenge a browser answers with a URL's credentials.
			if r.Header.Get("Authorization") == "" {
				w.Header().Set("WWW-Authenticate", `Basic realm="r"`)
				http.Error(w, "who?", http.StatusUnauthorized)
				return
			}
			fmt.Fprint(w, "in")
		default:
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, `<!DOCTYPE html><html><body>page at %s</body></html>`, r.URL.Path)
		}
	}))
	defer srv.Close()
	chrome := &Chromium{Settle: 200 * time.Millisecond}
	defer chrome.Close()
	c := testClient(Options{Renderer: chrome, TotalTimeout: 60 * time.Second})
	res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/to-credentials", Render: true})
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "redirect to "+srv.URL+"/page") {
		t.Errorf("error %v, want ErrUnsupported naming the redirect to %s/page", err, srv.URL)
	}
	if err != nil && (strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "user@")) {
		t.Errorf("the error shows the credentials: %v", err)
	}
	if res != nil && (strings.Contains(res.URL, "s3cret") || strings.Contains(res.URL, "user@")) {
		t.Errorf("the result's URL shows the credentials: %s", res.URL)
	}
	mu.Lock()
	defer mu.Unlock()
	if withAuth != 0 || pageHits != 0 {
		t.Errorf("%d requests carried credentials, %d reached the page the redirect named; want none", withAuth, pageHits)
	}
}
