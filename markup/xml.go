package markup

import (
	"encoding/binary"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/vigil-web/vigil/tree"
)

// ParseXML reads an XML document from r and returns its tree. The error for
// a document that is not well-formed is a *SyntaxError with the line and
// column; an input larger than Options.MaxBytes gives an error wrapping
// ErrTooLarge. On error no document is returned. The nodes have no XIDs
// yet: call Document.AssignXIDs for a first version.
func ParseXML(r io.Reader, opt *Options) (*tree.Document, error) {
	o := opt.resolved()
	data, err := readInput(r, o.MaxBytes)
	if err != nil {
		return nil, err
	}
	return parseXML(data, true, o)
}

// ParseXMLBytes is ParseXML on a byte slice. It does not modify or retain b.
func ParseXMLBytes(b []byte, opt *Options) (*tree.Document, error) {
	o := opt.resolved()
	if err := checkSize(b, o.MaxBytes); err != nil {
		return nil, err
	}
	return parseXML(b, false, o)
}

// ParseXMLFlat is ParseXML building a tree.Flat, the form the diff works
// on: a fraction of the memory of a *tree.Node tree, and faster to build.
// The Flat has no XIDs yet.
func ParseXMLFlat(r io.Reader, opt *Options) (*tree.Flat, error) {
	o := opt.resolved()
	data, err := readInput(r, o.MaxBytes)
	if err != nil {
		return nil, err
	}
	return parseXMLFlat(data, true, o)
}

// parseXML parses data; owned says whether data belongs to the parser (it
// was read from a reader) rather than to the caller.
func parseXML(data []byte, owned bool, o Options) (*tree.Document, error) {
	p, err := newXMLParser(data, owned, o)
	if err != nil {
		return nil, err
	}
	if err := p.parse(); err != nil {
		return nil, err
	}
	return p.doc, nil
}

// parseXMLFlat is parseXML building a tree.Flat.
func parseXMLFlat(data []byte, owned bool, o Options) (*tree.Flat, error) {
	p, err := newXMLParser(data, owned, o)
	if err != nil {
		return nil, err
	}
	p.flat = &tree.FlatBuilder{}
	// Most nodes of a document begin or end at a '<', and most attribute
	// values begin with '="': counts of them, which take a fraction of a
	// millisecond per megabyte, size the arrays once instead of by
	// doubling (pages the parse does not reach are not touched).
	// A node takes at least 2 bytes and an attribute 4 ("<a/>x", " a=''"),
	// which bounds the counts of an input full of '<' inside CDATA.
	p.flat.Grow(min(strings.Count(p.src, "<")+1, len(p.src)/2+1), min(strings.Count(p.src, "=\""), len(p.src)/4), len(p.src))
	if err := p.parse(); err != nil {
		return nil, err
	}
	f, err := p.flat.Flat()
	if err != nil {
		return nil, err
	}
	// The Flat copied its strings; these few are copied too, so that
	// nothing keeps the input alive.
	d := p.doc
	f.Prolog, f.Doctype, f.DoctypeAfter, f.Epilog = cloneNodes(d.Prolog), strings.Clone(d.Doctype), d.DoctypeAfter, cloneNodes(d.Epilog)
	if d.IDAttrs != nil {
		f.IDAttrs = make(map[string]string, len(d.IDAttrs))
		for k, v := range d.IDAttrs {
			f.IDAttrs[strings.Clone(k)] = strings.Clone(v)
		}
	}
	return f, nil
}

// cloneNodes returns copies of the nodes of the prolog or epilog
// (comments and processing instructions), with copies of their strings.
func cloneNodes(nodes []*tree.Node) []*tree.Node {
	if nodes == nil {
		return nil
	}
	out := make([]*tree.Node, len(nodes))
	for k, n := range nodes {
		c := *n
		c.Name, c.Value = strings.Clone(n.Name), strings.Clone(n.Value)
		c.Attrs = nil
		for _, a := range n.Attrs {
			c.Attrs = append(c.Attrs, tree.Attr{Name: strings.Clone(a.Name), Value: strings.Clone(a.Value)})
		}
		out[k] = &c
	}
	return out
}

// newXMLParser decodes data to UTF-8 and checks its characters.
func newXMLParser(data []byte, owned bool, o Options) (*xmlParser, error) {
	decoded, err := decodeXML(data, o.Charset)
	if err != nil {
		return nil, err
	}
	if len(decoded) > 0 && len(data) > 0 && &decoded[0] != &data[0] {
		owned = true // decoding made a new buffer
	}
	data = decoded
	src, err := prepareXML(data, owned)
	if err != nil {
		return nil, err
	}
	return &xmlParser{s: src, src: src, opt: o, doc: &tree.Document{}, keep: o.Whitespace == Keep, chunk: 64}, nil
}

// plainWord reports whether the eight bytes of w are all ASCII and none is
// a control character other than tab or newline, without branching per
// byte. (All tests are exact: no borrow crosses a byte.)
func plainWord(w uint64) bool {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
		lows  = 0x7f7f7f7f7f7f7f7f
	)
	if w&highs != 0 {
		return false
	}
	// The high bit of each byte below 0x20 (w has no high bits here).
	ctl := ^(w + 0x60*ones) & highs
	if ctl == 0 {
		return true
	}
	nl := w ^ 0x0a*ones
	tab := w ^ 0x09*ones
	isNL := ^((nl&lows + lows) | nl) & highs
	isTab := ^((tab&lows + lows) | tab) & highs
	return ctl&^(isNL|isTab) == 0
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
// "\n" (XML 1.0 section 2.11). If owned, data belongs to the parser and is
// never written again, so the string shares its memory instead of copying
// it.
func prepareXML(data []byte, owned bool) (string, error) {
	hasCR := false
	for i := 0; i < len(data); {
		// Skip eight bytes at a time while none is a control character
		// or non-ASCII (a word holding a newline or tab goes byte by byte).
		for i+8 <= len(data) && plainWord(binary.LittleEndian.Uint64(data[i:])) {
			i += 8
		}
		for i < len(data) && !attention[data[i]] {
			i++
			if i&7 == 0 {
				break
			}
		}
		if i >= len(data) || !attention[data[i]] {
			continue
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
		if owned {
			return unsafe.String(unsafe.SliceData(data), len(data)), nil
		}
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
	return unsafe.String(unsafe.SliceData(out), len(out)), nil
}

func invalidChar(data []byte, i int, msg string) error {
	return syntaxErrorAt(string(data[:i]), i, "%s: the input is binary, or not in the declared encoding", msg)
}
