package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
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

// TestWARCImportTextPostgresRefuses: the records holding text PostgreSQL
// would refuse in a text column (a byte not UTF-8, a NUL) in their
// target URI, their Content-Type or their body (its links, which import
// warc does not store) are imported in one transaction on both backends,
// and stored the same on both: what reaches the store is text.
// PostgreSQL refusing one of them would now fail the whole import (no
// savepoint per write takes it back).
func TestWARCImportTextPostgresRefuses(t *testing.T) {
	cases := []struct{ uri, head, body string }{
		{"http://example.com/q?a=\xff", "Content-Type: text/html\r\n", "<p>query</p>"},
		{"http://example.com/p\xff", "Content-Type: text/html\r\n", "<p>path</p>"},
		{"http://example.com/h1", "Content-Type: text/html; charset=utf-8\r\n", "<a href=\"/x?\xff\">a\xffb</a>"},
		{"http://example.com/h2", "Content-Type: text/html; charset=utf-8\r\n", "<a href=\"/x?\x00\">a\x00b</a>"},
		{"http://example.com/h3", "Content-Type: text/html; charset=utf-8\r\n", "<a href=\"/x?&#0;\">a&#0;b</a>"},
		{"http://example.com/h4", "Content-Type: text/plain; charset=utf-8\r\n", "see http://example.com/\xff\x00 now"},
		{"http://example.com/h5", "Content-Type: text/h\xfftml\r\n", "<p>type</p>"},
		{"http://example.com/h6", "Content-Type: text/html; charset=iso-8859-1\r\n", "<a href=\"/caf\xe9?q=\xe9\">caf\xe9</a>"},
		{"http://example.com/h7", "Content-Type: application/rss+xml\r\n", "<rss><channel><item><link>http://e.com/\xff\x00</link></item></channel></rss>"},
	}
	var recs []foreignRecord
	for _, c := range cases {
		recs = append(recs, foreignRecord{typ: warc.TypeResponse, uri: c.uri, date: "2026-01-01T00:00:00Z", block: httpResponse(c.head, c.body)})
	}
	file := writeForeignWARC(t, true, recs...)
	stored := map[string]string{}
	for _, b := range importBackends {
		t.Run(b.name, func(t *testing.T) {
			store := b.args(t)
			_, errOut, code := runCmd(t, nil, append(append([]string{"import", "warc"}, store...), file)...)
			if code != exitOK || !strings.Contains(errOut, fmt.Sprintf("imported %d versions;", len(cases))) {
				t.Fatalf("import: exit %d\n%s", code, errOut)
			}
			st := openFlags(t, store)
			ctx := context.Background()
			rs, _, err := st.FindResources(ctx, vigil.ResourceFilter{})
			if err != nil {
				t.Fatal(err)
			}
			var s strings.Builder
			for _, r := range rs {
				v, err := st.LatestVersion(ctx, r.ID)
				if err != nil {
					t.Fatal(err)
				}
				links, err := st.Links(ctx, v.ID)
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(&s, "%q %q %q %q\n", r.URL, v.ContentType, v.Charset, v.ETag)
				for _, l := range links {
					fmt.Fprintf(&s, "\t%q %q %q\n", l.Target, l.Anchor, l.Type)
				}
			}
			stored[b.name] = s.String()
		})
	}
	if got, want := stored["postgres"], stored["sqlite"]; got != "" && got != want {
		t.Errorf("PostgreSQL stores\n%s\nSQLite\n%s", got, want)
	}
}
