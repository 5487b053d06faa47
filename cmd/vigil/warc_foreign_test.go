package main

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"

	"github.com/vigil-web/vigil/internal/warc"
)

// foreignRecord is one record of a WARC written by hand, as another tool
// would write it.
type foreignRecord struct {
	typ, uri, date string
	extra          warc.Header // more fields (WARC-Refers-To, Content-Type...; "" leaves one out)
	block          string
}

// writeForeignWARC writes recs as a plain WARC (gzip per record when gz)
// and returns the file's path.
func writeForeignWARC(t *testing.T, gz bool, recs ...foreignRecord) string {
	t.Helper()
	var buf bytes.Buffer
	w := warc.NewPlainWriter(&buf)
	if gz {
		w = warc.NewWriter(&buf)
	}
	for i, r := range recs {
		h := warc.Header{
			{Name: warc.FieldType, Value: r.typ},
			{Name: warc.FieldRecordID, Value: warc.BracketID(warc.NameID("foreign " + string(rune('a'+i))))},
			{Name: warc.FieldDate, Value: r.date},
		}
		if r.uri != "" {
			h = append(h, warc.Field{Name: warc.FieldTargetURI, Value: r.uri})
		}
		if !slices.ContainsFunc(r.extra, func(f warc.Field) bool { return f.Name == warc.FieldContentType }) &&
			(r.typ == warc.TypeResponse || r.typ == warc.TypeRevisit) {
			h = append(h, warc.Field{Name: warc.FieldContentType, Value: "application/http; msgtype=response"})
		}
		for _, f := range r.extra {
			if f.Value != "" { // an empty value leaves the field out
				h = append(h, f)
			}
		}
		if err := w.Write(&warc.Record{Header: h, Block: []byte(r.block)}); err != nil {
			t.Fatal(err)
		}
	}
	file := filepath.Join(t.TempDir(), "foreign.warc")
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

func gzipped(s string) string {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	zw.Close()
	return b.String()
}

func brotlied(s string) string {
	var b bytes.Buffer
	bw := brotli.NewWriter(&b)
	bw.Write([]byte(s))
	bw.Close()
	return b.String()
}

func httpResponse(head, body string) string {
	return "HTTP/1.1 200 OK\r\n" + head + "\r\n" + body
}

// TestWARCImportDecodesRecordedEncodings: a response recorded as it came
// over the wire, chunked or compressed, is stored as the body Vigil keeps
// (its entity decoded), as a fetch stores it; it was stored with its chunk
// sizes and gzip bytes, and a br (brotli) body was refused.
func TestWARCImportDecodesRecordedEncodings(t *testing.T) {
	page := "<html><body><p>hello, archived world</p></body></html>"
	chunked := func(s string) string {
		return fmt.Sprintf("%x\r\n%s\r\n%x;ext=1\r\n%s\r\n0\r\nX-Trailer: t\r\n\r\n", 10, s[:10], len(s)-10, s[10:])
	}
	var deflated bytes.Buffer
	zw := zlib.NewWriter(&deflated)
	zw.Write([]byte(page))
	zw.Close()
	cases := []struct {
		name, head, body string
	}{
		{"chunked", "Transfer-Encoding: chunked\r\n", chunked(page)},
		{"gzip", "Content-Encoding: gzip\r\n", gzipped(page)},
		{"x-gzip", "Content-Encoding: x-gzip\r\n", gzipped(page)},
		{"deflate", "Content-Encoding: deflate\r\n", deflated.String()},
		{"chunked-gzip", "Transfer-Encoding: chunked\r\nContent-Encoding: gzip\r\n", chunked(gzipped(page))},
		{"br", "Content-Encoding: br\r\n", brotlied(page)},
		{"chunked-br", "Transfer-Encoding: chunked\r\nContent-Encoding: br\r\n", chunked(brotlied(page))},
		{"gzip-then-br", "Content-Encoding: gzip, br\r\n", brotlied(gzipped(page))},
		// Some tools record the body decoded and leave the header as sent.
		{"chunked-already-decoded", "Transfer-Encoding: chunked\r\n", page},
		{"gzip-already-decoded", "Content-Encoding: gzip\r\n", page},
		{"identity", "Content-Encoding: identity\r\n", page},
	}
	var recs []foreignRecord
	for _, c := range cases {
		recs = append(recs, foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/" + c.name, date: "2026-01-01T00:00:00Z",
			block: httpResponse("Content-Type: text/html; charset=utf-8\r\n"+c.head, c.body)})
	}
	dst := t.TempDir()
	_, errOut, code := runCmd(t, nil, "import", "warc", "--data", dst, writeForeignWARC(t, false, recs...))
	if code != exitOK {
		t.Fatalf("import: %d %s", code, errOut)
	}
	got := dump(t, dst)
	for _, c := range cases {
		vs := got["http://example.com/"+c.name]
		if len(vs) != 1 || string(vs[0].body) != page || vs[0].v.ContentType != "text/html" {
			t.Errorf("%s: imported %d versions, body %q", c.name, len(vs), firstBody(vs))
		}
	}
}

