package monitor

import (
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// TestETagNotText: a watched page whose server sends an ETag that is no
// text (a Latin-1 byte, obs-text) is stored without it, as from a server
// that sends none, and fetched whole at its next check, without
// If-None-Match: PostgreSQL refuses such an ETag in a text column, which
// failed the page's version at every check.
func TestETagNotText(t *testing.T) {
	var conditional atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/page" {
			http.NotFound(w, r)
			return
		}
		if r.Header.Get("If-None-Match") != "" {
			conditional.Add(1)
		}
		w.Header().Set("ETag", "\"caf\xe9\"")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<html><body><p>the page</p></body></html>")
	}))
	defer srv.Close()
	w := watchPage(t, srv.URL+"/page")
	for range 2 {
		w.check()
		if v := w.latest(); v.ETag != "" || v.Error != "" {
			t.Fatalf("version ETag %q, error %q; want no ETag and no error", v.ETag, v.Error)
		}
	}
	if n := conditional.Load(); n != 0 {
		t.Errorf("%d requests with If-None-Match; want none", n)
	}
}
