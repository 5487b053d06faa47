package warc_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"

	"github.com/vigil-web/vigil/internal/warc"
)

func readAll(t *testing.T, r io.Reader, verify bool) ([]*warc.Record, []error) {
	t.Helper()
	wr, err := warc.NewReader(r)
	if err != nil {
		t.Fatal(err)
	}
	wr.Verify = verify
	var recs []*warc.Record
	var errs []error
	for {
		rec, err := wr.Next()
		if err == io.EOF {
			return recs, errs
		}
		if err != nil && !errors.Is(err, warc.ErrDigest) {
			t.Fatal(err)
		}
		errs = append(errs, err)
		recs = append(recs, rec)
	}
}

// TestStandardExamples reads the records of the WARC 1.1 standard's Annex C
// (testdata/standard-examples.warc, typed in by hand; the JPEG payload is a
// text stand-in).
func TestStandardExamples(t *testing.T) {
	f, err := os.Open("testdata/standard-examples.warc")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, errs := readAll(t, f, true)
	want := []struct{ typ, id string }{
		{warc.TypeWarcinfo, "urn:uuid:d7ae5c10-e6b3-4d27-967d-34780c58ba39"},
		{warc.TypeRequest, "urn:uuid:4885803b-eebd-4b27-a090-144450c11594"},
		{warc.TypeResponse, "urn:uuid:92283950-ef2f-4d72-b224-f54c6ec90bb0"},
		{warc.TypeResource, "urn:uuid:23200706-de3e-3c61-a131-g65d7fd80cc1"},
		{warc.TypeMetadata, "urn:uuid:16da6da0-bcdc-49c3-927e-57494593b943"},
		{warc.TypeRevisit, "urn:uuid:16da6da0-bcdc-49c3-927e-57494593bbbb"},
	}
	if len(recs) != len(want) {
		t.Fatalf("%d records, want %d", len(recs), len(want))
	}
	for i, w := range want {
		if recs[i].Type() != w.typ || recs[i].ID() != w.id || recs[i].Version != "WARC/1.1" {
			t.Errorf("record %d: %s %s, want %s %s", i, recs[i].Type(), recs[i].ID(), w.typ, w.id)
		}
	}
	// The standard's digests are illustrations, not digests of its blocks:
	// verification says so for the records that carry one.
	for i, err := range errs {
		hasDigest := recs[i].Header.Get(warc.FieldBlockDigest) != ""
		if hasDigest != errors.Is(err, warc.ErrDigest) {
			t.Errorf("record %d: digest error %v", i, err)
		}
	}
	d, err := recs[2].Date()
	if err != nil || !d.Equal(time.Date(2016, 9, 19, 17, 20, 24, 0, time.UTC)) {
		t.Errorf("date %v %v", d, err)
	}
	status, h, payload, err := warc.ParseHTTPResponse(recs[2].Block)
	if err != nil || status != 200 || h.Get("ETag") != `"3e45-67e-2ed02ec0"` || string(payload) != "[image/jpeg binary data here]" {
		t.Errorf("response: %d %v %q %v", status, h, payload, err)
	}
	status, h, payload, err = warc.ParseHTTPResponse(recs[5].Block)
	if err != nil || status != 200 || h.Get("Content-Type") != "image/jpeg" || len(payload) != 0 {
		t.Errorf("revisit: %d %v %q %v", status, h, payload, err)
	}
	if got := recs[5].Header.Get(warc.FieldProfile); got != warc.ProfileIdenticalPayload {
		t.Errorf("profile %q", got)
	}
	if !strings.Contains(string(recs[0].Block), "format: WARC file version 1.1") {
		t.Errorf("warcinfo block %q", recs[0].Block)
	}
}

