package fetch

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/vigil-web/vigil"
)

// TestFetchUTF16ByLabel: a page in UTF-16 without a byte-order mark, its
// charset named by the Content-Type header, is read as text: every ASCII
// character of it holds a NUL byte, and it was refused as binary. A body
// with NUL bytes served as UTF-8 still is.
func TestFetchUTF16ByLabel(t *testing.T) {
	const page = "<html><body><p>caf\u00e9</p></body></html>"
	encode := func(s string, bigEndian bool) string {
		var b strings.Builder
		for _, u := range utf16.Encode([]rune(s)) {
			if bigEndian {
				b.WriteByte(byte(u >> 8))
				b.WriteByte(byte(u))
			} else {
				b.WriteByte(byte(u))
				b.WriteByte(byte(u >> 8))
			}
		}
		return b.String()
	}
	type served struct{ contentType, body string }
	pages := map[string]served{
		"/le":       {"text/html; charset=utf-16le", encode(page, false)},
		"/be":       {"text/html; charset=UTF-16BE", encode(page, true)},
		"/utf-16":   {"text/html; charset=utf-16", encode(page, false)},
		"/nul-utf8": {"text/html; charset=utf-8", encode(page, false)},
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", p.contentType)
		w.Write([]byte(p.body))
	}))
	t.Cleanup(srv.Close)
	c := testClient(Options{IgnoreRobots: true})
	for _, path := range []string{"/le", "/be", "/utf-16"} {
		res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + path})
		if err != nil {
			t.Errorf("%s: %v, want the page read", path, err)
			continue
		}
		if string(res.Body) != page {
			t.Errorf("%s: body %q, want %q", path, res.Body, page)
		}
	}
	if _, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + "/nul-utf8"}); !errors.Is(err, ErrBinary) {
		t.Errorf("NUL bytes served as UTF-8: %v, want ErrBinary", err)
	}
}
