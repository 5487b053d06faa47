package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"sort"
	"time"

	"github.com/vigil-web/vigil/internal/warc"
)

// spool holds the records importWARC will import, in a temporary file, so
// that it can import them in the order of their dates without holding
// their blocks in memory. Each is written as a gzip member of its own,
// compressed fast: the file takes a fraction of the records' size, not
// several times a .warc.gz file's.
type spool struct {
	f       *os.File
	w       *bufio.Writer
	written int64
	buf     bytes.Buffer // a record as written
	zw      *gzip.Writer // writing to buf
	records []spooled
}

// spooled is one record of a spool: where it was in the file imported
// (for messages), its date, and where it is in the spool.
type spooled struct {
	n           int    // warc.Reader.Number
	where       string // warc.Reader.Where
	at          time.Time
	revisit     bool // a revisit record, imported after the others of its date
	start, size int64
}

// newSpool creates a spool in os.TempDir.
func newSpool() (*spool, error) {
	f, err := os.CreateTemp("", "vigil-import-*.warc.gz")
	if err != nil {
		return nil, spoolError(err)
	}
	zw, err := gzip.NewWriterLevel(nil, gzip.BestSpeed)
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, spoolError(err)
	}
	return &spool{f: f, w: bufio.NewWriterSize(f, 1<<16), zw: zw}, nil
}

// spoolError says that err is the temporary file's, what the file is for
// and where it is made: a TMPDIR too small for the records fails so.
func spoolError(err error) error {
	return fmt.Errorf("temporary file for sorting the records by date (in %s, TMPDIR; it needs room for them, compressed): %w", os.TempDir(), err)
}

// remove closes and removes the spool's file.
func (s *spool) remove() {
	s.f.Close()
	os.Remove(s.f.Name())
}

// add writes rec to the spool. A record the writer refuses (a field name
// with a control character) is a badRecord.
func (s *spool) add(rec *warc.Record, at spooled) error {
	s.buf.Reset()
	s.zw.Reset(&s.buf)
	if err := warc.NewPlainWriter(s.zw).Write(rec); err != nil {
		return &badRecord{badHeader, err}
	}
	if err := s.zw.Close(); err != nil {
		return spoolError(err)
	}
	at.start, at.size = s.written, int64(s.buf.Len())
	n, err := s.w.Write(s.buf.Bytes())
	s.written += int64(n)
	if err != nil {
		return spoolError(err)
	}
	s.records = append(s.records, at)
	return nil
}

// each calls fn with each record of the spool in the order of their
// dates, the revisits of one date after the others (a revisit's
// original may be of its second, in a file given after it), and in the
// order they were added for one date, and stops at fn's first error.
func (s *spool) each(fn func(*warc.Record, spooled) error) error {
	if err := s.w.Flush(); err != nil {
		return spoolError(err)
	}
	sort.SliceStable(s.records, func(i, j int) bool {
		a, b := s.records[i], s.records[j]
		if !a.at.Equal(b.at) {
			return a.at.Before(b.at)
		}
		return !a.revisit && b.revisit
	})
	for _, at := range s.records {
		r, err := warc.NewReader(io.NewSectionReader(s.f, at.start, at.size))
		if err != nil {
			return spoolError(err)
		}
		rec, err := r.Next()
		if err != nil {
			return spoolError(fmt.Errorf("%s: %w", at.where, err))
		}
		if err := fn(rec, at); err != nil {
			return err
		}
	}
	return nil
}