func TestRoundTripGzipPerRecord(t *testing.T) {
	date := time.Date(2026, 11, 21, 8, 0, 0, 123456789, time.UTC)
	body := []byte("<html><body>hello</body></html>")
	head := warc.HTTPResponseHead(200, http.Header{"Content-Type": {"text/html; charset=utf-8"}, "Etag": {`"v1"`}}, len(body))
	in := []*warc.Record{
		{Header: warc.Header{{warc.FieldType, warc.TypeWarcinfo}, {warc.FieldDate, warc.FormatDate(date)}, {warc.FieldContentType, "application/warc-fields"}},
			Block: []byte("software: Vigil\r\nformat: WARC File Format 1.1\r\n")},
		{Header: warc.Header{{warc.FieldType, warc.TypeResponse}, {warc.FieldDate, warc.FormatDate(date)},
			{warc.FieldRecordID, warc.BracketID(warc.NameID("x"))}, {warc.FieldTargetURI, "http://example.com/"},
			{warc.FieldPayloadDigest, warc.Digest(body)}, {warc.FieldContentType, "application/http;msgtype=response"}},
			Block: append(head, body...)},
	}
	var buf bytes.Buffer
	w := warc.NewWriter(&buf)
	for _, r := range in {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	// One gzip member per record: a bytes.Reader is an io.ByteReader, so
	// the gzip reader stops exactly at the end of each member.
	br := bytes.NewReader(buf.Bytes())
	zr, err := gzip.NewReader(br)
	if err != nil {
		t.Fatal(err)
	}
	members := 0
	for {
		zr.Multistream(false)
		if _, err := io.Copy(io.Discard, zr); err != nil {
			t.Fatal(err)
		}
		members++
		if err := zr.Reset(br); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
	}
	if members != 2 {
		t.Errorf("%d gzip members, want 2", members)
	}
	recs, errs := readAll(t, bytes.NewReader(buf.Bytes()), true)
	if len(recs) != 2 {
		t.Fatalf("%d records", len(recs))
	}
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	got := recs[1]
	if got.ID() != warc.NameID("x") || got.Header.Get(warc.FieldTargetURI) != "http://example.com/" || !bytes.Equal(got.Block, in[1].Block) {
		t.Fatalf("response record %+v", got.Header)
	}
	if d, _ := got.Date(); !d.Equal(date) {
		t.Errorf("date %v, want %v", d, date)
	}
	if got.Header[0].Name != warc.FieldType || got.Header[len(got.Header)-1].Name != warc.FieldContentLength {
		t.Errorf("field order %v", got.Header)
	}
	_, h, payload, err := warc.ParseHTTPResponse(got.Block)
	if err != nil || !bytes.Equal(payload, body) || h.Get("Content-Length") != "31" {
		t.Fatalf("payload %q %v", payload, err)
	}
	if recs[0].ID() == "" || !strings.HasPrefix(recs[0].ID(), "urn:uuid:") {
		t.Errorf("generated id %q", recs[0].ID())
	}
}

func TestDigestAndDates(t *testing.T) {
	if got := warc.Digest(nil); got != "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ" {
		t.Errorf("digest of nothing %s", got)
	}
	for in, want := range map[string]time.Time{
		"2016-09-19T17:20:24Z":        time.Date(2016, 9, 19, 17, 20, 24, 0, time.UTC),
		"2016-09-19T17:20:24.5Z":      time.Date(2016, 9, 19, 17, 20, 24, 5e8, time.UTC),
		"2016-09-19T19:20:24+02:00":   time.Date(2016, 9, 19, 17, 20, 24, 0, time.UTC),
		"2016-09-19":                  time.Date(2016, 9, 19, 0, 0, 0, 0, time.UTC),
		"2016-09-19T17:20Z":           time.Date(2016, 9, 19, 17, 20, 0, 0, time.UTC),
		"2016-09-19T17:20:24.000001Z": time.Date(2016, 9, 19, 17, 20, 24, 1000, time.UTC),
	} {
		got, err := warc.ParseDate(in)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseDate(%q) = %v, %v", in, got, err)
		}
	}
	if got := warc.FormatDate(time.Date(2016, 9, 19, 17, 20, 24, 0, time.UTC)); got != "2016-09-19T17:20:24Z" {
		t.Errorf("FormatDate %s", got)
	}
	if _, err := warc.ParseDate("yesterday"); err == nil {
		t.Error("bad date accepted")
	}
}