func firstBody(vs []exported) []byte {
	if len(vs) == 0 {
		return nil
	}
	return vs[0].body
}

// TestWARCImportGoesOnPastBadRecords: a record that cannot be imported (a
// bad date, HTTP or URL, a br body cut short, a block that fails its
// digest, no target URI) is named by number and offset and the records after it are
// imported; the command fails at the end, saying how many. The first bad
// record stopped the import, and a bad date was not said to be whose.
func TestWARCImportGoesOnPastBadRecords(t *testing.T) {
	page := httpResponse("Content-Type: text/html\r\n", "<html><body><p>fine</p></body></html>")
	file := writeForeignWARC(t, true,
		foreignRecord{typ: warc.TypeWarcinfo, date: "2026-01-01T00:00:00Z", extra: warc.Header{{Name: "Content-Type", Value: "application/warc-fields"}}, block: "software: hand\r\n"},
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/a", date: "2026-01-01T00:00:00Z", block: page},
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/baddate", date: "yesterday", block: page},
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/badhttp", date: "2026-01-01T00:00:00Z", block: "garbage\r\n\r\n"},
		// A brotli stream cut short: "fine" and then nothing.
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/br", date: "2026-01-01T00:00:00Z",
			block: httpResponse("Content-Type: text/html\r\nContent-Encoding: br\r\n", "\x0b\x02\x80fine\x03")},
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/digest", date: "2026-01-01T00:00:00Z",
			extra: warc.Header{{Name: warc.FieldBlockDigest, Value: warc.Digest([]byte("other"))}}, block: page},
		foreignRecord{typ: warc.TypeResponse, uri: "http://exa mple.com/", date: "2026-01-01T00:00:00Z", block: page},
		// WARC 1.1 requires a target URI of a response.
		foreignRecord{typ: warc.TypeResponse, date: "2026-01-01T00:00:00Z", block: page},
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/b", date: "2026-01-01T00:00:00Z", block: page},
	)
	dst := t.TempDir()
	_, errOut, code := runCmd(t, nil, "import", "warc", "--data", dst, file)
	if code != exitError {
		t.Errorf("exit %d, want %d", code, exitError)
	}
	for _, want := range []string{"record 3 at offset", `"yesterday"`, "record 4 at offset", "record 5 at offset", "content coding br",
		"record 6 at offset", "digest", "record 7 at offset", "record 8 at offset", "no WARC-Target-URI", "imported 2 versions",
		"6 records could not be imported",
		"gzip member at byte"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr does not say %q:\n%s", want, errOut)
		}
	}
	got := dump(t, dst)
	if len(got) != 2 || len(got["http://example.com/a"]) != 1 || len(got["http://example.com/b"]) != 1 {
		t.Errorf("imported %v, want /a and /b", got)
	}
}

