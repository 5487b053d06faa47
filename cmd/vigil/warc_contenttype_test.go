package main

import (
	"strconv"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/warc"
)

// TestWARCImportContentType: a record's Content-Type (a resource's own,
// a response's HTTP header's) is read as the fetcher reads a response's,
// by vigil.MediaType: its type in lower case whatever its parameters, a
// malformed parameter (a charset without a value, or given twice) losing
// the charset alone, and a malformed type standing for none. The raw
// value was stored when a parameter was malformed ("Text/HTML; charset"),
// which nothing then read as HTML; and a resource record holding an HTTP
// message, typed "application/http; msgtype" (a parameter without a
// value), was a document of that type, its HTTP header its text.
func TestWARCImportContentType(t *testing.T) {
	const page = "<html><body><p>page</p></body></html>"
	httpBlock := func(ct string) string {
		return "HTTP/1.1 200 OK\r\nContent-Type: " + ct + "\r\nContent-Length: " + strconv.Itoa(len(page)) + "\r\n\r\n" + page
	}
	tests := []struct {
		name, typ, recordType, block string
		contentType, charset         string
	}{
		{"charset without a value", warc.TypeResource, "Text/HTML; charset", page, "text/html", ""},
		{"charset twice", warc.TypeResource, "text/plain; charset=utf-8; charset=latin1", page, "text/plain", ""},
		{"upper case", warc.TypeResource, "TEXT/PLAIN; Charset=UTF-8", page, "text/plain", "UTF-8"},
		{"malformed type", warc.TypeResource, "text html", page, "", ""},
		{"response, charset without a value", warc.TypeResponse, "application/http; msgtype=response", httpBlock("Application/JSON; charset"), "application/json", ""},
		{"response, charset twice", warc.TypeResponse, "application/http; msgtype=response", httpBlock("text/html; charset=utf-8; charset=latin1"), "text/html", ""},
		{"HTTP message, msgtype without a value", warc.TypeResource, "application/http; msgtype", httpBlock("text/html; charset=utf-8"), "text/html", "utf-8"},
	}
	var recs []foreignRecord
	for i, tc := range tests {
		recs = append(recs, foreignRecord{typ: tc.typ, uri: "http://example.com/" + strconv.Itoa(i), date: "2026-01-01T00:00:00Z",
			extra: warc.Header{{Name: warc.FieldContentType, Value: tc.recordType}}, block: tc.block})
	}
	dst := t.TempDir()
	_, errOut, code := runCmd(t, nil, "import", "warc", "--data", dst, writeForeignWARC(t, false, recs...))
	if code != exitOK || !strings.Contains(errOut, "imported 7 versions") {
		t.Fatalf("import: exit %d\n%s", code, errOut)
	}
	got := dump(t, dst)
	for i, tc := range tests {
		vs := got["http://example.com/"+strconv.Itoa(i)]
		if len(vs) != 1 {
			t.Errorf("%s: %d versions, want 1", tc.name, len(vs))
			continue
		}
		v := vs[0].v
		if v.ContentType != tc.contentType || v.Charset != tc.charset || string(vs[0].body) != page {
			t.Errorf("%s: type %q, charset %q, body %q; want %q, %q and the page", tc.name, v.ContentType, v.Charset, vs[0].body, tc.contentType, tc.charset)
		}
	}
}
