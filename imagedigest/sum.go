package imagedigest

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
)

// The formats Sum reads, as Format names them.
const (
	PNG  = "png"
	JPEG = "jpeg"
	GIF  = "gif"
	WebP = "webp"
)

// FormatError is the error of an image Sum cannot read: the format it
// was read as, where, as a byte offset into the file, and what was
// expected there.
type FormatError struct {
	Format string // PNG, JPEG, GIF, WebP, or "image" when none matched
	Offset int    // from the file's first byte
	Msg    string // what was expected, and what was found if it helps
}

// Error returns "Format at byte Offset: Msg".
func (e *FormatError) Error() string {
	return fmt.Sprintf("%s at byte %d: %s", e.Format, e.Offset, e.Msg)
}

// formatError returns a *FormatError of format f at offset at.
func formatError(f string, at int, format string, args ...any) error {
	return &FormatError{Format: f, Offset: at, Msg: fmt.Sprintf(format, args...)}
}

// Format returns the format whose signature b begins with (PNG, JPEG,
// GIF or WebP), or "" if b begins with none of them.
func Format(b []byte) string {
	switch {
	case bytes.HasPrefix(b, []byte(pngSignature)):
		return PNG
	case bytes.HasPrefix(b, []byte{0xFF, 0xD8, 0xFF}):
		return JPEG
	case bytes.HasPrefix(b, []byte("GIF87a")), bytes.HasPrefix(b, []byte("GIF89a")):
		return GIF
	case len(b) >= 12 && string(b[:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		return WebP
	}
	return ""
}

// Sum returns the SHA-256 of image b without what a generator changes at
// every run (see the package's documentation), or a *FormatError if b is
// no PNG, JPEG, GIF or WebP file, or one whose structure does not parse.
// On an error the sum is zero.
func Sum(b []byte) ([sha256.Size]byte, error) {
	var sum [sha256.Size]byte
	d := &digest{h: sha256.New()}
	var err error
	switch f := Format(b); f {
	case PNG:
		err = d.png(b)
	case JPEG:
		err = d.jpeg(b)
	case GIF:
		err = d.gif(b)
	case WebP:
		err = d.webp(b)
	default:
		err = formatError("image", 0, "expected the signature of a PNG, JPEG, GIF or WebP file")
	}
	if err != nil {
		return sum, err
	}
	d.h.Sum(sum[:0])
	return sum, nil
}

// digest writes the records of an image's normal form to a hash. A
// record is its name (a byte of length, then the name) and the length of
// its data (8 bytes, big-endian), then the data, written in one or more
// parts: each record says where it ends, so that no two sequences of
// records write the same bytes.
type digest struct {
	h   hash.Hash
	buf [1 + 255 + 8]byte // a record's head
}

// record writes a record of name and the data of parts, concatenated.
func (d *digest) record(name string, parts ...[]byte) {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	d.head(name, n)
	for _, p := range parts {
		d.h.Write(p)
	}
}

// head writes the head of a record of name and n bytes of data, which
// the caller writes next (d.h.Write).
func (d *digest) head(name string, n int) {
	if len(name) > 255 {
		panic("imagedigest: a record's name of more than 255 bytes")
	}
	d.buf[0] = byte(len(name))
	k := 1 + copy(d.buf[1:], name)
	binary.BigEndian.PutUint64(d.buf[k:], uint64(n))
	d.h.Write(d.buf[:k+8])
}