// TestWARCImportRefusesBrotliBomb: a br body that decodes to more than
// import warc takes (12 KB of brotli, 64 MiB of zeros) is named and
// skipped, read no further than the limit, and the records after it are
// imported.
func TestWARCImportRefusesBrotliBomb(t *testing.T) {
	page := httpResponse("Content-Type: text/html\r\n", "<html><body><p>fine</p></body></html>")
	file := writeForeignWARC(t, true,
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/bomb", date: "2026-01-01T00:00:00Z",
			block: httpResponse("Content-Type: text/html\r\nContent-Encoding: br\r\n", brotlied(strings.Repeat("\x00", importMaxBlock+1)))},
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/a", date: "2026-01-01T00:00:00Z", block: page},
	)
	dst := t.TempDir()
	_, errOut, code := runCmd(t, nil, "import", "warc", "--data", dst, file)
	if code != exitError || !strings.Contains(errOut, "record 1 at offset 0") || !strings.Contains(errOut, fmt.Sprintf("br: decoded payload longer than %d bytes", importMaxBlock)) ||
		!strings.Contains(errOut, "imported 1 version;") {
		t.Errorf("import: exit %d\n%s", code, errOut)
	}
	if got := dump(t, dst); len(got) != 1 || len(got["http://example.com/a"]) != 1 {
		t.Errorf("imported %d pages, want /a", len(got))
	}
}

// TestWARCImportTruncatedFile: a file cut short in its last record
// imports nothing and names the one cut, by number and offset; with
// --keep-partial it imports the records before it.
func TestWARCImportTruncatedFile(t *testing.T) {
	page := httpResponse("Content-Type: text/html\r\n", "<html><body><p>fine</p></body></html>")
	file := writeForeignWARC(t, false,
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/a", date: "2026-01-01T00:00:00Z", block: page},
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/b", date: "2026-01-01T00:00:00Z", block: page},
	)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, data[:len(data)-20], 0o644); err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	_, errOut, code := runCmd(t, nil, "import", "warc", "--data", dst, file)
	if code != exitError || !strings.Contains(errOut, "imported 0 versions;") || !strings.Contains(errOut, "record 2 at offset") ||
		!strings.Contains(errOut, "nothing imported") {
		t.Errorf("exit %d:\n%s", code, errOut)
	}
	if got := dump(t, dst); len(got) != 0 {
		t.Errorf("imported %v, want nothing", got)
	}
	_, errOut, code = runCmd(t, nil, "import", "warc", "--keep-partial", "--data", dst, file)
	if code != exitError || !strings.Contains(errOut, "imported 1 version;") || !strings.Contains(errOut, "record 2 at offset") {
		t.Errorf("--keep-partial: exit %d:\n%s", code, errOut)
	}
	if got := dump(t, dst); len(got) != 1 || len(got["http://example.com/a"]) != 1 {
		t.Errorf("--keep-partial imported %v, want /a", got)
	}
}

// TestWARCImportTargetURIs: a WARC-Target-URI in angle brackets (as the
// WARC 1.1 grammar's misprint led some tools to write it), with a
// fragment, or with a Unicode host (an IRI) is the page Vigil would watch
// at that address; they were skipped, the last two silently.
func TestWARCImportTargetURIs(t *testing.T) {
	page := httpResponse("Content-Type: text/html\r\n", "<html><body><p>fine</p></body></html>")
	cases := map[string]string{
		"<http://example.com/brackets>":     "http://example.com/brackets",
		"http://example.com/page#section-2": "http://example.com/page",
		"http://Bücher.example/x?q=1#top":   "http://xn--bcher-kva.example/x?q=1",
		"HTTPS://EXAMPLE.COM:443/a":         "https://example.com/a",
	}
	var recs []foreignRecord
	for uri := range cases {
		recs = append(recs, foreignRecord{typ: warc.TypeResponse, uri: uri, date: "2026-01-01T00:00:00Z", block: page})
	}
	dst := t.TempDir()
	_, errOut, code := runCmd(t, nil, "import", "warc", "--data", dst, writeForeignWARC(t, false, recs...))
	if code != exitOK {
		t.Errorf("import: exit %d\n%s", code, errOut)
	}
	got := dump(t, dst)
	for uri, want := range cases {
		if len(got[want]) != 1 {
			t.Errorf("%s: not imported as %s (imported %d pages)", uri, want, len(got))
		}
	}
}