func TestReaderErrors(t *testing.T) {
	good := "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:uuid:1>\r\nWARC-Date: 2016-09-19T17:20:24Z\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n"
	cases := map[string]string{
		"version":        strings.Replace(good, "WARC/1.1", "WARC/0.16", 1),
		"missing date":   strings.Replace(good, "WARC-Date: 2016-09-19T17:20:24Z\r\n", "", 1),
		"bad length":     strings.Replace(good, "Content-Length: 3", "Content-Length: x", 1),
		"length too big": strings.Replace(good, "Content-Length: 3", "Content-Length: 9", 1),
		"truncated":      good[:len(good)-6],
		"bad field":      strings.Replace(good, "WARC-Type: resource", "WARC Type resource", 1),
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			r, _ := warc.NewReader(strings.NewReader(in))
			if _, err := r.Next(); err == nil || err == io.EOF {
				t.Fatalf("no error for %q", in)
			}
		})
	}
	r, _ := warc.NewReader(strings.NewReader(good + "\r\n" + good))
	for i := range 2 {
		rec, err := r.Next()
		if err != nil || string(rec.Block) != "abc" {
			t.Fatalf("record %d: %v", i, err)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("after the last record: %v", err)
	}
	w := warc.NewPlainWriter(io.Discard)
	if err := w.Write(&warc.Record{Header: warc.Header{{warc.FieldType, "resource"}}}); err == nil {
		t.Error("record without a date written")
	}
	if err := w.Write(&warc.Record{Header: warc.Header{{warc.FieldType, "resource"}, {warc.FieldDate, "2016-09-19"}, {"Bad", "a\r\nb"}}}); err == nil {
		t.Error("field with a line break written")
	}
}

func TestHTTPResponseHeadKeepsItsShape(t *testing.T) {
	head := warc.HTTPResponseHead(304, http.Header{"Etag": {"\"a\"\r\nX-Injected: 1"}, "Content-Encoding": {"gzip"}}, 0)
	status, h, payload, err := warc.ParseHTTPResponse(head)
	if err != nil || status != 304 || h.Get("X-Injected") != "" || h.Get("Content-Encoding") != "" || len(payload) != 0 {
		t.Fatalf("%d %v %q %v\n%s", status, h, payload, err, head)
	}
	if !strings.HasPrefix(string(head), "HTTP/1.1 304 Not Modified\r\n") {
		t.Fatalf("status line %q", head)
	}
}

// TestHeaderContinuation reads fields continued over several lines (joined
// by single spaces, blank continuations dropped), and refuses a header
// longer than MaxHeader, whether in one line or in many.
func TestHeaderContinuation(t *testing.T) {
	head := "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:uuid:1>\r\nWARC-Date: 2016-09-19T17:20:24Z\r\n"
	tail := "Content-Length: 3\r\n\r\nabc\r\n\r\n"
	in := head + "X-Long: one\r\n  two \r\n\tthree\r\n   \r\nX-Empty:\r\n four\r\nX-Next: five\r\n" + tail
	r, _ := warc.NewReader(strings.NewReader(in))
	rec, err := r.Next()
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"X-Long": "one two three", "X-Empty": "four", "X-Next": "five", warc.FieldContentLength: "3"} {
		if got := rec.Header.Get(name); got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	for name, extra := range map[string]string{
		"one long line": "X-Long: " + strings.Repeat("x", warc.MaxHeader) + "\r\n",
		"many lines":    "X-Long: x\r\n" + strings.Repeat(" continued\r\n", warc.MaxHeader/11+1),
		"many fields":   strings.Repeat("X-Field: value\r\n", warc.MaxHeader/16+1),
	} {
		r, _ := warc.NewReader(strings.NewReader(head + extra + tail))
		if _, err := r.Next(); err == nil || !strings.Contains(err.Error(), "longer than") {
			t.Errorf("%s: error %v, want a header too long", name, err)
		}
	}
}

