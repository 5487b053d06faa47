package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// syntaxMessage says where a body that is not JSON goes wrong, and what
// is wrong there, if err is encoding/json's error of such a body (a
// syntax error, or the body ending before its value does): "line 3,
// column 17 (byte 33): invalid character 'h' after object key:value
// pair". encoding/json says neither where, nor the character, but its
// first byte ('Ã' of an é).
func syntaxMessage(body []byte, err error) (string, bool) {
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return jsonPosition(body, len(body)) + ": the body ends before its value does", true
	}
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return "", false
	}
	// The offset counts the byte that was refused.
	off := min(max(int(se.Offset)-1, 0), len(body))
	what := se.Error()
	if m := invalidCharacter.FindStringSubmatch(what); m != nil && off < len(body) {
		what = invalidRune(body[off:]) + " " + m[1]
	}
	return jsonPosition(body, off) + ": " + what, true
}

// invalidCharacter reads encoding/json's "invalid character 'x' CONTEXT",
// the character quoted as a Go character literal.
var invalidCharacter = regexp.MustCompile(`^invalid character '(?:[^'\\]|\\.[^']*)' (.+)$`)

// invalidRune says the character that starts b, refused: quoted if it
// prints, else by its code point, or the byte that is no UTF-8.
func invalidRune(b []byte) string {
	r, size := utf8.DecodeRune(b)
	switch {
	case r == utf8.RuneError && size <= 1:
		return fmt.Sprintf("invalid byte 0x%02X (not UTF-8)", b[0])
	case unicode.IsPrint(r):
		return "invalid character " + strconv.QuoteRune(r)
	}
	return fmt.Sprintf("invalid character %U", r)
}

// jsonPosition says where byte off of body is: its line and column
// (in characters), from 1, and the byte, from 0.
func jsonPosition(body []byte, off int) string {
	line, start := 1, 0
	for i, c := range body[:off] {
		if c == '\n' {
			line, start = line+1, i+1
		}
	}
	return fmt.Sprintf("line %d, column %d (byte %d)", line, utf8.RuneCount(body[start:off])+1, off)
}