// TestWARCImportRefusesCredentials: a record whose target URI carries
// credentials (user:pass@) is named and not imported, as a sentinel's URL
// with them is refused: no stored URL holds them, and the message shows
// the password hidden (it was written out on standard error).
func TestWARCImportRefusesCredentials(t *testing.T) {
	page := httpResponse("Content-Type: text/html\r\n", "<html><body><p>fine</p></body></html>")
	dst := t.TempDir()
	_, errOut, code := runCmd(t, nil, "import", "warc", "--data", dst, writeForeignWARC(t, false,
		foreignRecord{typ: warc.TypeResponse, uri: "http://user:secret@example.com/private", date: "2026-01-01T00:00:00Z", block: page},
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/public", date: "2026-01-01T00:00:00Z", block: page}))
	if code != exitError || !strings.Contains(errOut, "record 1 at offset 0") || !strings.Contains(errOut, "credentials") ||
		!strings.Contains(errOut, "user:xxxxx@example.com") || strings.Contains(errOut, "secret") || !strings.Contains(errOut, "imported 1 version;") {
		t.Errorf("import: exit %d\n%s", code, errOut)
	}
	for url := range dump(t, dst) {
		if url != "http://example.com/public" {
			t.Errorf("stored %s", url)
		}
	}
}

// TestWARCImportRevisitRefersToCredentials: a revisit whose original is
// nowhere, and whose WARC-Refers-To-Target-URI carries credentials, is
// named with the password hidden, with a date or without: without one,
// the message quoted the URI as written.
func TestWARCImportRevisitRefersToCredentials(t *testing.T) {
	head := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"
	for _, date := range []string{"", "2026-01-01T00:00:00Z"} {
		file := writeForeignWARC(t, false,
			foreignRecord{typ: warc.TypeRevisit, uri: "http://example.com/a", date: "2026-01-02T00:00:00Z",
				extra: warc.Header{{Name: warc.FieldProfile, Value: warc.ProfileIdenticalPayload},
					{Name: warc.FieldRefersToURI, Value: "http://user:secret@example.com/a"}, {Name: warc.FieldRefersToDate, Value: date}}, block: head},
		)
		_, errOut, code := runCmd(t, nil, "import", "warc", "--data", t.TempDir(), file)
		if code != exitError || !strings.Contains(errOut, "record 1 at offset 0") || strings.Contains(errOut, "secret") ||
			!strings.Contains(errOut, "user:xxxxx@example.com") {
			t.Errorf("refers-to date %q: import: exit %d\n%s", date, code, errOut)
		}
	}
}

// TestWARCImportRevisitsWithoutRefersTo: a revisit whose writer left out
// WARC-Refers-To (a deduplicating crawler's, which WARC 1.1 allows) finds
// its original by its payload digest, or by WARC-Refers-To-Target-URI and
// WARC-Refers-To-Date; both were "not in the file".
func TestWARCImportRevisitsWithoutRefersTo(t *testing.T) {
	body := "<html><body><p>unchanged</p></body></html>"
	digest := warc.Digest([]byte(body))
	head := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"
	notModified := "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n"
	file := writeForeignWARC(t, false,
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/a", date: "2026-01-01T00:00:00Z",
			extra: warc.Header{{Name: warc.FieldPayloadDigest, Value: digest}}, block: head + body},
		foreignRecord{typ: warc.TypeRevisit, uri: "http://example.com/a", date: "2026-01-02T00:00:00Z",
			extra: warc.Header{{Name: warc.FieldProfile, Value: warc.ProfileIdenticalPayload}, {Name: warc.FieldPayloadDigest, Value: strings.ToLower(digest)}}, block: head},
		foreignRecord{typ: warc.TypeRevisit, uri: "http://example.com/a", date: "2026-01-03T00:00:00Z",
			extra: warc.Header{{Name: warc.FieldProfile, Value: "http://netpreserve.org/warc/1.1/revisit/server-not-modified"},
				{Name: warc.FieldRefersToURI, Value: "http://example.com/a"}, {Name: warc.FieldRefersToDate, Value: "2026-01-01T00:00:00Z"}}, block: notModified},
	)
	dst := t.TempDir()
	_, errOut, code := runCmd(t, nil, "import", "warc", "--data", dst, file)
	if code != exitOK || !strings.Contains(errOut, "imported 3 versions") {
		t.Errorf("import: exit %d\n%s", code, errOut)
	}
	got := dump(t, dst)["http://example.com/a"]
	if len(got) != 3 {
		t.Fatalf("%d versions imported, want 3", len(got))
	}
	for i, v := range got {
		if string(v.body) != body {
			t.Errorf("version %d: body %q", i, v.body)
		}
	}
}

// TestWARCImportRecordsInAnyOrder: a file whose captures of a page are not
// in time order (files merged, a crawl's retries) gives the page its
// history in time order, and a revisit ahead of its original finds it;
// the older records were skipped as "no newer than the history".
func TestWARCImportRecordsInAnyOrder(t *testing.T) {
	page := func(s string) string {
		return httpResponse("Content-Type: text/html\r\n", "<html><body><p>"+s+"</p></body></html>")
	}
	file := writeForeignWARC(t, false,
		foreignRecord{typ: warc.TypeRevisit, uri: "http://example.com/a", date: "2026-01-04T00:00:00Z",
			extra: warc.Header{{Name: warc.FieldRefersTo, Value: warc.BracketID(warc.NameID("foreign b"))}}, block: "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"},
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/a", date: "2026-01-02T00:00:00Z", block: page("two")},
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/a", date: "2026-01-03T00:00:00Z", block: page("three")},
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/a", date: "2026-01-01T00:00:00Z", block: page("one")},
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/a", date: "2026-01-03T00:00:00Z", block: page("three")}, // a duplicate
	)
	dst := t.TempDir()
	_, errOut, code := runCmd(t, nil, "import", "warc", "--data", dst, file)
	if code != exitOK || !strings.Contains(errOut, "imported 4 versions") {
		t.Errorf("import: exit %d\n%s", code, errOut)
	}
	var got []string
	for _, v := range dump(t, dst)["http://example.com/a"] {
		got = append(got, v.v.FetchedAt.Format("02")+" "+string(v.body[len("<html><body><p>"):len(v.body)-len("</p></body></html>")]))
	}
	if want := "01 one,02 two,03 three,04 two"; strings.Join(got, ",") != want {
		t.Errorf("history %s, want %s", strings.Join(got, ","), want)
	}
}

// TestWARCImportSkipsHugeRecords: a record longer than import warc takes
// (a video in a crawl) is named and skipped, and the records after it are
// imported; it stopped the import, and one up to 1 GiB was read into
// memory to be stored.
func TestWARCImportSkipsHugeRecords(t *testing.T) {
	page := httpResponse("Content-Type: text/html\r\n", "<html><body><p>fine</p></body></html>")
	huge := httpResponse("Content-Type: video/mp4\r\n", strings.Repeat("\x00", importMaxBlock))
	file := writeForeignWARC(t, false,
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/video.mp4", date: "2026-01-01T00:00:00Z", block: huge},
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/a", date: "2026-01-01T00:00:00Z", block: page},
	)
	dst := t.TempDir()
	_, errOut, code := runCmd(t, nil, "import", "warc", "--data", dst, file)
	if code != exitError || !strings.Contains(errOut, "record 1 at offset 0") || !strings.Contains(errOut, "imported 1 version;") {
		t.Errorf("import: exit %d\n%s", code, errOut)
	}
	if got := dump(t, dst); len(got) != 1 || len(got["http://example.com/a"]) != 1 {
		t.Errorf("imported %d pages, want /a", len(got))
	}
}

// TestWARCImportRefusesIncompleteRecords: a response its writer cut short
// (WARC-Truncated, a crawler's size or time limit), or split into segments
// (WARC-Segment-Number, continuation records) whose last segment is not in
// the file, holds part of the page: it is named and not imported, where it
// was stored as a version of the page with a part of its body.
func TestWARCImportRefusesIncompleteRecords(t *testing.T) {
	page := httpResponse("Content-Type: text/html\r\n", "<html><body><p>fine</p></body></html>")
	file := writeForeignWARC(t, false,
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/a", date: "2026-01-01T00:00:00Z",
			extra: warc.Header{{Name: "WARC-Truncated", Value: "length"}}, block: page[:len(page)-20]},
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/b", date: "2026-01-01T00:00:00Z",
			extra: warc.Header{{Name: "WARC-Segment-Number", Value: "1"}}, block: page[:len(page)-20]},
		foreignRecord{typ: warc.TypeContinuation, uri: "http://example.com/b", date: "2026-01-01T00:00:00Z",
			extra: warc.Header{{Name: "WARC-Segment-Number", Value: "2"}, {Name: "WARC-Segment-Origin-ID", Value: warc.BracketID(warc.NameID("foreign b"))}}, block: page[len(page)-20:]},
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/c", date: "2026-01-01T00:00:00Z", block: page},
	)
	dst := t.TempDir()
	_, errOut, code := runCmd(t, nil, "import", "warc", "--data", dst, file)
	if code != exitError || !strings.Contains(errOut, "record 1 at offset") || !strings.Contains(errOut, "truncated") ||
		!strings.Contains(errOut, "record 2 at offset") || !strings.Contains(errOut, "segments after it are missing") || !strings.Contains(errOut, "imported 1 version;") {
		t.Errorf("import: exit %d\n%s", code, errOut)
	}
	if got := dump(t, dst); len(got) != 1 || len(got["http://example.com/c"]) != 1 {
		t.Errorf("imported %d pages, want /c", len(got))
	}
}

