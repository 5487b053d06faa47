package xmltext

import (
	"fmt"
	"io"
	"unicode/utf8"
)

// Context is where an escaper's output goes in a document.
type Context uint8

const (
	// Text is character data between tags.
	Text Context = iota
	// Attr is an attribute value between double quotes.
	Attr
	// Raw is the text of a comment, a processing instruction or a name,
	// where nothing can be escaped: only the characters are checked.
	Raw
)

// Options are the choices the writers of Vigil make differently.
type Options struct {
	// HexRefs writes a carriage return, tab and newline as &#xD;, &#x9;
	// and &#xA; rather than &#13;, &#9; and &#10;.
	HexRefs bool
	// EscapeGT escapes > in attribute values too (it always is in text).
	EscapeGT bool
	// Replace writes U+FFFD for each character XML cannot hold (each byte,
	// for bytes that are not UTF-8), instead of failing with a *CharError.
	Replace bool
}

// CharError reports a character XML 1.0 cannot hold.
type CharError struct {
	Offset int  // the byte offset of the character in the string
	Rune   rune // the character, utf8.RuneError for a byte that is not UTF-8
}

// Error says what the character is and where.
func (e *CharError) Error() string {
	if e.Rune == utf8.RuneError {
		return fmt.Sprintf("invalid UTF-8 at byte %d", e.Offset)
	}
	return fmt.Sprintf("character %U at byte %d is not allowed in XML", e.Rune, e.Offset)
}

// The actions of an Escaper's table: copy the byte, check the character
// that starts with it, refuse it, or write one of the references.
const (
	actCopy   uint8 = iota
	actDecode       // a byte from 0x80 up: decode the character it starts
	actRefuse       // a C0 control XML cannot hold
	actAmp          // the references, in the order of Escaper.refs
	actLt
	actGt
	actQuot
	actTab
	actNewline
	actReturn
	numActions
)

// Escaper writes strings escaped for one Context. Build one with
// NewEscaper, once: it holds a 256-entry table. It is safe for concurrent
// use.
type Escaper struct {
	action  [256]uint8
	refs    [numActions]string
	replace bool
}

// NewEscaper returns an escaper for ctx with the choices of opt.
func NewEscaper(ctx Context, opt Options) *Escaper {
	e := &Escaper{replace: opt.Replace}
	e.refs[actAmp], e.refs[actLt], e.refs[actGt], e.refs[actQuot] = "&amp;", "&lt;", "&gt;", "&quot;"
	if opt.HexRefs {
		e.refs[actTab], e.refs[actNewline], e.refs[actReturn] = "&#x9;", "&#xA;", "&#xD;"
	} else {
		e.refs[actTab], e.refs[actNewline], e.refs[actReturn] = "&#9;", "&#10;", "&#13;"
	}
	for c := 0; c < 0x20; c++ {
		e.action[c] = actRefuse
	}
	for c := 0x80; c < 0x100; c++ {
		e.action[c] = actDecode
	}
	e.action['\t'], e.action['\n'], e.action['\r'] = actCopy, actCopy, actCopy
	switch ctx {
	case Text:
		e.action['&'], e.action['<'], e.action['>'] = actAmp, actLt, actGt
		e.action['\r'] = actReturn
	case Attr:
		e.action['&'], e.action['<'], e.action['"'] = actAmp, actLt, actQuot
		e.action['\t'], e.action['\n'], e.action['\r'] = actTab, actNewline, actReturn
		if opt.EscapeGT {
			e.action['>'] = actGt
		}
	}
	return e
}

// Escape writes s to w escaped, each run of bytes that need no escape in
// one WriteString. It returns the first error of w, or, unless the escaper
// replaces them, a *CharError for the first character XML cannot hold,
// having written s up to it.
func (e *Escaper) Escape(w io.StringWriter, s string) error {
	action := &e.action
	last, i := 0, 0
	for {
		for i < len(s) && action[s[i]] == actCopy {
			i++
		}
		if i == len(s) {
			break
		}
		a := action[s[i]]
		rep, size := e.refs[a], 1
		switch a {
		case actDecode:
			if n := shortChar(s, i); n > 0 {
				i += n
				continue
			}
			var r rune
			r, size = utf8.DecodeRuneInString(s[i:])
			if size > 1 && r != 0xFFFE && r != 0xFFFF {
				i += size
				continue
			}
			if !e.replace {
				return refuse(w, s[last:i], i, r)
			}
			rep = "\uFFFD"
		case actRefuse:
			if !e.replace {
				return refuse(w, s[last:i], i, rune(s[i]))
			}
			rep = "\uFFFD"
		}
		if _, err := w.WriteString(s[last:i]); err != nil {
			return err
		}
		if _, err := w.WriteString(rep); err != nil {
			return err
		}
		i += size
		last = i
	}
	_, err := w.WriteString(s[last:])
	return err
}

// shortChar returns the length of the character of two or three bytes
// at s[i] when it is well-formed UTF-8 and a character XML can hold, 0
// otherwise (a four-byte character, U+FFFE, U+FFFF, a byte that is not
// UTF-8: utf8.DecodeRuneInString tells them apart). It spares most text
// from outside ASCII (Latin, Greek, Cyrillic, CJK) a call to the decoder.
func shortChar(s string, i int) int {
	c := s[i]
	switch {
	case c >= 0xC2 && c < 0xE0:
		if i+1 < len(s) && s[i+1]&0xC0 == 0x80 {
			return 2
		}
	case c > 0xE0 && c < 0xEF && c != 0xED:
		// No overlong form (E0), surrogate (ED) or U+FFFE and U+FFFF (EF)
		// starts with these.
		if i+2 < len(s) && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80 {
			return 3
		}
	}
	return 0
}

// refuse writes before, the text up to the character r at offset i, and
// returns the *CharError for r.
func refuse(w io.StringWriter, before string, i int, r rune) error {
	if _, err := w.WriteString(before); err != nil {
		return err
	}
	return &CharError{Offset: i, Rune: r}
}

// Check returns a *CharError for the first character of s that XML 1.0
// cannot hold, or nil.
func Check(s string) error {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x80, c == '\t', c == '\n', c == '\r':
			i++
		case c < 0x20:
			return &CharError{Offset: i, Rune: rune(c)}
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if size == 1 || r == 0xFFFE || r == 0xFFFF {
				return &CharError{Offset: i, Rune: r}
			}
			i += size
		}
	}
	return nil
}

// IsChar reports whether r is a character XML 1.0 can hold (its Char
// production): not NUL or another C0 control but tab, newline and
// carriage return, not a surrogate, not U+FFFE or U+FFFF.
func IsChar(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}
