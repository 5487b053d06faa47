package main

import (
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/warc"
)

// TestWARCImportNamesResponseNotHTTP: a response record of a page whose
// block is no HTTP response (the document alone, typed text/html, or
// untyped) is a record import warc cannot import: named by its number
// and offset, the others imported, exit 2, as for an HTTP message that
// does not parse. It was counted among the records skipped (warcinfo,
// requests), exit 0, and its page silently missing from the store. A
// request or a metadata record is still skipped.
func TestWARCImportNamesResponseNotHTTP(t *testing.T) {
	page := "<html><body><p>fine</p></body></html>"
	file := writeForeignWARC(t, false,
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/typed", date: "2026-01-01T00:00:00Z",
			extra: warc.Header{{Name: warc.FieldContentType, Value: "text/html"}}, block: page},
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/untyped", date: "2026-01-01T00:00:01Z",
			extra: warc.Header{{Name: warc.FieldContentType, Value: ""}}, block: page},
		foreignRecord{typ: warc.TypeRequest, uri: "http://example.com/a", date: "2026-01-01T00:00:02Z", block: "GET /a HTTP/1.1\r\n\r\n"},
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/a", date: "2026-01-01T00:00:03Z", block: httpResponse("Content-Type: text/html\r\n", page)},
	)
	_, errOut, code := runCmd(t, nil, "import", "warc", "--data", t.TempDir(), file)
	for _, want := range []string{
		file + ": record 1 at offset 0 ",
		"a response record whose block is not an HTTP response (Content-Type \"text/html\"); not imported",
		file + ": record 2 at offset ",
		"a response record whose block is not an HTTP response (no Content-Type); not imported",
		"imported 1 version; skipped 1 record",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("no %q in:\n%s", want, errOut)
		}
	}
	if code != exitError {
		t.Errorf("exit %d, want %d", code, exitError)
	}
}

// TestWARCImportResponseTypedInCapitals: a response record typed
// application/http in capitals (a media type is the same in any case) is
// an HTTP response, imported, where it was named as a block that is not
// one, exit 2.
func TestWARCImportResponseTypedInCapitals(t *testing.T) {
	page := "<html><body><p>fine</p></body></html>"
	file := writeForeignWARC(t, false,
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/a", date: "2026-01-01T00:00:00Z",
			extra: warc.Header{{Name: warc.FieldContentType, Value: "Application/HTTP; msgtype=response"}},
			block: httpResponse("Content-Type: text/html\r\n", page)},
	)
	_, errOut, code := runCmd(t, nil, "import", "warc", "--data", t.TempDir(), file)
	if code != exitOK || !strings.Contains(errOut, "imported 1 version") {
		t.Errorf("exit %d, stderr:\n%s\nwant 0 and the version imported", code, errOut)
	}
}