// TestWARCImportResponseWithoutContentType: a response record without the
// Content-Type WARC 1.1 asks for, its block an HTTP response, is imported
// as warcio reads it; it was skipped without a word. One whose block is
// not an HTTP response is named, not imported (exit 2), as a malformed
// HTTP message is (TestWARCImportNamesResponseNotHTTP).
func TestWARCImportResponseWithoutContentType(t *testing.T) {
	page := httpResponse("Content-Type: text/html\r\n", "<html><body><p>fine</p></body></html>")
	file := writeForeignWARC(t, false,
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/a", date: "2026-01-01T00:00:00Z",
			extra: warc.Header{{Name: warc.FieldContentType, Value: ""}}, block: page},
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/b", date: "2026-01-01T00:00:00Z",
			extra: warc.Header{{Name: warc.FieldContentType, Value: ""}}, block: "not http"},
	)
	dst := t.TempDir()
	_, errOut, code := runCmd(t, nil, "import", "warc", "--data", dst, file)
	if code != exitError || !strings.Contains(errOut, "imported 1 version; skipped 0 records") || !strings.Contains(errOut, "record 2 at offset ") {
		t.Errorf("import: exit %d\n%s", code, errOut)
	}
	if got := dump(t, dst); len(got) != 1 || len(got["http://example.com/a"]) != 1 {
		t.Errorf("imported %d pages, want /a", len(got))
	}
}

