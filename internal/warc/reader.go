package warc

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// MaxBlock is the largest record block the reader accepts, unless its
// MaxBlock field says less.
const MaxBlock = 1 << 30

// MaxHeader is the most bytes a record's version line and header may take,
// continuation lines included.
const MaxHeader = 1 << 20

// Reader reads records from a .warc or .warc.gz stream (a gzip stream of one
// or many members is detected from its magic bytes), or from an .arc or
// .arc.gz stream, told by its first bytes (filedesc://), whose records it
// returns as WARC records (see doc.go).
type Reader struct {
	br *bufio.Reader
	// Verify makes Next check WARC-Block-Digest (sha1) when present.
	Verify bool
	// MaxBlock, when positive and under the constant MaxBlock, is the
	// longest block Next returns; a longer one is skipped (ErrTooLong).
	MaxBlock int64
	n        int      // records read, for error messages
	off      int64    // bytes read from the (uncompressed) stream
	start    int64    // where the record last read starts
	gz       *members // the gzip stream read, if it is one
	member   int64    // where the record last read starts in the file, if it starts a member
	inMember bool     // whether it does
	// arcAfter is, in an ARC file, the number of fields of a header line
	// after its URL (arcFields), by the version arcVersion its filedesc
	// version block gives; 0 in a WARC file.
	arcAfter   int
	arcVersion string
}

// Offset returns where the record last returned (or refused) by Next
// starts: its version line's first byte, counted in the stream as read, so
// in a .warc.gz file in its uncompressed bytes.
func (r *Reader) Offset() int64 { return r.start }

// Number returns the number of the record last returned (or refused) by
// Next, counted from 1 in the order of the stream, as Where names it.
func (r *Reader) Number() int { return r.n }

// Where names the record last returned (or refused) by Next, as its
// errors do: its number and offset, and in a .warc.gz file the offset in
// the file of the gzip member it starts, if it starts one (the offset a
// CDX index gives, which tools that extract a record take).
func (r *Reader) Where() string {
	if r.inMember {
		return fmt.Sprintf("record %d at offset %d (uncompressed; gzip member at byte %d)", r.n, r.start, r.member)
	}
	return fmt.Sprintf("record %d at offset %d", r.n, r.start)
}

func (r *Reader) where() string { return r.Where() }

// NewReader returns a reader of r.
func NewReader(r io.Reader) (*Reader, error) {
	br := bufio.NewReader(r)
	magic, err := br.Peek(2)
	if err == nil && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := newMembers(br)
		if err != nil {
			return nil, fmt.Errorf("warc: %w", err)
		}
		return arcOrWARC(&Reader{br: bufio.NewReader(gz), gz: gz}), nil
	}
	return arcOrWARC(&Reader{br: br}), nil
}

// arcOrWARC makes r read ARC if its stream starts as an ARC file does
// (with its filedesc:// record), whatever the file's name.
func arcOrWARC(r *Reader) *Reader {
	if start, _ := r.br.Peek(len(arcMagic)); string(start) == arcMagic {
		r.arcVersion, r.arcAfter = "1", arcFields["1"]
	}
	return r
}

// errLongHeader is readLine's error for a line past its limit.
var errLongHeader = fmt.Errorf("header longer than %d bytes", MaxHeader)

// readLine reads a line, its newline included, as bufio.Reader.ReadString
// does, but refuses one longer than limit bytes without reading the rest of
// it into memory.
func (r *Reader) readLine(limit int) (string, error) {
	frag, err := r.br.ReadSlice('\n')
	r.off += int64(len(frag))
	if err != bufio.ErrBufferFull { // the whole line at once, the usual case
		if len(frag) > limit {
			return "", errLongHeader
		}
		return string(frag), err
	}
	line := slices.Clone(frag)
	for err == bufio.ErrBufferFull {
		frag, err = r.br.ReadSlice('\n')
		r.off += int64(len(frag))
		if len(line)+len(frag) > limit {
			return "", errLongHeader
		}
		line = append(line, frag...)
	}
	return string(line), err
}

