package delta

import (
	"bufio"
	"encoding/xml"
	"io"
)

// columnReader is the input of an xml.Decoder, which reads it byte by
// byte, that counts the characters of the line being read, so that the
// column of a position the decoder gives (InputPos counts bytes) can
// count characters (runes), as an editor shows them.
type columnReader struct {
	r     *bufio.Reader
	off   int64   // bytes read
	bol   int64   // offset of the start of the line being read
	runes int     // characters begun in [bol, off)
	tail  [8]byte // the last bytes read, tail[off%8] the oldest
}

func newColumnReader(r io.Reader) *columnReader {
	return &columnReader{r: bufio.NewReader(r)}
}

// Read is not used by encoding/xml, which reads bytes; it is here to make
// columnReader an io.Reader.
func (c *columnReader) Read(p []byte) (int, error) {
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
func (c *columnReader) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err != nil {
		return b, err
	}
	c.tail[c.off%int64(len(c.tail))] = b
	c.off++
	switch {
	case b == '\n':
		c.bol, c.runes = c.off, 0
	case b&0xC0 != 0x80: // not a continuation byte: a character begins
		c.runes++
	}
	return b, nil
}

// inputPos is x.InputPos with the column in characters; where the
// characters before the position are not known (the decoder stepped back
// over a line end), the column counts bytes.
func (c *columnReader) inputPos(x *xml.Decoder) (line, col int) {
	line, col = x.InputPos()
	off := x.InputOffset()
	if off < c.bol || off > c.off || c.off-off > int64(len(c.tail)) {
		return line, col
	}
	n := c.runes
	for o := off; o < c.off; o++ {
		if c.tail[o%int64(len(c.tail))]&0xC0 != 0x80 {
			n--
		}
	}
	return line, n + 1
}