// TestWARCImportRevisitTakesItsOriginalsHeader: a revisit with no HTTP
// header (an empty block, which WARC 1.1 allows) or a 304 Not Modified's
// (a server-not-modified revisit) is its original's status, type and
// validators with the same body; the first was refused as malformed HTTP,
// the second stored as a 304 of no type, which Vigil reads as text.
func TestWARCImportRevisitTakesItsOriginalsHeader(t *testing.T) {
	body := "<html><body><p>unchanged</p></body></html>"
	file := writeForeignWARC(t, false,
		foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/a", date: "2026-01-01T00:00:00Z",
			block: "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nETag: \"x\"\r\nLast-Modified: Wed, 31 Dec 2025 00:00:00 GMT\r\n\r\n" + body},
		foreignRecord{typ: warc.TypeRevisit, uri: "http://example.com/a", date: "2026-01-02T00:00:00Z",
			extra: warc.Header{{Name: warc.FieldRefersTo, Value: warc.BracketID(warc.NameID("foreign a"))}, {Name: warc.FieldContentType, Value: ""}}},
		foreignRecord{typ: warc.TypeRevisit, uri: "http://example.com/a", date: "2026-01-03T00:00:00Z",
			extra: warc.Header{{Name: warc.FieldRefersTo, Value: warc.BracketID(warc.NameID("foreign a"))}, {Name: warc.FieldProfile, Value: "http://netpreserve.org/warc/1.1/revisit/server-not-modified"}},
			block: "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\n\r\n"},
	)
	dst := t.TempDir()
	_, errOut, code := runCmd(t, nil, "import", "warc", "--data", dst, file)
	if code != exitOK || !strings.Contains(errOut, "imported 3 versions") {
		t.Errorf("import: exit %d\n%s", code, errOut)
	}
	got := dump(t, dst)["http://example.com/a"]
	if len(got) != 3 {
		t.Fatalf("%d versions imported, want 3", len(got))
	}
	for i, v := range got {
		if string(v.body) != body || v.v.Status != 200 || v.v.ContentType != "text/html" || v.v.Charset != "utf-8" || v.v.ETag != `"x"` || v.v.LastModified.IsZero() {
			t.Errorf("version %d: %d %q %q %q %v %q", i, v.v.Status, v.v.ContentType, v.v.Charset, v.v.ETag, v.v.LastModified, v.body)
		}
	}
}

