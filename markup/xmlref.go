package markup

import (
	"unicode/utf8"

	"github.com/vigil-web/vigil/xmltext"
)

// References: character references, the predefined entities, and entities
// declared in the DOCTYPE (see dtd.go for their declarations).

// reference handles a reference at p.i ('&'): a character reference, a
// predefined entity, or an entity declared in the DOCTYPE. In an attribute
// value (inAttr), it appends the expansion to p.text's buffer and never
// enters entity text.
func (p *xmlParser) reference(inAttr bool) error {
	s := p.s
	start := p.i
	i := start + 1
	if i < len(s) && s[i] == '#' {
		r, end, err := p.charRef(start)
		if err != nil {
			return err
		}
		var b [utf8.UTFMax]byte
		n := utf8.EncodeRune(b[:], r)
		p.addString(string(b[:n]))
		p.i = end
		return nil
	}
	j := p.scanName(i)
	if j == i {
		return p.errAt(i, "expected an entity name or '#' after '&' (write '&amp;' for a literal '&')")
	}
	if j >= len(s) || s[j] != ';' {
		return p.errAt(j, "expected ';' after the entity reference &%s", s[i:j])
	}
	name := s[i:j]
	p.i = j + 1
	if v := predefined(name); v != "" {
		p.addString(v)
		return nil
	}
	e := p.entities[name]
	if e == nil {
		if v, ok := p.htmlEntity(name); ok {
			p.addString(v)
			return nil
		}
		return p.errAt(start, "undefined entity &%s;", name)
	}
	if e.external {
		return p.errAt(start, "external entity &%s; is not expanded (external entities are never fetched)", name)
	}
	if inAttr {
		v, err := p.expandForAttr(name, start, 0)
		if err != nil {
			return err
		}
		p.addString(v)
		return nil
	}
	return p.pushEntity(e, start)
}

// charRef parses a character reference &#...; at off of the current input
// and returns the character and the offset after ';'.
func (p *xmlParser) charRef(off int) (rune, int, error) {
	r, end, errOff, msg := parseCharRef(p.s, off)
	if msg != "" {
		return 0, 0, p.errAt(errOff, "%s", msg)
	}
	return r, end, nil
}

// parseCharRef parses a character reference &#...; at off of s. It returns
// the character and the offset after ';', or an error offset and message.
func parseCharRef(s string, off int) (r rune, end, errOff int, msg string) {
	i := off + 2
	hex := i < len(s) && s[i] == 'x'
	if hex {
		i++
	}
	digits := i
	var v int64
	for ; i < len(s); i++ {
		c := s[i]
		var d int64
		switch {
		case c >= '0' && c <= '9':
			d = int64(c - '0')
		case hex && c >= 'a' && c <= 'f':
			d = int64(c-'a') + 10
		case hex && c >= 'A' && c <= 'F':
			d = int64(c-'A') + 10
		default:
			d = -1
		}
		if d < 0 {
			break
		}
		if hex {
			v = v*16 + d
		} else {
			v = v*10 + d
		}
		if v > utf8.MaxRune {
			v = utf8.MaxRune + 1
		}
	}
	switch {
	case i == digits && hex:
		return 0, 0, i, "expected a hexadecimal digit in the character reference"
	case i == digits:
		return 0, 0, i, "expected a digit or 'x' in the character reference"
	case i >= len(s) || s[i] != ';':
		return 0, 0, i, "expected ';' at the end of the character reference"
	case v > utf8.MaxRune || !xmltext.IsChar(rune(v)):
		return 0, 0, off, "character reference " + s[off:i+1] + " refers to a character not allowed in XML"
	}
	return rune(v), i + 1, 0, ""
}

// predefined returns the text of one of XML's five predefined entities,
// or "".
func predefined(name string) string {
	switch name {
	case "lt":
		return "<"
	case "gt":
		return ">"
	case "amp":
		return "&"
	case "apos":
		return "'"
	case "quot":
		return "\""
	}
	return ""
}