// Next returns the next record, and io.EOF after the last.
func (r *Reader) Next() (*Record, error) {
	// Skip blank lines between records (some writers add more than two).
	var line string
	for {
		r.start = r.off
		l, err := r.readLine(MaxHeader)
		if err == io.EOF && l == "" {
			return nil, io.EOF
		}
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("warc: record %d at offset %d: %w", r.n+1, r.start, err)
		}
		if strings.TrimRight(l, "\r\n") != "" {
			line = strings.TrimRight(l, "\r\n")
			break
		}
		if err == io.EOF {
			return nil, io.EOF
		}
	}
	r.n++
	if r.gz != nil {
		r.member, r.inMember = r.gz.at(r.start)
	}
	if r.arcAfter > 0 {
		return r.nextARC(line)
	}
	switch line {
	case "WARC/1.1", "WARC/1.0", "WARC/0.18", "WARC/0.17":
	default:
		return nil, fmt.Errorf("warc: %s: version line %q, want WARC/1.1, 1.0, 0.18 or 0.17", r.where(), truncate(line))
	}
	rec := &Record{Version: line}
	// A field continued over several lines is joined once it ends: joined
	// line by line, a field of many lines would take time quadratic in
	// its length.
	var cont strings.Builder
	endField := func() {
		if cont.Len() > 0 {
			rec.Header[len(rec.Header)-1].Value = cont.String()
			cont.Reset()
		}
	}
	size := len(line) + len("\r\n") // the version line's
	for {
		l, err := r.readLine(MaxHeader - size)
		if errors.Is(err, errLongHeader) {
			return nil, fmt.Errorf("warc: %s: %w", r.where(), err)
		}
		if err != nil {
			return nil, fmt.Errorf("warc: %s: header: %w", r.where(), unexpected(err))
		}
		size += len(l)
		l = strings.TrimRight(l, "\r\n")
		if l == "" {
			break
		}
		if (l[0] == ' ' || l[0] == '\t') && len(rec.Header) > 0 {
			if cont.Len() == 0 {
				cont.WriteString(rec.Header[len(rec.Header)-1].Value)
			}
			if piece := strings.TrimSpace(l); piece != "" {
				if cont.Len() > 0 {
					cont.WriteByte(' ')
				}
				cont.WriteString(piece)
			}
			continue
		}
		endField()
		name, value, ok := strings.Cut(l, ":")
		if !ok || name == "" || strings.ContainsAny(name, " \t") {
			return nil, fmt.Errorf("warc: %s: bad header line %q", r.where(), truncate(l))
		}
		rec.Header = append(rec.Header, Field{name, strings.TrimSpace(value)})
	}
	endField()
	if rec.Header.Get(FieldContentLength) == "" {
		// Without it the block has no end: nothing after can be read.
		return nil, fmt.Errorf("warc: %s: missing %s", r.where(), FieldContentLength)
	}
	n, err := strconv.ParseInt(rec.Header.Get(FieldContentLength), 10, 64)
	if err != nil || n < 0 {
		return nil, fmt.Errorf("warc: %s: bad Content-Length %q", r.where(), rec.Header.Get(FieldContentLength))
	}
	block, limit, err := r.readBlock(n, rec.ID())
	if err != nil {
		return nil, err
	}
	rec.Block = block
	var end [4]byte
	read, err := io.ReadFull(r.br, end[:])
	r.off += int64(read)
	if err != nil || !bytes.Equal(end[:], []byte("\r\n\r\n")) {
		return nil, fmt.Errorf("warc: %s (%s): block not followed by CRLF CRLF (Content-Length wrong?)", r.where(), rec.ID())
	}
	for _, f := range []string{FieldType, FieldRecordID, FieldDate} {
		if rec.Header.Get(f) == "" {
			where := r.where()
			if id := rec.ID(); id != "" {
				where += " (" + id + ")"
			}
			return rec, fmt.Errorf("warc: %s: %w", where, &MissingFieldError{Field: f})
		}
	}
	if n > limit {
		return rec, r.tooLongError(rec.ID(), n, limit)
	}
	if r.Verify {
		if d := rec.Header.Get(FieldBlockDigest); strings.HasPrefix(strings.ToLower(d), "sha1:") && !strings.EqualFold(d, Digest(rec.Block)) {
			return rec, fmt.Errorf("warc: %s (%s): %w", r.where(), rec.ID(), ErrDigest)
		}
	}
	return rec, nil
}

// ErrTooLong is wrapped by the error for a record whose block is longer
// than the reader takes; the record is returned without its block.
var ErrTooLong = errors.New("block longer than the reader takes")

// tooLongError is the error of a record, WARC or ARC, named name (its
// record ID or URL) whose block of n bytes is longer than limit, the
// reader's (readBlock): it wraps ErrTooLong.
func (r *Reader) tooLongError(name string, n, limit int64) error {
	return fmt.Errorf("warc: %s (%s): block of %d bytes: %w (%d)", r.where(), name, n, ErrTooLong, limit)
}

// MissingFieldError is wrapped by the error for a record without one of
// the fields every record has (WARC-Type, WARC-Record-ID, WARC-Date): its
// Content-Length still frames it, so the record is returned with its
// block, and the records after it can be read.
type MissingFieldError struct {
	Field string // FieldType, FieldRecordID or FieldDate
}

// Error says which field is missing.
func (e *MissingFieldError) Error() string { return "missing " + e.Field }

// ErrDigest is wrapped by the error for a block that does not match its
// WARC-Block-Digest.
var ErrDigest = errors.New("block digest mismatch")

func unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

func truncate(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

// readBlock reads the next n bytes, the block of the record named name,
// and returns them with the reader's limit on a block (MaxBlock, or
// less). The block grows as it is read: a lying length must not make the
// reader allocate it up front. One longer than the limit is read past,
// not kept (nil), so that the records after it can be read.
func (r *Reader) readBlock(n int64, name string) ([]byte, int64, error) {
	limit := int64(MaxBlock)
	if r.MaxBlock > 0 && r.MaxBlock < limit {
		limit = r.MaxBlock
	}
	var block bytes.Buffer
	var dst io.Writer = &block
	if n > limit {
		dst = io.Discard
	}
	copied, err := io.CopyN(dst, r.br, n)
	r.off += copied
	if err != nil {
		return nil, limit, fmt.Errorf("warc: %s (%s): block of %d bytes cut short at %d: %w", r.where(), name, n, copied, unexpected(err))
	}
	if n > limit {
		return nil, limit, nil
	}
	return block.Bytes(), limit, nil
}