// TestWARCImportRevisitKeepsOriginalsETag: a 304 revisit whose own header
// gives no ETag, or one that is no text (a Latin-1 byte), keeps its
// original's: only an ETag the revisit states replaces it.
func TestWARCImportRevisitKeepsOriginalsETag(t *testing.T) {
	body := "<html><body><p>unchanged</p></body></html>"
	for name, block := range map[string]string{
		"no ETag":        "HTTP/1.1 304 Not Modified\r\nDate: Sat, 03 Jan 2026 00:00:00 GMT\r\n\r\n",
		"ETag not UTF-8": "HTTP/1.1 304 Not Modified\r\nETag: \"\xe9\"\r\n\r\n",
	} {
		t.Run(name, func(t *testing.T) {
			file := writeForeignWARC(t, false,
				foreignRecord{typ: warc.TypeResponse, uri: "http://example.com/a", date: "2026-01-01T00:00:00Z",
					block: "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nETag: \"x\"\r\n\r\n" + body},
				foreignRecord{typ: warc.TypeRevisit, uri: "http://example.com/a", date: "2026-01-03T00:00:00Z",
					extra: warc.Header{{Name: warc.FieldRefersTo, Value: warc.BracketID(warc.NameID("foreign a"))}, {Name: warc.FieldProfile, Value: "http://netpreserve.org/warc/1.1/revisit/server-not-modified"}},
					block: block},
			)
			dst := t.TempDir()
			if _, errOut, code := runCmd(t, nil, "import", "warc", "--data", dst, file); code != exitOK {
				t.Fatalf("import: exit %d\n%s", code, errOut)
			}
			got := dump(t, dst)["http://example.com/a"]
			if len(got) != 2 {
				t.Fatalf("%d versions imported, want 2", len(got))
			}
			for i, v := range got {
				if v.v.ETag != `"x"` {
					t.Errorf("version %d: ETag %q, want the original's \"x\"", i, v.v.ETag)
				}
			}
		})
	}
}
