package monitor

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// TestRedirectTargetNotModified: a watched page that redirects keeps the
// validators of the page the redirect leads to, and its later checks send
// them with the request of that page when the redirect lands there again
// (not with the redirect's own request): the target's 304 is the page
// unchanged, and its body is not downloaded again at every check.
func TestRedirectTargetNotModified(t *testing.T) {
	var full, notModified, conditionalRedirect atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			http.NotFound(w, r)
		case "/a":
			if r.Header.Get("If-None-Match") != "" || r.Header.Get("If-Modified-Since") != "" {
				conditionalRedirect.Add(1)
			}
			http.Redirect(w, r, "/b", http.StatusMovedPermanently)
		case "/b":
			w.Header().Set("ETag", `"b1"`)
			if r.Header.Get("If-None-Match") == `"b1"` {
				notModified.Add(1)
				w.WriteHeader(http.StatusNotModified)
				return
			}
			full.Add(1)
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, "<html><body><p>the target</p></body></html>")
		}
	}))
	defer srv.Close()
	w := watchPage(t, srv.URL+"/a")
	for range 3 {
		w.check()
	}
	if v := w.latest(); v.Seq != 1 || v.Error != "" || v.URL != srv.URL+"/b" || v.ETag != `"b1"` {
		t.Errorf("newest version seq %d, URL %q, ETag %q, error %q; want the first, read from /b with its ETag", v.Seq, v.URL, v.ETag, v.Error)
	}
	if f, n := full.Load(), notModified.Load(); f != 1 || n != 2 {
		t.Errorf("the target answered %d full bodies and %d 304s; want 1 and 2", f, n)
	}
	if n := conditionalRedirect.Load(); n != 0 {
		t.Errorf("the redirecting page was sent validators %d times; want never", n)
	}
}
