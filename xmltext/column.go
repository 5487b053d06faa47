package xmltext

import (
	"bufio"
	"io"
)

// ColumnReader is the input of an encoding/xml Decoder that counts the
// characters of the line being read, so that a position the decoder gives
// (its InputPos counts columns in bytes) can be told in characters
// (runes), as an editor shows them: see Pos. The decoder reads its input
// byte by byte through ReadByte, which is all ColumnReader adds a step to.
// delta's and xmlpatch's decoders read through one.
type ColumnReader struct {
	r     *bufio.Reader
	off   int64   // bytes read
	bol   int64   // offset of the start of the line being read
	runes int     // characters counted in [bol, off)
	tail  [8]byte // the last bytes read, tail[off%8] the oldest
	// hidden[o%8] is set when the byte at offset o in tail begins a
	// byte-order mark not counted (see HideByteOrderMarks).
	hidden [8]bool
	hide   bool
}

// utf8BOM is U+FEFF, the byte-order mark, in UTF-8.
const utf8BOM = "\xef\xbb\xbf"

// SkipByteOrderMark takes off a byte-order mark at the start of the input,
// which an editor does not show: the decoder reads the input after it, and
// offsets, lines and columns are counted from there. It is called before
// the first read; it reports whether there was one.
func (c *ColumnReader) SkipByteOrderMark() bool {
	if c.off != 0 {
		return false
	}
	if b, err := c.r.Peek(len(utf8BOM)); err == nil && string(b) == utf8BOM {
		c.r.Discard(len(utf8BOM))
		return true
	}
	return false
}

// HideByteOrderMarks sets whether the byte-order marks read from now on are
// left out of the columns: those a decoder skips between documents put end
// to end, each file's own, which an editor showing one of the files does
// not show.
func (c *ColumnReader) HideByteOrderMarks(on bool) { c.hide = on }

// NewColumnReader returns a ColumnReader reading r.
func NewColumnReader(r io.Reader) *ColumnReader {
	return &ColumnReader{r: bufio.NewReader(r)}
}

// Read is not used by encoding/xml, which reads bytes; it is here to make
// ColumnReader an io.Reader.
func (c *ColumnReader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		b, err := c.ReadByte()
		if err != nil {
			if n > 0 {
				return n, nil
			}
			return 0, err
		}
		p[n] = b
		n++
	}
	return n, nil
}

// ReadByte reads one byte, counting lines and characters.
func (c *ColumnReader) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err != nil {
		return b, err
	}
	n := int64(len(c.tail))
	c.tail[c.off%n] = b
	c.hidden[c.off%n] = false
	c.off++
	switch {
	case b == '\n':
		c.bol, c.runes = c.off, 0
	case b&0xC0 != 0x80: // not a continuation byte: a character begins
		c.runes++
	case c.hide && b == utf8BOM[2] && c.off-c.bol >= 3 && c.tail[(c.off-2)%n] == utf8BOM[1] && c.tail[(c.off-3)%n] == utf8BOM[0]:
		c.runes--
		c.hidden[(c.off-3)%n] = true
	}
	return b, nil
}

// Pos returns a decoder's position, line and col as its InputPos gives
// them and offset as its InputOffset does, with the column in characters;
// where the characters before the position are no longer known (the
// decoder stepped back over a line end, or more than a few bytes), the
// column in bytes.
func (c *ColumnReader) Pos(line, col int, offset int64) (int, int) {
	if offset < c.bol || offset > c.off || c.off-offset > int64(len(c.tail)) {
		return line, col
	}
	n := c.runes
	for o := offset; o < c.off; o++ {
		if k := o % int64(len(c.tail)); c.tail[k]&0xC0 != 0x80 && !c.hidden[k] {
			n--
		}
	}
	return line, n + 1
}
