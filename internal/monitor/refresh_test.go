package monitor

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestMetaRefreshWatchedPage: a watched page whose meta refresh leads to
// another page is read as a redirect is: its version holds the body of the
// page it leads to, and records that page's URL as its final URL
// (vigil.Version.URL). Before, the version was the page carrying the
// refresh, and a change of the page it led to was never seen.
func TestMetaRefreshWatchedPage(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/robots.txt":
			http.NotFound(w, r)
		case "/page":
			io.WriteString(w, `<html><head><meta http-equiv="refresh" content="0; url=/new/page"></head><body>Moved</body></html>`)
		default:
			io.WriteString(w, "<html><body><p>"+r.URL.Path+"</p></body></html>")
		}
	}))
	defer srv.Close()
	w := watchPage(t, srv.URL+"/page")
	w.check()
	v := w.latest()
	if v.Error != "" || v.URL != srv.URL+"/new/page" {
		t.Fatalf("the check of a page with a meta refresh: version %+v, want final URL %s", v, srv.URL+"/new/page")
	}
	if body := w.body(); !strings.Contains(body, "/new/page") || strings.Contains(body, "Moved") {
		t.Errorf("the version's body %q, want the page the refresh led to", body)
	}
}
