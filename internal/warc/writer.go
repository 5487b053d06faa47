package warc

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// Writer writes records, each as its own gzip member (or plain, if made
// with NewPlainWriter).
type Writer struct {
	w    io.Writer
	gzip bool
	buf  bytes.Buffer
}

// NewWriter returns a writer of a .warc.gz stream to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w, gzip: true} }

// NewPlainWriter returns a writer of an uncompressed .warc stream to w.
func NewPlainWriter(w io.Writer) *Writer { return &Writer{w: w} }

// order is the position of the fields written first.
var order = map[string]int{"warc-type": 1, "warc-record-id": 2, "warc-date": 3}

// Write writes one record. It fills in WARC-Record-ID (a random id) if
// missing, sets Content-Length from the block and WARC-Block-Digest if
// missing, and checks that WARC-Type and WARC-Date are present.
func (w *Writer) Write(r *Record) error {
	h := append(Header(nil), r.Header...)
	if h.Get(FieldType) == "" {
		return fmt.Errorf("warc: record without WARC-Type")
	}
	if h.Get(FieldDate) == "" {
		return fmt.Errorf("warc: %s record without WARC-Date", h.Get(FieldType))
	}
	if h.Get(FieldRecordID) == "" {
		h.Set(FieldRecordID, BracketID(NewID()))
	}
	if h.Get(FieldBlockDigest) == "" {
		h.Set(FieldBlockDigest, Digest(r.Block))
	}
	h.Set(FieldContentLength, strconv.Itoa(len(r.Block)))
	w.buf.Reset()
	w.buf.WriteString("WARC/1.1\r\n")
	// WARC-Type, id and date first; Content-Type and Content-Length last.
	rank := func(name string) int {
		switch n := strings.ToLower(name); {
		case order[n] > 0:
			return order[n]
		case n == "content-type":
			return 5
		case n == "content-length":
			return 6
		}
		return 4
	}
	sorted := append(Header(nil), h...)
	sort.SliceStable(sorted, func(i, j int) bool { return rank(sorted[i].Name) < rank(sorted[j].Name) })
	for _, f := range sorted {
		if f.Name == "" || strings.ContainsAny(f.Name, ": \t\r\n") || strings.ContainsAny(f.Value, "\r\n") {
			return fmt.Errorf("warc: field %q cannot be written", f.Name)
		}
		w.buf.WriteString(f.Name + ": " + f.Value + "\r\n")
	}
	w.buf.WriteString("\r\n")
	w.buf.Write(r.Block)
	w.buf.WriteString("\r\n\r\n")
	if !w.gzip {
		_, err := w.w.Write(w.buf.Bytes())
		return err
	}
	zw := gzip.NewWriter(w.w)
	if _, err := zw.Write(w.buf.Bytes()); err != nil {
		return err
	}
	return zw.Close()
}
