package delta

import (
	"bytes"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/vigil-web/vigil/xmltext"
)

// jsonLexer splits JSON text into tokens. It is written here rather than
// taken from encoding/json (see codec_json_decode.go): Unmarshal refuses
// input nested more than 10 000 levels deep, and Decoder.Token, which does
// not, boxes every token in an interface and decodes at half Unmarshal's
// speed. Strings are decoded as encoding/json decodes them, but for the
// characters a delta cannot hold: where encoding/json reads invalid UTF-8
// or a lone surrogate (\ud800) as U+FFFD, and a character XML 1.0 does not
// allow (\u0001, \b, \uffff) as itself, the lexer returns an error at it,
// as DecodeXML refuses the same characters, so that a JSON delta reads as
// the delta its XML form holds or not at all.
type jsonLexer struct {
	data []byte
	off  int // the next byte to read
	// marks holds the offsets of the byte-order marks skipped, which the
	// columns of errors do not count (see lineCol).
	marks []int
}

// tokenKind is the kind of a JSON token.
type tokenKind uint8

const (
	tokenEnd         tokenKind = iota // the end of the input
	tokenBeginObject                  // {
	tokenEndObject                    // }
	tokenBeginArray                   // [
	tokenEndArray                     // ]
	tokenColon                        // :
	tokenComma                        // ,
	tokenString
	tokenNumber
	tokenTrue
	tokenFalse
	tokenNull
)

// isValue reports whether a token of kind k starts a value.
func (k tokenKind) isValue() bool {
	return k == tokenBeginObject || k == tokenBeginArray || k >= tokenString
}

// String names the kind in error messages: "a JSON string where ...".
func (k tokenKind) String() string {
	return [...]string{"end of input", "object", "'}'", "array", "']'", "':'", "','", "string", "number", "bool", "bool", "null"}[k]
}

// jsonToken is a token: its kind, the decoded value of a string or the text
// of a number, and its offset in the input.
type jsonToken struct {
	kind tokenKind
	text string
	at   int
}

// syntaxError is a lexical or grammatical error at an offset of the input.
type syntaxError struct {
	at  int
	msg string
}

func (e *syntaxError) Error() string { return e.msg }

// peek returns the next token without reading it.
func (l *jsonLexer) peek() (jsonToken, error) {
	off := l.off
	t, err := l.next()
	l.off = off
	return t, err
}

// skipByteOrderMarks reads the white space and the byte-order marks
// (U+FEFF in UTF-8) that come next, which only stand between deltas.
func (l *jsonLexer) skipByteOrderMarks() {
	for l.off < len(l.data) {
		switch {
		case l.data[l.off] == ' ' || l.data[l.off] == '\t' || l.data[l.off] == '\n' || l.data[l.off] == '\r':
			l.off++
		case bytes.HasPrefix(l.data[l.off:], []byte("\uFEFF")):
			if len(l.marks) == 0 || l.marks[len(l.marks)-1] < l.off {
				l.marks = append(l.marks, l.off)
			}
			l.off += len("\uFEFF")
		default:
			return
		}
	}
}

// next reads the next token.
func (l *jsonLexer) next() (jsonToken, error) {
	for l.off < len(l.data) {
		switch l.data[l.off] {
		case ' ', '\t', '\n', '\r':
			l.off++
			continue
		}
		break
	}
	at := l.off
	if at == len(l.data) {
		return jsonToken{kind: tokenEnd, at: at}, nil
	}
	c := l.data[at]
	var kind tokenKind
	switch c {
	case '{':
		kind = tokenBeginObject
	case '}':
		kind = tokenEndObject
	case '[':
		kind = tokenBeginArray
	case ']':
		kind = tokenEndArray
	case ':':
		kind = tokenColon
	case ',':
		kind = tokenComma
	case '"':
		s, err := l.str()
		return jsonToken{kind: tokenString, text: s, at: at}, err
	case 't':
		return l.literal("true", tokenTrue)
	case 'f':
		return l.literal("false", tokenFalse)
	case 'n':
		return l.literal("null", tokenNull)
	default:
		if c == '-' || '0' <= c && c <= '9' {
			return l.number()
		}
	}
	if kind == tokenEnd {
		return jsonToken{}, &syntaxError{at, fmt.Sprintf("invalid character %q", rune(c))}
	}
	l.off++
	return jsonToken{kind: kind, at: at}, nil
}

