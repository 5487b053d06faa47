package pdfdigest

import (
	"bytes"
	"strconv"
)

// The syntax of a PDF file (ISO 32000-1 §7.2, §7.3) as far as Sum
// reads it: tokens, and the objects they make (numbers, names, strings,
// arrays, dictionaries, references). A content stream's operators are
// not read: a stream is its bytes.

// tokenKind is the kind of a token of PDF's lexical conventions.
type tokenKind int

const (
	tokenEOF        tokenKind = iota
	tokenRegular              // a number or a keyword (obj, R, true, stream...)
	tokenName                 // /Name
	tokenString               // (literal) or <hex>
	tokenDictOpen             // <<
	tokenDictClose            // >>
	tokenArrayOpen            // [
	tokenArrayClose           // ]
	tokenStray                // a delimiter out of place: ) > { }
)

// token is a token: its kind and its bytes in the input.
type token struct {
	kind       tokenKind
	start, end int
}

// lexer reads the tokens of b from pos, comments and white space
// skipped.
type lexer struct {
	b   []byte
	pos int
	// values counts the values read since it was last set to 0, once an
	// object (maxValues).
	values int
	// noStreamEnd is an offset from which no endstream is followed by
	// endobj (endstreamEndobj), or 0 if none is known.
	noStreamEnd int
}

func isSpace(c byte) bool {
	return c == 0 || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' '
}

func isDelimiter(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

// next returns the next token; an unterminated string is an error.
func (l *lexer) next() (token, error) {
	b := l.b
	for l.pos < len(b) {
		if c := b[l.pos]; isSpace(c) {
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
		return token{kind: tokenEOF, start: start, end: start}, nil
	}
	tok := func(kind tokenKind, end int) (token, error) {
		l.pos = end
		return token{kind: kind, start: start, end: end}, nil
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
					return tok(tokenString, i+1)
				}
			}
		}
		return token{}, syntaxError(start, `a string that does not end: expected ")"`)
	case c == '<' && start+1 < len(b) && b[start+1] == '<':
		return tok(tokenDictOpen, start+2)
	case c == '<':
		end := bytes.IndexByte(b[start:], '>')
		if end < 0 {
			return token{}, syntaxError(start, `a hex string that does not end: expected ">"`)
		}
		return tok(tokenString, start+end+1)
	case c == '>' && start+1 < len(b) && b[start+1] == '>':
		return tok(tokenDictClose, start+2)
	case c == '[':
		return tok(tokenArrayOpen, start+1)
	case c == ']':
		return tok(tokenArrayClose, start+1)
	case c == '/':
		end := start + 1
		for end < len(b) && !isSpace(b[end]) && !isDelimiter(b[end]) {
			end++
		}
		return tok(tokenName, end)
	case isDelimiter(c):
		return tok(tokenStray, start+1)
	}
	end := start
	for end < len(b) && !isSpace(b[end]) && !isDelimiter(b[end]) {
		end++
	}
	return tok(tokenRegular, end)
}

// text returns a token's bytes.
func (l *lexer) text(t token) []byte { return l.b[t.start:t.end] }

// is reports whether t is the keyword kw.
func (l *lexer) is(t token, kw string) bool {
	return t.kind == tokenRegular && string(l.text(t)) == kw
}