// BenchmarkHeaderContinuation reads a record whose one field is continued
// over n lines: linear in n (joined line by line, 200 000 lines took 9 s).
func BenchmarkHeaderContinuation(b *testing.B) {
	for _, n := range []int{2000, 20000} {
		in := "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:uuid:1>\r\nWARC-Date: 2016-09-19T17:20:24Z\r\nX-Long: x\r\n" +
			strings.Repeat(" abc\r\n", n) + "Content-Length: 3\r\n\r\nabc\r\n\r\n"
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for range b.N {
				r, _ := warc.NewReader(strings.NewReader(in))
				if _, err := r.Next(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestDecodePayloadErrors: a coding the package cannot undo (br, with no
// decoder passed for it), or a gzip payload cut short, is an error naming
// it, not a body stored as received.
func TestDecodePayloadErrors(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(strings.Repeat("x", 1000)))
	zw.Close()
	cases := []struct {
		name, coding string
		payload      []byte
		limit        int
		want         string
	}{
		{"br", "br", []byte("\x0b\x02\x80hello\x03"), 0, `"br"`},
		{"gzip-then-br", "gzip, br", gz.Bytes(), 0, `"br"`},
		{"truncated-gzip", "gzip", gz.Bytes()[:gz.Len()/2], 0, "gzip"},
		{"gzip-past-limit", "gzip", gz.Bytes(), 999, "longer than 999 bytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := warc.DecodePayload(http.Header{"Content-Encoding": {c.coding}}, c.payload, c.limit, nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one naming %s", err, c.want)
			}
		})
	}
}

// brotliDecoders decode br as import warc does, with the brotli module
// (a test dependency here; the package itself uses the standard library
// alone).
var brotliDecoders = warc.Decoders{"br": func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil }}

func brotlied(b []byte) []byte {
	var out bytes.Buffer
	bw := brotli.NewWriter(&out)
	bw.Write(b)
	bw.Close()
	return out.Bytes()
}

// TestDecodePayloadDecoders: a content coding the package does not know
// is undone by the decoder passed for it, alone or with the codings it
// knows; a payload its decoder refuses is an error naming the coding, not
// a body taken as decoded already; and one that decodes to more than the
// limit (a bomb) is refused having read no more than that.
func TestDecodePayloadDecoders(t *testing.T) {
	page := []byte("<html><body><p>hello</p></body></html>")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(page)
	zw.Close()
	var brGz bytes.Buffer
	zw = gzip.NewWriter(&brGz)
	zw.Write(brotlied(page))
	zw.Close()
	bomb := brotlied(make([]byte, 1<<20))
	cases := []struct {
		name, te, ce string
		payload      []byte
		limit        int
		want         string
		wantErr      string
	}{
		{"br", "", "br", brotlied(page), 0, string(page), ""},
		{"br-upper-case", "", "BR", brotlied(page), 0, string(page), ""},
		{"gzip-then-br", "", "gzip, br", brotlied(gz.Bytes()), 0, string(page), ""},
		{"br-then-gzip", "", "br, gzip", brGz.Bytes(), 0, string(page), ""},
		{"chunked-br", "chunked", "br", chunk(brotlied(page)), 0, string(page), ""},
		{"br-at-limit", "", "br", brotlied(page), len(page), string(page), ""},
		{"br-past-limit", "", "br", brotlied(page), len(page) - 1, "", fmt.Sprintf("br: decoded payload longer than %d bytes", len(page)-1)},
		{"br-bomb", "", "br", bomb, 1 << 16, "", "br: decoded payload longer than 65536 bytes"},
		{"chunked-past-limit", "chunked", "br", chunk(brotlied(page)), 10, "", "chunked transfer coding: decoded payload longer than 10 bytes"},
		{"br-cut-short", "", "br", brotlied(page)[:10], 0, "", "content coding br"},
		{"br-decoded-already", "", "br", page, 0, "", "content coding br"},
		{"unknown-with-decoders", "", "zstd", page, 0, "", `"zstd"`},
		// An empty body (a redirect's, a 304's, a HEAD's) under a
		// coding has nothing to decode: it is the empty entity, as a
		// client reads it, not a stream cut short.
		{"br-empty", "", "br", nil, 0, "", ""},
		{"deflate-empty", "", "deflate", nil, 0, "", ""},
		{"gzip-br-empty", "", "gzip, br", nil, 0, "", ""},
		{"chunked-br-empty", "chunked", "br", []byte("0\r\n\r\n"), 0, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := http.Header{"Content-Encoding": {c.ce}}
			if c.te != "" {
				h.Set("Transfer-Encoding", c.te)
			}
			got, err := warc.DecodePayload(h, c.payload, c.limit, brotliDecoders)
			switch {
			case c.wantErr == "" && (err != nil || string(got) != c.want):
				t.Errorf("got %q, %v; want %q", got, err, c.want)
			case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
				t.Errorf("got %q, %v; want an error naming %s", got, err, c.wantErr)
			}
		})
	}
}

