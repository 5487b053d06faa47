package warc_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/warc"
)

// gzipMembers compresses each of parts as a gzip member of its own, as
// .arc.gz files are written.
func gzipMembers(t testing.TB, parts ...[]byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	for _, p := range parts {
		zw := gzip.NewWriter(&buf)
		zw.Write(p)
		zw.Close()
	}
	return buf.Bytes()
}

// arcRecords splits an ARC file into its records: the lines that start
// one are those after a blank line (and the first).
func arcRecords(t testing.TB, data []byte) [][]byte {
	t.Helper()
	var out [][]byte
	for _, start := range []string{"http://www.dryswamp.edu", "dns:"} {
		i := bytes.Index(data, []byte(start))
		out = append(out, data[:i])
		data = data[i:]
	}
	return append(out, data)
}

// TestARC: an ARC file (the Internet Archive's format before WARC), plain
// or one gzip member a record, is read by content, whatever its name: its
// filedesc:// version block as a warcinfo record, an HTTP response as a
// response record of its URL and date, another block (a dns: record) as
// a resource record of its content type.
func TestARC(t *testing.T) {
	plain, err := os.ReadFile("testdata/example.arc")
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{"arc": plain, "arc.gz": gzipMembers(t, arcRecords(t, plain)...)} {
		t.Run(name, func(t *testing.T) {
			r, err := warc.NewReader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			want := []struct{ typ, uri, date, ct, ip, blockStart string }{
				{warc.TypeWarcinfo, "filedesc://IA-001102.arc", "1996-09-23T14:21:03Z", "text/plain", "0.0.0.0", "1 0 Alexa Internet\n"},
				{warc.TypeResponse, "http://www.dryswamp.edu:80/index.html", "1996-11-04T14:21:03Z", "application/http; msgtype=response", "127.10.100.2", "HTTP/1.0 200 Document follows\r\n"},
				{warc.TypeResource, "dns:www.archive.org", "2008-04-30T20:48:25Z", "text/dns", "207.241.224.2", "20080430204825\n"},
			}
			ids := map[string]bool{}
			for i, w := range want {
				rec, err := r.Next()
				if err != nil {
					t.Fatalf("record %d: %v", i+1, err)
				}
				if rec.Type() != w.typ || rec.Header.Get(warc.FieldTargetURI) != w.uri || rec.Header.Get(warc.FieldDate) != w.date ||
					rec.Header.Get(warc.FieldContentType) != w.ct || rec.Header.Get("WARC-IP-Address") != w.ip ||
					!bytes.HasPrefix(rec.Block, []byte(w.blockStart)) || rec.ID() == "" || ids[rec.ID()] {
					t.Errorf("record %d: %v %q", i+1, rec.Header, rec.Block)
				}
				ids[rec.ID()] = true
				if name == "arc.gz" && !strings.Contains(r.Where(), "gzip member at byte") {
					t.Errorf("record %d: where %q names no gzip member", i+1, r.Where())
				}
			}
			if rec, err := r.Next(); err != io.EOF {
				t.Errorf("after the last record: %v, %v", rec, err)
			}
		})
	}
	// The same file again gives the same ids: a record's id is its URL,
	// date and offset.
	a, _ := warc.NewReader(bytes.NewReader(plain))
	b, _ := warc.NewReader(bytes.NewReader(plain))
	ra, _ := a.Next()
	rb, _ := b.Next()
	if ra.ID() != rb.ID() {
		t.Errorf("ids differ between two reads: %s %s", ra.ID(), rb.ID())
	}
}

// TestARCVersion2: a version 2 ARC file's header lines have ten fields
// (result code, checksum, location, offset and file name between the
// type and the length); the length is the last.
func TestARCVersion2(t *testing.T) {
	vblock := "2 0 Internet Archive\nURL IP-address Archive-date Content-type Result-code Checksum Location Offset Filename Archive-length\n"
	resp := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>v2</p>"
	data := "filedesc://v2.arc 0.0.0.0 20050101000000 text/plain 200 - - 0 v2.arc " + strconv.Itoa(len(vblock)) + "\n" + vblock + "\n" +
		"http://example.com/a b 10.0.0.1 20050614070159 text/html 200 ABCD - 1234 v2.arc " + strconv.Itoa(len(resp)) + "\n" + resp + "\n"
	r, err := warc.NewReader(strings.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	rec, err := r.Next()
	if err != nil || rec.Header.Get(warc.FieldTargetURI) != "http://example.com/a b" || string(rec.Block) != resp ||
		rec.Header.Get(warc.FieldDate) != "2005-06-14T07:01:59Z" {
		t.Fatalf("%v %v %q", err, rec, rec.Block)
	}
}

// TestARCErrors: a header line that is not one, a length that is not a
// number, and a block cut short are errors naming the record by its
// number and offset; a block longer than MaxBlock is read past and
// reported (ErrTooLong), the records after it read.
func TestARCErrors(t *testing.T) {
	plain, err := os.ReadFile("testdata/example.arc")
	if err != nil {
		t.Fatal(err)
	}
	parts := arcRecords(t, plain)
	cases := map[string]struct {
		data     []byte
		maxBlock int64
		want     string // the error of the second record
		after    bool   // whether the third is read after it
	}{
		"cut short":    {data: plain[:len(parts[0])+100], want: "warc: record 2 at offset 138 (http://www.dryswamp.edu:80/index.html): block of 210 bytes cut short at"},
		"bad length":   {data: bytes.Replace(plain, []byte("text/html 210"), []byte("text/html x"), 1), want: `warc: record 2 at offset 138: ARC header line "http://www.dryswamp.edu:80/index.html 127.10.100.2 19961104142103 text/html x": its last field, the length, is not a number`},
		"short header": {data: bytes.Replace(plain, []byte("127.10.100.2 19961104142103 text/html "), nil, 1), want: `warc: record 2 at offset 138: ARC header line "http://www.dryswamp.edu:80/index.html 210": 2 fields, want 5`},
		"too long":     {data: plain, maxBlock: 100, want: "block longer than the reader takes", after: true},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			r, err := warc.NewReader(bytes.NewReader(c.data))
			if err != nil {
				t.Fatal(err)
			}
			r.MaxBlock = c.maxBlock
			if _, err := r.Next(); err != nil {
				t.Fatal(err)
			}
			_, err = r.Next()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("second record: %v, want %q", err, c.want)
			}
			if c.maxBlock > 0 && !errors.Is(err, warc.ErrTooLong) {
				t.Errorf("%v is not ErrTooLong", err)
			}
			if rec, err := r.Next(); c.after && (err != nil || rec.Header.Get(warc.FieldTargetURI) != "dns:www.archive.org") {
				t.Errorf("third record after it: %v, %v", rec, err)
			}
		})
	}
}
