package fetch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
)

// TestFetchUnknownCharset: a charset no one knows, named by the
// Content-Type header or an XML declaration, is passed over as one in a
// meta element always was: the page is read in the charset found next (a
// byte-order mark first, then a meta, else detected), not refused. Every
// check of a page served as `text/html; charset=foo-bar` failed with
// "unsupported charset", its owner told of each failure.
func TestFetchUnknownCharset(t *testing.T) {
	type served struct{ contentType, body string }
	pages := map[string]served{
		"/header":           {"text/html; charset=foo-bar", "<html><body><p>caf\u00e9</p></body></html>"},
		"/header-latin1":    {"text/html; charset=foo-bar", "<html><body><p>caf\xe9</p></body></html>"},
		"/header-meta":      {"text/html; charset=foo-bar", `<html><head><meta charset="iso-8859-15"></head><body><p>caf` + "\xe9 \xa4" + `</p></body></html>`},
		"/header-bom":       {"text/html; charset=foo-bar", "\xEF\xBB\xBF<p>caf\u00e9</p>"},
		"/known-header-bom": {"text/html; charset=windows-1252", "\xEF\xBB\xBF<p>caf\u00e9</p>"},
		"/meta":             {"text/html", `<html><head><meta charset="foo-bar"></head><body><p>caf` + "\u00e9" + `</p></body></html>`},
		"/xml-header":       {"application/xml; charset=foo-bar", `<?xml version="1.0"?><r>caf` + "\u00e9" + `</r>`},
		"/xml-declaration":  {"application/xml", `<?xml version="1.0" encoding="foo-bar"?><r>caf` + "\u00e9" + `</r>`},
		"/xml-both":         {"application/atom+xml; charset=foo-bar", `<?xml version="1.0" encoding="foo-bar"?><r>caf` + "\u00e9" + `</r>`},
		"/xml-header-decl":  {"application/xml; charset=foo-bar", `<?xml version="1.0" encoding="iso-8859-1"?><r>caf` + "\xe9" + `</r>`},
		"/text":             {"text/plain; charset=foo-bar", "caf\u00e9\n"},
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
	tests := []struct {
		path, charset, text string // text: a part of the body read
	}{
		{"/header", "utf-8", "café"},
		{"/header-latin1", "windows-1252", "café"},
		{"/header-meta", "iso-8859-15", "café €"},
		{"/header-bom", "utf-8", "<p>café</p>"},
		{"/known-header-bom", "utf-8", "<p>café</p>"},
		{"/meta", "utf-8", "café"},
		{"/xml-header", "utf-8", "<r>café</r>"},
		{"/xml-declaration", "utf-8", "<r>café</r>"},
		{"/xml-both", "utf-8", "<r>café</r>"},
		{"/xml-header-decl", "windows-1252", "<r>café</r>"},
		{"/text", "utf-8", "café\n"},
	}
	for _, tt := range tests {
		t.Run(strings.TrimPrefix(tt.path, "/"), func(t *testing.T) {
			res, err := c.Fetch(context.Background(), &vigil.FetchRequest{URL: srv.URL + tt.path})
			if err != nil {
				t.Fatalf("Fetch: %v, want the page read", err)
			}
			if res.Charset != tt.charset || !strings.Contains(string(res.Body), tt.text) || strings.HasPrefix(string(res.Body), "\xEF\xBB\xBF") {
				t.Errorf("charset %q body %q; want charset %q and %q in the body", res.Charset, res.Body, tt.charset, tt.text)
			}
		})
	}
}