// chunk writes b as one chunk of the chunked transfer coding and the last.
func chunk(b []byte) []byte {
	return fmt.Appendf(nil, "%x\r\n%s\r\n0\r\n\r\n", len(b), b)
}

// TestReaderErrorsSayWhere: a reader's error names the record by its
// number and the offset it starts at, in the stream as read (uncompressed),
// so that a bad record in a large file can be found.
func TestReaderErrorsSayWhere(t *testing.T) {
	good := "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:uuid:1>\r\nWARC-Date: 2016-09-19T17:20:24Z\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n"
	in := good + "\r\n" + good + good[:len(good)-8]
	want := fmt.Sprintf("record 3 at offset %d", 2*len(good)+2)
	for _, gz := range []bool{false, true} {
		var src io.Reader = strings.NewReader(in)
		if gz {
			var b bytes.Buffer
			zw := gzip.NewWriter(&b)
			zw.Write([]byte(in))
			zw.Close()
			src = &b
		}
		r, err := warc.NewReader(src)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 2 {
			if _, err := r.Next(); err != nil {
				t.Fatalf("record %d: %v", i+1, err)
			}
			if want := int64(i * (len(good) + 2)); r.Offset() != want {
				t.Errorf("record %d at offset %d, want %d", i+1, r.Offset(), want)
			}
			if r.Number() != i+1 {
				t.Errorf("record %d numbered %d", i+1, r.Number())
			}
		}
		if _, err := r.Next(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("gzip %v: error %v, want one saying %s", gz, err, want)
		}
	}
}

// TestReaderSkipsLongBlocks: a record whose block is longer than the
// reader's MaxBlock is returned with its header, no block and an error
// wrapping ErrTooLong, and the reader goes on to the next record; the
// reader stopped at it, and read a block up to 1 GiB into memory.
func TestReaderSkipsLongBlocks(t *testing.T) {
	rec := func(id, block string) string {
		return fmt.Sprintf("WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:uuid:%s>\r\nWARC-Date: 2016-09-19T17:20:24Z\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", id, len(block), block)
	}
	in := rec("1", strings.Repeat("x", 100)) + rec("2", "small") + rec("3", strings.Repeat("y", 10))
	r, err := warc.NewReader(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	r.MaxBlock = 10
	got, err := r.Next()
	if !errors.Is(err, warc.ErrTooLong) || got == nil || got.ID() != "urn:uuid:1" || got.Block != nil || !strings.Contains(err.Error(), "record 1 at offset 0") {
		t.Fatalf("long record: %v %v", got, err)
	}
	for _, want := range []string{"small", strings.Repeat("y", 10)} {
		if got, err := r.Next(); err != nil || string(got.Block) != want {
			t.Fatalf("next record: %v %v", got, err)
		}
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("after the last: %v", err)
	}
}

// TestParseHTTPResponsePayload: the payload is what follows the header in
// the block, however the header's lines end and whatever its
// Content-Length or Transfer-Encoding say; a header ended by LF CRLF gave
// the body as Go's HTTP reader decoded it (FuzzDecodePayload found it).
func TestParseHTTPResponsePayload(t *testing.T) {
	cases := map[string]struct{ block, payload string }{
		"crlf":              {"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nabcd", "abcd"},
		"lf":                {"HTTP/1.1 200 OK\nContent-Length: 2\n\nabcd", "abcd"},
		"lf-crlf":           {"HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\r\n1\r\nx\r\n0\r\n\r\n", "1\r\nx\r\n0\r\n\r\n"},
		"crlf-lf":           {"HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\nab", "ab"},
		"lf-body-has-crlf":  {"HTTP/1.1 200 OK\nA: b\n\nx\r\n\r\ny", "x\r\n\r\ny"},
		"crlf-body-has-lf2": {"HTTP/1.1 200 OK\r\nA: b\r\n\r\nx\n\ny", "x\n\ny"},
		"no-body":           {"HTTP/1.1 304 Not Modified\r\n\r\n", ""},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, _, payload, err := warc.ParseHTTPResponse([]byte(c.block))
			if err != nil || string(payload) != c.payload {
				t.Errorf("payload %q, %v; want %q", payload, err, c.payload)
			}
		})
	}
}

