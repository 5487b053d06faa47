package markup

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// ErrTooLarge is wrapped by the error returned for an input larger than
// Options.MaxBytes.
var ErrTooLarge = errors.New("input too large")

// ErrNotXML is wrapped by the error WriteXML returns for a tree that XML
// cannot hold: a name that is not an XML name, as HTML parsers keep them,
// or a processing instruction whose target is not one or is xml.
var ErrNotXML = errors.New("not an XML name")

// ErrHTMLTooDeep is wrapped by the error ParseHTML returns for elements
// nested more than 512 deep, which golang.org/x/net/html refuses (after
// unclosed formatting tags are capped, see the package documentation); a
// well-formed document that deep parses as XML (Options.Format).
var ErrHTMLTooDeep = errors.New("too deep for the HTML parser; a well-formed document this deep parses as XML")

// ErrBinary is wrapped by the error CheckBinary returns for an input that is
// not text: an image, an archive, an executable.
var ErrBinary = errors.New("binary input, not XML or HTML")

// ErrEmpty is wrapped by the error CheckEmpty returns for an input with no
// element and no text.
var ErrEmpty = errors.New("empty document")

// LimitError is the error for an input past one of Options' limits: Err
// says what went past the limit and where, without naming the option, and
// Error adds the Options field that changes the limit. A program that
// offers the limit under another name (a command-line flag) can say so
// with Err and Option.
type LimitError struct {
	// Option is the Options field of the limit: "MaxBytes", "MaxDepth" or
	// "MaxEntityExpansion".
	Option string
	// Max is the limit in force.
	Max int64
	// Err is what went past the limit (a *SyntaxError where it has a
	// place in the document).
	Err error
}

// Error returns Err's text followed by the Options field in parentheses.
func (e *LimitError) Error() string { return e.Err.Error() + " (Options." + e.Option + ")" }

// Unwrap returns Err.
func (e *LimitError) Unwrap() error { return e.Err }

// SyntaxError is an error in an XML document, at a position in the document
// after charset decoding. Line and Column are 1-based; Column counts
// characters (Unicode code points), not bytes, and a tab counts as one.
type SyntaxError struct {
	Line, Column int
	Msg          string
}

// Error returns "line L, column C: msg".
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// position returns the 1-based line and column of byte offset off in s.
func position(s string, off int) (line, col int) {
	if off > len(s) {
		off = len(s)
	}
	if off < 0 {
		off = 0
	}
	head := s[:off]
	line = 1 + strings.Count(head, "\n")
	if i := strings.LastIndexByte(head, '\n'); i >= 0 {
		head = head[i+1:]
	}
	return line, 1 + utf8.RuneCountInString(head)
}

// syntaxErrorAt returns a SyntaxError for byte offset off of s.
func syntaxErrorAt(s string, off int, format string, args ...any) *SyntaxError {
	line, col := position(s, off)
	return &SyntaxError{Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}
