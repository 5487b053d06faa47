package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWARCImportSkippedKinds: the summary of vigil import warc says of
// which kinds the records it skipped are, the most first ("skipped 5
// records: 2 request, 1 metadata, ..."): the WARC-Type of a record of a
// type it does not import, with the scheme of a URL that is no page's
// (dns:), and the records no newer than the history the store holds of
// their page (a file imported again). It said only how many.
func TestWARCImportSkippedKinds(t *testing.T) {
	n := 0
	record := func(typ, target, ct, block string) string {
		n++
		fields := []string{"WARC-Type: " + typ, fmt.Sprintf("WARC-Record-ID: <urn:uuid:%d>", n), "WARC-Date: 2026-01-01T00:00:00Z"}
		if target != "" {
			fields = append(fields, "WARC-Target-URI: "+target)
		}
		if ct != "" {
			fields = append(fields, "Content-Type: "+ct)
		}
		return "WARC/1.1\r\n" + strings.Join(fields, "\r\n") + fmt.Sprintf("\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", len(block), block)
	}
	const http = "application/http; msgtype=response"
	page := httpResponse("Content-Type: text/html\r\n", "<p>fine</p>")
	in := record("warcinfo", "", "application/warc-fields", "software: test\r\n") +
		record("request", "http://example.com/a", "application/http; msgtype=request", "GET /a HTTP/1.1\r\nHost: example.com\r\n\r\n") +
		record("response", "http://example.com/a", http, page) +
		record("request", "http://example.com/b", "application/http; msgtype=request", "GET /b HTTP/1.1\r\nHost: example.com\r\n\r\n") +
		record("response", "http://example.com/b", http, page) +
		record("metadata", "http://example.com/b", "application/warc-fields", "outlink: http://example.com/a\r\n") +
		record("response", "dns:example.com", "text/dns", "20260101000000\r\nexample.com. 300 IN A 192.0.2.1\r\n")
	file := filepath.Join(t.TempDir(), "kinds.warc")
	if err := os.WriteFile(file, []byte(in), 0o600); err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	for _, want := range []string{
		"imported 2 versions; skipped 5 records: 2 request, 1 metadata, 1 response (dns:), 1 warcinfo\n",
		"imported 0 versions; skipped 7 records: 2 no newer than the store's history, 2 request, 1 metadata, 1 response (dns:), 1 warcinfo\n",
	} {
		_, errOut, code := runCmd(t, nil, "import", "warc", "--data", dst, file)
		if code != exitOK || !strings.HasSuffix(errOut, want) {
			t.Errorf("exit %d, stderr %q; want 0 and it to end %q", code, errOut, want)
		}
	}
}

// TestSkipsStringBounded: the kinds of the records skipped, read from the
// file (a WARC-Type, a scheme, a Content-Type), are named at most
// maxSkipKinds, the rest counted as other kinds, each at most
// maxSkipKind characters, a character that is not printable escaped: a
// file of garbage records, each of another type, made a summary line as
// long as the file, terminal escapes and all.
func TestSkipsStringBounded(t *testing.T) {
	var s skips
	for i := range 1000 {
		s.add(fmt.Sprintf("t%04d", i))
	}
	s.add("t0000")
	got := s.String()
	want := "2 t0000, 1 t0001, 1 t0002, 1 t0003, 1 t0004, 1 t0005, 994 records of 994 other kinds"
	if got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	var odd skips
	odd.add("evil\x1b[2Jtype")
	odd.add(strings.Repeat("x", 500))
	got = odd.String()
	if strings.ContainsRune(got, '\x1b') || len(got) > 200 || !strings.Contains(got, `"evil\x1b[2Jtype"`) {
		t.Errorf("String() = %q: want the escape quoted, each kind cut short", got)
	}
}