// TestParseHTTPResponseVersions: a status line of HTTP/2 or HTTP/3 (as
// StormCrawler and Zeno write them), or with its version in lower case,
// is read like HTTP/1.1's; they were malformed HTTP, and their records
// not imported.
func TestParseHTTPResponseVersions(t *testing.T) {
	for _, line := range []string{"HTTP/2 200 OK", "HTTP/2.0 200 OK", "HTTP/3 200", "http/1.1 200 OK", "HTTP/1.x 200 OK", "HTTP/1.0 200 OK"} {
		t.Run(line, func(t *testing.T) {
			status, h, payload, err := warc.ParseHTTPResponse([]byte(line + "\r\ncontent-type: text/html\r\n\r\n<p>x</p>"))
			if err != nil || status != 200 || h.Get("Content-Type") != "text/html" || string(payload) != "<p>x</p>" {
				t.Errorf("%d %v %q %v", status, h, payload, err)
			}
		})
	}
	if _, _, _, err := warc.ParseHTTPResponse([]byte("ICY 200 OK\r\n\r\n")); err == nil {
		t.Error("a status line of no HTTP version read")
	}
}

// TestReaderOldVersions: the drafts 0.17 and 0.18, which early Heritrix
// wrote and whose records are laid out as 1.0's, are read (as warcio reads
// them); the reader refused them, and so older crawls' files.
func TestReaderOldVersions(t *testing.T) {
	for _, version := range []string{"WARC/0.17", "WARC/0.18", "WARC/1.0", "WARC/1.1"} {
		in := version + "\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:uuid:1>\r\nWARC-Date: 2008-09-19T17:20:24Z\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n"
		r, err := warc.NewReader(strings.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		if rec, err := r.Next(); err != nil || rec.Version != version || string(rec.Block) != "abc" {
			t.Errorf("%s: %v %v", version, rec, err)
		}
	}
	for _, version := range []string{"WARC/0.9", "WARC/0.16", "WARC/2.0", "warc/1.0"} {
		r, _ := warc.NewReader(strings.NewReader(version + "\r\n"))
		if _, err := r.Next(); err == nil || !strings.Contains(err.Error(), "version line") {
			t.Errorf("%s: %v", version, err)
		}
	}
}

// TestReaderSaysWhereInGzip: in a .warc.gz file of a gzip member per
// record, a record is also named by its member's offset in the file, the
// one CDX indexes and tools that extract a record take; only the offset in
// the uncompressed stream was given, which no tool can seek to.
func TestReaderSaysWhereInGzip(t *testing.T) {
	var file bytes.Buffer
	var members []int
	w := warc.NewWriter(&file)
	for i := range 3 {
		members = append(members, file.Len())
		if err := w.Write(&warc.Record{Header: warc.Header{{Name: warc.FieldType, Value: "resource"}, {Name: warc.FieldDate, Value: "2026-01-01T00:00:00Z"}},
			Block: []byte(strings.Repeat("x", 100*i))}); err != nil {
			t.Fatal(err)
		}
	}
	data := file.Bytes()
	data = data[:members[2]+(len(data)-members[2])/2] // the last member cut in its middle
	r, err := warc.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		if _, err := r.Next(); err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("gzip member at byte %d", members[i]); !strings.Contains(r.Where(), want) {
			t.Errorf("record %d: %s, want %s", i+1, r.Where(), want)
		}
	}
	_, err = r.Next()
	if want := fmt.Sprintf("record 3 at offset %d (uncompressed; gzip member at byte %d)", r.Offset(), members[2]); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want one saying %s", err, want)
	}
}

