package warc_test

import (
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/vigil-web/vigil/internal/warc"
)

// FuzzReader feeds arbitrary bytes to the reader: it must never panic, and
// every record it returns must survive a write and a second read unchanged.
func FuzzReader(f *testing.F) {
	std, err := os.ReadFile("testdata/standard-examples.warc")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(std)
	var gz bytes.Buffer
	w := warc.NewWriter(&gz)
	w.Write(&warc.Record{Header: warc.Header{{Name: warc.FieldType, Value: "resource"}, {Name: warc.FieldDate, Value: "2026-11-21T08:00:00Z"}}, Block: []byte("x")})
	f.Add(gz.Bytes())
	f.Add([]byte("WARC/1.1\r\nWARC-Type: a\r\nWARC-Record-ID: <x>\r\nWARC-Date: 2000\r\nContent-Length: 0\r\n\r\n\r\n\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := warc.NewReader(bytes.NewReader(data))
		if err != nil {
			return
		}
		for range 50 {
			rec, err := r.Next()
			if err != nil {
				return
			}
			var buf bytes.Buffer
			if err := warc.NewPlainWriter(&buf).Write(rec); err != nil {
				continue // a field the writer refuses (a name with a space...)
			}
			r2, err := warc.NewReader(&buf)
			if err != nil {
				t.Fatal(err)
			}
			back, err := r2.Next()
			if err != nil {
				t.Fatalf("rewritten record does not read back: %v\n%q", err, buf.Bytes())
			}
			if !bytes.Equal(back.Block, rec.Block) || back.Type() != rec.Type() || back.ID() != rec.ID() {
				t.Fatalf("record changed on rewrite")
			}
			if _, err := r2.Next(); err != io.EOF {
				t.Fatalf("more than one record after rewrite: %v", err)
			}
		}
	})
}

// FuzzDecodePayload feeds arbitrary bytes to what import warc does with a
// response record's block, ParseHTTPResponse and then DecodePayload: they
// must never panic, a payload must be the end of the block, and an entity
// must not pass the limit it is given, br decoded as import warc decodes
// it. Seeds are under testdata/fuzz/FuzzDecodePayload (chunked, gzip,
// deflate, br, and codings together; a br body cut short, and one past
// the limit).
func FuzzDecodePayload(f *testing.F) {
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"))
	const limit = 1 << 16
	f.Fuzz(func(t *testing.T, block []byte) {
		_, h, payload, err := warc.ParseHTTPResponse(block)
		if err != nil {
			return
		}
		if !bytes.HasSuffix(block, payload) {
			t.Fatalf("payload %q is not the end of the block", payload)
		}
		entity, err := warc.DecodePayload(h, payload, limit, brotliDecoders)
		if err == nil && len(entity) > limit {
			t.Fatalf("entity of %d bytes past the limit of %d", len(entity), limit)
		}
	})
}

// FuzzARCReader feeds arbitrary bytes after an ARC file's start to the
// reader: it must never panic, every record it returns must have the
// target URI and date of its header line and survive a write as WARC and
// a second read unchanged, and its offsets must grow. Seeds are
// testdata/example.arc, plain and a gzip member a record, a version 2
// file, and under testdata/fuzz/FuzzARCReader (a length past the end,
// a header line of too few fields, a date of too few digits).
func FuzzARCReader(f *testing.F) {
	std, err := os.ReadFile("testdata/example.arc")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(std)
	f.Add(gzipMembers(f, arcRecords(f, std)...))
	f.Add([]byte("filedesc://v2.arc 0.0.0.0 20050101000000 text/plain 200 - - 0 v2.arc 21\n2 0 Internet Archive\n\nhttp://example.com/a b 10.0.0.1 20050614070159 text/html 200 ABCD - 1234 v2.arc 18\nHTTP/1.1 200 OK\r\n\r\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := warc.NewReader(bytes.NewReader(data))
		if err != nil {
			return
		}
		last := int64(-1)
		for range 50 {
			rec, err := r.Next()
			if err != nil {
				return
			}
			if r.Offset() <= last {
				t.Fatalf("offset %d after %d", r.Offset(), last)
			}
			last = r.Offset()
			if bytes.HasPrefix(data, []byte("filedesc://")) && (rec.Header.Get(warc.FieldTargetURI) == "" || rec.Header.Get(warc.FieldDate) == "") {
				t.Fatalf("ARC record without a target URI or date: %v", rec.Header)
			}
			var buf bytes.Buffer
			if err := warc.NewPlainWriter(&buf).Write(rec); err != nil {
				continue // a field the writer refuses
			}
			r2, err := warc.NewReader(&buf)
			if err != nil {
				t.Fatal(err)
			}
			back, err := r2.Next()
			if err != nil {
				t.Fatalf("rewritten record does not read back: %v\n%q", err, buf.Bytes())
			}
			if !bytes.Equal(back.Block, rec.Block) || back.Type() != rec.Type() || back.ID() != rec.ID() {
				t.Fatalf("record changed on rewrite")
			}
		}
	})
}

// FuzzJoiner reads arbitrary bytes as WARC and passes the records to a
// Joiner: it must never panic, a record it joins must hold no more than
// its MaxBlock and no WARC-Segment-Number, and End must forget what it
// reports. The seed is a response in three segments with another record
// between.
func FuzzJoiner(f *testing.F) {
	var seed bytes.Buffer
	w := warc.NewPlainWriter(&seed)
	for _, rec := range []*warc.Record{segment("a", 1, "HTTP/1.1 200 OK\r\n", 0), segment("a", 2, "\r\nhel", 0), plain("b", "y"), segment("a", 3, "lo", 24)} {
		if err := w.Write(rec); err != nil {
			f.Fatal(err)
		}
	}
	f.Add(seed.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := warc.NewReader(bytes.NewReader(data))
		if err != nil {
			return
		}
		j := &warc.Joiner{MaxBlock: 1 << 12}
		for i := range 50 {
			rec, err := r.Next()
			if err != nil {
				break
			}
			out, err := j.Add(rec, i+1, r.Where())
			if err != nil || out == nil {
				continue
			}
			if out != rec {
				if len(out.Block) > 1<<12 || out.Header.Get(warc.FieldSegmentNumber) != "" {
					t.Fatalf("joined record of %d bytes, header %v", len(out.Block), out.Header)
				}
			}
		}
		j.End()
		if errs := j.End(); len(errs) != 0 {
			t.Fatalf("End twice: %v", errs)
		}
	})
}