// integer returns the value of a token that is an unsigned integer.
func (l *lexer) integer(t token) (int, bool) {
	if t.kind != tokenRegular || t.end-t.start > 18 {
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

// valueKind is the kind of an object of a PDF file.
type valueKind int

const (
	scalarValue valueKind = iota // a number, a keyword, a name, a string
	refValue                     // N G R
	arrayValue
	dictValue
)

// value is an object: a scalar's or a reference's bytes (of the latter,
// as written, white space and comments between its tokens too:
// refTokens), or an array's items, or a dictionary's keys and values, in
// turn.
type value struct {
	kind  valueKind
	raw   []byte
	items []value
}

// maxDepth bounds the nesting of arrays and dictionaries: a file
// nested deeper is a SyntaxError (ISO 32000-1 Annex C gives 28 as a limit).
const maxDepth = 256

// maxValues bounds the values of one object, each held in memory until
// the object is written (some 60 bytes a value, twice while a slice
// grows): a larger object is not read, and the file is a SyntaxError.
// So an object holds some 20 MB of heap at most in each Sum running,
// whatever the file (a 2.5 MB dictionary of a million
// values would hold 177 MB); and no writer puts as many in one object: a
// CID font's /W has about a value a glyph used, a page tree's /Kids one a
// page.
const maxValues = 1 << 17

// value reads the object that begins with token t.
func (l *lexer) value(t token, depth int) (value, error) {
	if depth >= maxDepth && (t.kind == tokenDictOpen || t.kind == tokenArrayOpen) {
		return value{}, syntaxError(t.start, "expected at most %d nested arrays and dictionaries", maxDepth)
	}
	if l.values++; l.values > maxValues {
		return value{}, syntaxError(t.start, "expected at most %d values in one object", maxValues)
	}
	switch t.kind {
	case tokenEOF:
		return value{}, syntaxError(t.start, "expected an object, found the end of the file")
	case tokenDictOpen, tokenArrayOpen:
		v := value{kind: arrayValue}
		closer := tokenArrayClose
		if t.kind == tokenDictOpen {
			v.kind, closer = dictValue, tokenDictClose
		}
		var it token
		for {
			var err error
			if it, err = l.next(); err != nil {
				return value{}, err
			}
			if it.kind == closer {
				break
			}
			if v.kind == dictValue && len(v.items)%2 == 0 && it.kind != tokenName {
				return value{}, syntaxError(it.start, "expected a name as a dictionary's key, found \"%s\"", excerpt(l.text(it)))
			}
			item, err := l.value(it, depth+1)
			if err != nil {
				return value{}, err
			}
			v.items = append(v.items, item)
		}
		if v.kind == dictValue && len(v.items)%2 != 0 {
			return value{}, syntaxError(it.start, "expected a value for the dictionary's last key, found %q", l.text(it))
		}
		return v, nil
	case tokenDictClose, tokenArrayClose, tokenStray:
		return value{}, syntaxError(t.start, "expected an object, found %q", l.text(t))
	}
	if _, ok := l.integer(t); ok {
		// A reference, N G R, is one object.
		save := l.pos
		gen, err1 := l.next()
		r, err2 := l.next()
		if _, ok := l.integer(gen); ok && err1 == nil && err2 == nil && l.is(r, "R") {
			return value{kind: refValue, raw: l.b[t.start:r.end]}, nil
		}
		l.pos = save
	}
	return value{kind: scalarValue, raw: l.text(t)}, nil
}

// refTokens returns the object number and the generation of a reference,
// N G R, as written, without the white space and comments between its
// tokens, which a writer may set as it likes.
func (v value) refTokens() (num, gen []byte) {
	l := lexer{b: v.raw}
	n, _ := l.next() // a reference's raw is three tokens: never an error
	g, _ := l.next()
	return l.text(n), l.text(g)
}

// get returns the value of key in a dictionary (its name decoded), or
// false.
func (v value) get(key string) (value, bool) {
	if v.kind != dictValue {
		return value{}, false
	}
	for i := 0; i+1 < len(v.items); i += 2 {
		if nameText(v.items[i].raw) == key {
			return v.items[i+1], true
		}
	}
	return value{}, false
}

// nameIs reports whether v is the name /name.
func (v value) nameIs(name string) bool {
	return v.kind == scalarValue && len(v.raw) > 0 && v.raw[0] == '/' && nameText(v.raw) == name
}

// integer returns the value of a direct unsigned integer.
func (v value) integer() (int, bool) {
	if v.kind != scalarValue {
		return 0, false
	}
	l := lexer{b: v.raw}
	return l.integer(token{kind: tokenRegular, end: len(v.raw)})
}

// nameText returns a name without its slash, its #xx escapes decoded:
// /Mod#44ate is /ModDate.
func nameText(raw []byte) string {
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

// excerpt returns the first bytes of a token, for an error message: a
// string may run for megabytes. A byte that is not printable UTF-8 (a
// control character, such as a terminal's escape, or invalid UTF-8, as a
// name may hold, or a character cut at the 32nd byte) is escaped as Go
// quotes it, \x1b, so that a message a file sets is one line of valid
// text wherever it is shown or stored.
func excerpt(b []byte) string {
	const most = 32
	more := ""
	if len(b) > most {
		b, more = b[:most], "..."
	}
	q := strconv.QuoteToGraphic(string(b))
	return q[1:len(q)-1] + more
}