// TestDecodePayloadChunked: a chunked payload is decoded; one taken as
// decoded already is one whose first chunk is no chunk. A payload chunked
// but cut short (no last chunk, a chunk shorter than its size) is an
// error, not a body stored with its chunk sizes in it; one longer than the
// limit says so, whatever coding follows.
func TestDecodePayloadChunked(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(strings.Repeat("x", 1000)))
	zw.Close()
	gzChunked := fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", gz.Len(), gz.Bytes())
	// Gzip that does not shrink: its chunks alone pass the limit.
	var noise bytes.Buffer
	zw = gzip.NewWriter(&noise)
	for i := range 4000 {
		zw.Write([]byte{byte(i*7919>>3 ^ i)})
	}
	zw.Close()
	noiseChunked := fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", noise.Len(), noise.Bytes())
	cases := []struct {
		name, te, ce, payload string
		limit                 int
		want, wantErr         string
	}{
		{"chunked", "chunked", "", "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n", 0, "hello world", ""},
		{"decoded-already", "chunked", "", "hello world", 0, "hello world", ""},
		{"hex-line-decoded-already", "chunked", "", "cafe\nbabe\n", 0, "cafe\nbabe\n", ""},
		{"no-last-chunk", "chunked", "", "5\r\nhello\r\n6\r\n world\r\n", 0, "", "chunked"},
		{"chunk-cut-short", "chunked", "", "5\r\nhello\r\n6\r\n wo", 0, "", "chunked"},
		{"chunked-past-limit", "chunked", "", "5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n", 8, "", "longer than 8 bytes"},
		{"chunked-gzip-past-limit", "chunked", "gzip", gzChunked, 999, "", "longer than 999 bytes"},
		{"chunked-gzip", "chunked", "gzip", gzChunked, 0, strings.Repeat("x", 1000), ""},
		{"chunks-past-limit-gzip", "chunked", "gzip", noiseChunked, 1000, "", "longer than 1000 bytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := http.Header{"Transfer-Encoding": {c.te}}
			if c.ce != "" {
				h.Set("Content-Encoding", c.ce)
			}
			got, err := warc.DecodePayload(h, []byte(c.payload), c.limit, nil)
			switch {
			case c.wantErr == "" && (err != nil || string(got) != c.want):
				t.Errorf("got %q, %v; want %q", got, err, c.want)
			case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
				t.Errorf("got %q, %v; want an error naming %s", got, err, c.wantErr)
			}
		})
	}
}

// TestReaderSkipsRecordsMissingFields: a record without WARC-Type,
// WARC-Record-ID or WARC-Date, whose Content-Length still frames it, is
// returned with its block and an error naming the field
// (*MissingFieldError), and the reader goes on to the next record; the
// reader stopped at it, so that no record after it could be read. A
// record without a Content-Length cannot be read past: the reader stops.
func TestReaderSkipsRecordsMissingFields(t *testing.T) {
	good := "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:uuid:1>\r\nWARC-Date: 2016-09-19T17:20:24Z\r\nContent-Length: 3\r\n\r\nabc\r\n\r\n"
	for _, tc := range []struct {
		field, want string
	}{
		{warc.FieldDate, "record 1 at offset 0 (urn:uuid:1): missing WARC-Date"},
		{warc.FieldRecordID, "record 1 at offset 0: missing WARC-Record-ID"},
		{warc.FieldType, "record 1 at offset 0 (urn:uuid:1): missing WARC-Type"},
	} {
		t.Run(tc.field, func(t *testing.T) {
			var without []string
			for _, l := range strings.SplitAfter(good, "\r\n") {
				if !strings.HasPrefix(l, tc.field+":") {
					without = append(without, l)
				}
			}
			r, err := warc.NewReader(strings.NewReader(strings.Join(without, "") + good))
			if err != nil {
				t.Fatal(err)
			}
			rec, err := r.Next()
			var missing *warc.MissingFieldError
			if !errors.As(err, &missing) || missing.Field != tc.field || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want a MissingFieldError saying %q", err, tc.want)
			}
			if rec == nil || string(rec.Block) != "abc" {
				t.Fatalf("record %v, want it with its block", rec)
			}
			if rec, err := r.Next(); err != nil || rec.ID() != "urn:uuid:1" || r.Number() != 2 {
				t.Fatalf("the next record: %v, %v", rec, err)
			}
			if _, err := r.Next(); err != io.EOF {
				t.Fatalf("after the last: %v", err)
			}
		})
	}
	r, err := warc.NewReader(strings.NewReader(strings.Replace(good, "Content-Length: 3\r\n", "", 1) + good))
	if err != nil {
		t.Fatal(err)
	}
	if rec, err := r.Next(); rec != nil || err == nil || !strings.Contains(err.Error(), "missing Content-Length") {
		t.Fatalf("no Content-Length: %v, %v; want no record and the error", rec, err)
	}
}