// literal reads true, false or null.
func (l *jsonLexer) literal(word string, kind tokenKind) (jsonToken, error) {
	at := l.off
	if len(l.data)-at < len(word) || string(l.data[at:at+len(word)]) != word {
		return jsonToken{}, &syntaxError{at, fmt.Sprintf("invalid character %q", rune(l.data[at]))}
	}
	l.off += len(word)
	return jsonToken{kind: kind, at: at}, nil
}

// number reads a number, as JSON's grammar has it, and returns its text.
func (l *jsonLexer) number() (jsonToken, error) {
	at := l.off
	d := l.data
	i := at
	digits := func() int {
		start := i
		for i < len(d) && '0' <= d[i] && d[i] <= '9' {
			i++
		}
		return i - start
	}
	bad := func() (jsonToken, error) {
		return jsonToken{}, &syntaxError{i, "malformed number"}
	}
	if d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case digits() == 0:
		return bad()
	}
	if i < len(d) && d[i] == '.' {
		i++
		if digits() == 0 {
			return bad()
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if digits() == 0 {
			return bad()
		}
	}
	l.off = i
	return jsonToken{kind: tokenNumber, text: string(d[at:i]), at: at}, nil
}

// str reads a string from its opening quote and returns its value.
func (l *jsonLexer) str() (string, error) {
	d := l.data
	start := l.off + 1
	// The common case: no escape, valid UTF-8, one copy.
	i := start
	// 0xEF leads U+FFFE and U+FFFF, which the slow path refuses.
	for i < len(d) && d[i] != '"' && d[i] != '\\' && d[i] >= 0x20 && d[i] != 0xef {
		i++
	}
	if i < len(d) && d[i] == '"' && utf8.Valid(d[start:i]) {
		l.off = i + 1
		return string(d[start:i]), nil
	}
	var b []byte
	for i = start; ; {
		if i == len(d) {
			return "", &syntaxError{i, "unexpected end of JSON input"}
		}
		c := d[i]
		switch {
		case c == '"':
			l.off = i + 1
			return string(b), nil
		case c < 0x20:
			return "", &syntaxError{i, fmt.Sprintf("invalid character %q in a string", rune(c))}
		case c == '\\':
			r, n, err := l.escape(i)
			if err != nil {
				return "", err
			}
			if !xmltext.IsChar(r) {
				return "", &syntaxError{i, fmt.Sprintf("character %U (%s) is not allowed: XML 1.0, and so a delta, cannot hold it", r, d[i:i+n])}
			}
			b = utf8.AppendRune(b, r)
			i += n
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, n := utf8.DecodeRune(d[i:])
			if r == utf8.RuneError && n == 1 {
				return "", &syntaxError{i, fmt.Sprintf("invalid UTF-8 (byte %#02x) in a string", c)}
			}
			if !xmltext.IsChar(r) {
				return "", &syntaxError{i, fmt.Sprintf("character %U is not allowed: XML 1.0, and so a delta, cannot hold it", r)}
			}
			b = append(b, d[i:i+n]...)
			i += n
		}
	}
}

// escape decodes the escape sequence at d[i] (a backslash) and returns the
// rune and the number of bytes it takes.
func (l *jsonLexer) escape(i int) (rune, int, error) {
	d := l.data
	if i+1 == len(d) {
		return 0, 0, &syntaxError{i + 1, "unexpected end of JSON input"}
	}
	switch c := d[i+1]; c {
	case '"', '\\', '/':
		return rune(c), 2, nil
	case 'b':
		return '\b', 2, nil
	case 'f':
		return '\f', 2, nil
	case 'n':
		return '\n', 2, nil
	case 'r':
		return '\r', 2, nil
	case 't':
		return '\t', 2, nil
	case 'u':
		r, ok := hex4(d[i+2:])
		if !ok {
			return 0, 0, &syntaxError{i, `malformed \u escape`}
		}
		if utf16.IsSurrogate(r) {
			// A pair; a lone half, which encoding/json reads as U+FFFD,
			// is refused.
			if len(d) >= i+12 && d[i+6] == '\\' && d[i+7] == 'u' {
				if r2, ok := hex4(d[i+8:]); ok {
					if pair := utf16.DecodeRune(r, r2); pair != utf8.RuneError {
						return pair, 12, nil
					}
				}
			}
			return 0, 0, &syntaxError{i, fmt.Sprintf("lone surrogate %s: not a character", d[i:i+6])}
		}
		return r, 6, nil
	default:
		return 0, 0, &syntaxError{i, fmt.Sprintf("invalid escape %q", `\`+string(rune(c)))}
	}
}

// hex4 decodes four hexadecimal digits.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
