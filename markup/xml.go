package markup

import (
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/vigil-web/vigil/tree"
)

// ParseXML reads an XML document from r and returns its tree. The error for
// a document that is not well-formed is a *SyntaxError with the line and
// column; an input larger than Options.MaxBytes gives an error wrapping
// ErrTooLarge. On error no document is returned.
func ParseXML(r io.Reader, opt *Options) (*tree.Document, error) {
	o := opt.resolved()
	data, err := readInput(r, o.MaxBytes)
	if err != nil {
		return nil, err
	}
	return parseXML(data, o)
}

// ParseXMLBytes is ParseXML on a byte slice. It does not modify or retain b.
func ParseXMLBytes(b []byte, opt *Options) (*tree.Document, error) {
	o := opt.resolved()
	if err := checkSize(b, o.MaxBytes); err != nil {
		return nil, err
	}
	return parseXML(b, o)
}

func parseXML(data []byte, o Options) (*tree.Document, error) {
	data, err := decodeXML(data, o.Charset)
	if err != nil {
		return nil, err
	}
	src, err := prepareXML(data)
	if err != nil {
		return nil, err
	}
	p := &xmlParser{s: src, src: src, opt: o, doc: &tree.Document{}, keep: o.Whitespace == Keep}
	if err := p.parse(); err != nil {
		return nil, err
	}
	return p.doc, nil
}

// attention marks the bytes prepareXML must look at: control characters
// not allowed in XML, carriage returns, and the start of multi-byte UTF-8.
var attention [256]bool

func init() {
	for c := 0; c < 256; c++ {
		attention[c] = (c < 0x20 && c != '\t' && c != '\n') || c >= 0x80
	}
}

// prepareXML checks that data holds only characters allowed in XML, in
// valid UTF-8, and returns it as a string with line ends normalised to
// "\n" (XML 1.0 section 2.11).
func prepareXML(data []byte) (string, error) {
	hasCR := false
	for i := 0; i < len(data); {
		for i < len(data) && !attention[data[i]] {
			i++
		}
		if i >= len(data) {
			break
		}
		c := data[i]
		if c == '\r' {
			hasCR = true
			i++
			continue
		}
		if c < 0x80 {
			return "", invalidChar(data, i, fmt.Sprintf("invalid character U+%04X", c))
		}
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			return "", invalidChar(data, i, fmt.Sprintf("invalid UTF-8 byte 0x%02X", c))
		}
		if r == 0xFFFE || r == 0xFFFF {
			return "", invalidChar(data, i, fmt.Sprintf("invalid character U+%04X", r))
		}
		i += size
	}
	if !hasCR {
		return string(data), nil
	}
	out := make([]byte, 0, len(data))
	for i := 0; i < len(data); i++ {
		c := data[i]
		if c == '\r' {
			c = '\n'
			if i+1 < len(data) && data[i+1] == '\n' {
				i++
			}
		}
		out = append(out, c)
	}
	return string(out), nil
}

func invalidChar(data []byte, i int, msg string) error {
	return syntaxErrorAt(string(data[:i]), i, "%s: the input is binary, or not in the declared encoding", msg)
}
