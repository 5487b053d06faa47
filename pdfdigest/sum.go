package pdfdigest

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"fmt"
)

// DefaultInflateCap is the inflate cap of Options left zero: 64 MiB over
// all of a file's streams, which bounds the memory Sum takes whatever the
// compression (Vigil's crawl hashes bodies of 20 MiB at most).
const DefaultInflateCap = 64 << 20

// headerWindow is how far into a file the %PDF- header may come
// (readers accept a few bytes of junk before it).
const headerWindow = 1024

// Options are the parameters of Sum; nil is the zero Options.
type Options struct {
	// InflateCap bounds the bytes inflated from a file's object and
	// metadata streams, all of them together: past it a stream is
	// hashed compressed. 0 means DefaultInflateCap; a negative cap
	// inflates nothing.
	InflateCap int
}

// SyntaxError is the error of a file Sum cannot read: where, as a byte
// offset into the file, and what was expected there.
type SyntaxError struct {
	Offset int    // from the file's first byte
	Msg    string // what was expected, and what was found if it helps
}

// Error returns "pdf syntax at byte Offset: Msg".
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("pdf syntax at byte %d: %s", e.Offset, e.Msg)
}

// syntaxError returns a *SyntaxError at offset at.
func syntaxError(at int, format string, args ...any) error {
	return &SyntaxError{Offset: at, Msg: fmt.Sprintf(format, args...)}
}

// Sum returns the SHA-256 of PDF b without what a generator changes at
// every run (see the package's documentation), or a *SyntaxError if b
// does not parse as a PDF, or an *EncryptedError if it is encrypted in a
// way Sum does not decrypt (it needs a user password).
func Sum(b []byte, opt *Options) ([sha256.Size]byte, error) {
	res, err := SumResult(b, opt)
	return res.Sum, err
}

// Result is what SumResult found in a file: its hash, and what in it was
// hashed as its bytes where Sum reads the like.
type Result struct {
	// Sum is Sum's hash.
	Sum [sha256.Size]byte
	// Undecoded says of each object stream and metadata stream hashed
	// as its bytes, in the file's order, which and why: "object stream
	// 8 0: filter /JBIG2Decode not decoded", a parameter not decoded,
	// data that does not decode, the inflate cap reached; and, in an
	// encrypted file, of each stream and object whose data or string
	// does not decrypt ("stream 4 0: does not decrypt"). The dates and
	// identifiers in such a stream are hashed: each run a change. It
	// names the first MaxUndecoded.
	Undecoded []string
	// UndecodedMore counts the others, past MaxUndecoded.
	UndecodedMore int
}

// MaxUndecoded is the most streams and objects Result.Undecoded names:
// a file of a million tiny streams in a filter Sum does not decode keeps
// its list small.
const MaxUndecoded = 100

// SumResult returns Sum's hash of PDF b, and what in b was hashed as its
// bytes (Result.Undecoded), or a *SyntaxError if b does not parse as a
// PDF, or an *EncryptedError if it is encrypted in a way Sum does not
// decrypt.
func SumResult(b []byte, opt *Options) (Result, error) {
	var res Result
	if opt == nil {
		opt = &Options{}
	}
	inflateCap := opt.InflateCap
	if inflateCap == 0 {
		inflateCap = DefaultInflateCap
	}
	if !bytes.Contains(b[:min(len(b), headerWindow)], []byte("%PDF-")) {
		return res, syntaxError(0, "expected %%PDF- in the first %d bytes", headerWindow)
	}
	crypt, err := findDecrypter(b)
	if err != nil {
		return res, err
	}
	h := sha256.New()
	n := &normalizer{w: bufio.NewWriterSize(h, 32<<10), budget: inflateCap, inflateCap: inflateCap, hint: -1, crypt: crypt}
	if err := n.file(b); err != nil {
		return res, err
	}
	if err := n.w.Flush(); err != nil {
		return res, fmt.Errorf("pdfdigest: write to the hash: %w", err)
	}
	h.Sum(res.Sum[:0])
	res.Undecoded, res.UndecodedMore = n.undecoded, n.undecodedMore
	return res, nil
}
