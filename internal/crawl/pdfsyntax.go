package crawl

import (
	"bytes"
	"errors"
	"fmt"
)

// The syntax of a PDF file (ISO 32000-1 §7.2, §7.3) as far as hashPDF
// reads it: tokens, and the objects they make (numbers, names, strings,
// arrays, dictionaries, references). A content stream's operators are
// not read: a stream is its bytes.

// pdfTokenKind is the kind of a token of PDF's lexical conventions.
type pdfTokenKind int

const (
	pdfEOF        pdfTokenKind = iota
	pdfRegular                 // a number or a keyword (obj, R, true, stream...)
	pdfName                    // /Name
	pdfString                  // (literal) or <hex>
	pdfDictOpen                // <<
	pdfDictClose               // >>
	pdfArrayOpen               // [
	pdfArrayClose              // ]
	pdfStray                   // a delimiter out of place: ) > { }
)

// pdfToken is a token: its kind and its bytes in the input.
type pdfToken struct {
	kind       pdfTokenKind
	start, end int
}

// pdfLexer reads the tokens of b from pos, comments and white space
// skipped.
type pdfLexer struct {
	b   []byte
	pos int
	// values counts the values read since it was last set to 0, once an
	// object (pdfMaxValues).
	values int
	// noStreamEnd is an offset from which no endstream is followed by
	// endobj (endstreamEndobj), or 0 if none is known.
	noStreamEnd int
}

// errPDFSyntax is wrapped by the errors of a file hashPDF cannot read.
var errPDFSyntax = errors.New("pdf syntax")

func pdfSpace(c byte) bool {
	return c == 0 || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' '
}

