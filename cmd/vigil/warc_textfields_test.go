package main

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/warc"
)

// TestWARCImportFieldsNotText: a response whose ETag or charset is no
// text (a Latin-1 byte, a NUL an RFC 2231 parameter encodes), which
// PostgreSQL refuses in a text column, is imported on both backends
// without it, as a response that gave none: it failed the whole import
// on PostgreSQL ("invalid byte sequence for encoding UTF8"), and was
// stored on SQLite.
func TestWARCImportFieldsNotText(t *testing.T) {
	cases := map[string]struct {
		head          string
		etag, charset string // what the version keeps
	}{
		"etag latin-1":     {head: "Content-Type: text/html\r\nETag: \"caf\xe9\"\r\n"},
		"charset latin-1":  {head: "Content-Type: text/html; charset=\"caf\xe9\"\r\nETag: \"1\"\r\n", etag: `"1"`},
		"charset encoded":  {head: "Content-Type: text/html; charset*=utf-8''%E9\r\n"},
		"charset nul":      {head: "Content-Type: text/html; charset*=utf-8''utf-8%00\r\n"},
		"etag and charset": {head: "Content-Type: text/html; charset=utf-8\r\nETag: W/\"x\"\r\n", etag: `W/"x"`, charset: "utf-8"},
	}
	for _, b := range importBackends {
		t.Run(b.name, func(t *testing.T) {
			store := b.args(t)
			var recs []foreignRecord
			for name, c := range cases {
				recs = append(recs, foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/" + strings.ReplaceAll(name, " ", "-"),
					date: "2026-01-01T00:00:00Z", block: httpResponse(c.head, "<p>"+name+"</p>")})
			}
			file := writeForeignWARC(t, true, recs...)
			_, errOut, code := runCmd(t, nil, append(append([]string{"import", "warc"}, store...), file)...)
			if code != exitOK || !strings.Contains(errOut, "imported 5 versions;") {
				t.Fatalf("import: exit %d\n%s", code, errOut)
			}
			st := openFlags(t, store)
			for name, c := range cases {
				_, v, err := st.LatestVersionByURL(context.Background(), "http://example.com/"+strings.ReplaceAll(name, " ", "-"))
				if err != nil {
					t.Errorf("%s: %v", name, err)
					continue
				}
				if v.ETag != c.etag || v.Charset != c.charset || v.ContentType != "text/html" {
					t.Errorf("%s: ETag %q, charset %q, type %q; want %q, %q, text/html", name, v.ETag, v.Charset, v.ContentType, c.etag, c.charset)
				}
			}
		})
	}
}