func pdfDelimiter(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

// next returns the next token; an unterminated string is an error.
func (l *pdfLexer) next() (pdfToken, error) {
	b := l.b
	for l.pos < len(b) {
		if c := b[l.pos]; pdfSpace(c) {
			l.pos++
		} else if c == '%' {
			for l.pos < len(b) && b[l.pos] != '\n' && b[l.pos] != '\r' {
				l.pos++
			}
		} else {
			break
		}
	}
	start := l.pos
	if start >= len(b) {
		return pdfToken{kind: pdfEOF, start: start, end: start}, nil
	}
	tok := func(kind pdfTokenKind, end int) (pdfToken, error) {
		l.pos = end
		return pdfToken{kind: kind, start: start, end: end}, nil
	}
	switch c := b[start]; {
	case c == '(':
		depth := 0
		for i := start; i < len(b); i++ {
			switch b[i] {
			case '\\':
				i++
			case '(':
				depth++
			case ')':
				if depth--; depth == 0 {
					return tok(pdfString, i+1)
				}
			}
		}
		return pdfToken{}, fmt.Errorf("%w: a string at byte %d does not end", errPDFSyntax, start)
	case c == '<' && start+1 < len(b) && b[start+1] == '<':
		return tok(pdfDictOpen, start+2)
	case c == '<':
		end := bytes.IndexByte(b[start:], '>')
		if end < 0 {
			return pdfToken{}, fmt.Errorf("%w: a hex string at byte %d does not end", errPDFSyntax, start)
		}
		return tok(pdfString, start+end+1)
	case c == '>' && start+1 < len(b) && b[start+1] == '>':
		return tok(pdfDictClose, start+2)
	case c == '[':
		return tok(pdfArrayOpen, start+1)
	case c == ']':
		return tok(pdfArrayClose, start+1)
	case c == '/':
		end := start + 1
		for end < len(b) && !pdfSpace(b[end]) && !pdfDelimiter(b[end]) {
			end++
		}
		return tok(pdfName, end)
	case pdfDelimiter(c):
		return tok(pdfStray, start+1)
	}
	end := start
	for end < len(b) && !pdfSpace(b[end]) && !pdfDelimiter(b[end]) {
		end++
	}
	return tok(pdfRegular, end)
}

// text returns a token's bytes.
func (l *pdfLexer) text(t pdfToken) []byte { return l.b[t.start:t.end] }

// is reports whether t is the keyword kw.
func (l *pdfLexer) is(t pdfToken, kw string) bool {
	return t.kind == pdfRegular && string(l.text(t)) == kw
}

// integer returns the value of a token that is an unsigned integer.
func (l *pdfLexer) integer(t pdfToken) (int, bool) {
	if t.kind != pdfRegular || t.end-t.start > 18 {
		return 0, false
	}
	n := 0
	for _, c := range l.text(t) {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// pdfValueKind is the kind of an object of a PDF file.
type pdfValueKind int

const (
	pdfScalar pdfValueKind = iota // a number, a keyword, a name, a string
	pdfRef                        // N G R
	pdfArray
	pdfDict
)

// pdfValue is an object: a scalar's or a reference's bytes, or an array's
// items, or a dictionary's keys and values, in turn.
type pdfValue struct {
	kind  pdfValueKind
	raw   []byte
	items []pdfValue
}

// pdfMaxDepth bounds the nesting of arrays and dictionaries: a file
// nested deeper is not read (ISO 32000-1 Annex C gives 28 as a limit).
const pdfMaxDepth = 256

// pdfMaxValues bounds the values of one object, each held in memory until
// the object is written (some 60 bytes a value, twice while a slice
// grows): a larger object is not read, and the file is hashed as its
// bytes. So an object holds some 20 MB of heap at most in each of a
// crawl's workers, whatever the file (a 2.5 MB dictionary of a million
// values would hold 177 MB); and no writer puts as many in one object: a
// CID font's /W has about a value a glyph used, a page tree's /Kids one a
// page.
const pdfMaxValues = 1 << 17

// value reads the object that begins with token t.
func (l *pdfLexer) value(t pdfToken, depth int) (pdfValue, error) {
	if depth > pdfMaxDepth {
		return pdfValue{}, fmt.Errorf("%w: nested deeper than %d at byte %d", errPDFSyntax, pdfMaxDepth, t.start)
	}
	if l.values++; l.values > pdfMaxValues {
		return pdfValue{}, fmt.Errorf("%w: an object of more than %d values at byte %d", errPDFSyntax, pdfMaxValues, t.start)
	}
	switch t.kind {
	case pdfEOF:
		return pdfValue{}, fmt.Errorf("%w: the file ends where an object belongs", errPDFSyntax)
	case pdfDictOpen, pdfArrayOpen:
		v := pdfValue{kind: pdfArray}
		closer := pdfArrayClose
		if t.kind == pdfDictOpen {
			v.kind, closer = pdfDict, pdfDictClose
		}
		for {
			it, err := l.next()
			if err != nil {
				return pdfValue{}, err
			}
			if it.kind == closer {
				break
			}
			if v.kind == pdfDict && len(v.items)%2 == 0 && it.kind != pdfName {
				return pdfValue{}, fmt.Errorf("%w: a dictionary key at byte %d is no name", errPDFSyntax, it.start)
			}
			item, err := l.value(it, depth+1)
			if err != nil {
				return pdfValue{}, err
			}
			v.items = append(v.items, item)
		}
		if v.kind == pdfDict && len(v.items)%2 != 0 {
			return pdfValue{}, fmt.Errorf("%w: a dictionary ending at byte %d has a key without value", errPDFSyntax, l.pos)
		}
		return v, nil
	case pdfDictClose, pdfArrayClose, pdfStray:
		return pdfValue{}, fmt.Errorf("%w: %q out of place at byte %d", errPDFSyntax, l.text(t), t.start)
	}
	if _, ok := l.integer(t); ok {
		// A reference, N G R, is one object.
		save := l.pos
		gen, err1 := l.next()
		r, err2 := l.next()
		if _, ok := l.integer(gen); ok && err1 == nil && err2 == nil && l.is(r, "R") {
			return pdfValue{kind: pdfRef, raw: l.b[t.start:r.end]}, nil
		}
		l.pos = save
	}
	return pdfValue{kind: pdfScalar, raw: l.text(t)}, nil
}

// get returns the value of key in a dictionary (its name decoded), or
// false.
func (v pdfValue) get(key string) (pdfValue, bool) {
	if v.kind != pdfDict {
		return pdfValue{}, false
	}
	for i := 0; i+1 < len(v.items); i += 2 {
		if pdfNameText(v.items[i].raw) == key {
			return v.items[i+1], true
		}
	}
	return pdfValue{}, false
}

// nameIs reports whether v is the name /name.
func (v pdfValue) nameIs(name string) bool {
	return v.kind == pdfScalar && len(v.raw) > 0 && v.raw[0] == '/' && pdfNameText(v.raw) == name
}

// integer returns the value of a direct unsigned integer.
func (v pdfValue) integer() (int, bool) {
	if v.kind != pdfScalar {
		return 0, false
	}
	l := pdfLexer{b: v.raw}
	return l.integer(pdfToken{kind: pdfRegular, end: len(v.raw)})
}

// pdfNameText returns a name without its slash, its #xx escapes decoded:
// /Mod#44ate is /ModDate.
func pdfNameText(raw []byte) string {
	if len(raw) == 0 || raw[0] != '/' {
		return ""
	}
	raw = raw[1:]
	if bytes.IndexByte(raw, '#') < 0 {
		return string(raw)
	}
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i++ {
		if raw[i] == '#' && i+2 < len(raw) && hexDigit(raw[i+1]) >= 0 && hexDigit(raw[i+2]) >= 0 {
			out = append(out, byte(hexDigit(raw[i+1])<<4|hexDigit(raw[i+2])))
			i += 2
			continue
		}
		out = append(out, raw[i])
	}
	return string(out)
}

func hexDigit(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}
