package spec

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Position is a printable source position: file name, byte offset, and
// 1-based line and column. Columns count characters (runes), as an editor
// shows them, where go/token counts bytes: a mistake after 日本語 is three
// columns on, not nine.
type Position struct {
	Filename string
	Offset   int
	Line     int
	Column   int
}

// IsValid reports whether the position is known.
func (p Position) IsValid() bool { return p.Line > 0 }

// String returns "file:line:col", "line:col" without a file name, or "-" for
// an unknown position.
func (p Position) String() string {
	s := p.Filename
	if p.IsValid() {
		if s != "" {
			s += ":"
		}
		s += fmt.Sprintf("%d:%d", p.Line, p.Column)
	}
	if s == "" {
		s = "-"
	}
	return s
}

// Error is one problem found in a sentinel specification, by the scanner,
// the parser or the checker.
type Error struct {
	Pos      Position // where the problem is
	Msg      string   // what is wrong, for a user; quotes at most 40 characters of the source, then "..."
	Found    string   // the offending text, if any, whole (its length gives the range to mark)
	Expected string   // what the parser expected there, if it knows
	// NameTaken says the problem is the sentinel's name, which the
	// owner's other sentinel has (Checker): a conflict with what is
	// stored, which a caller may tell from the sentinel's own mistakes.
	NameTaken bool
}

// Error returns "file:line:col: message", the format compilers use.
func (e *Error) Error() string {
	if e.Pos.IsValid() || e.Pos.Filename != "" {
		return e.Pos.String() + ": " + e.Msg
	}
	return e.Msg
}

// ErrorList is a list of errors, sorted by position once Sort is called. The
// parser and the checker return an ErrorList (as an error) when they find
// problems; it is nil when there are none.
type ErrorList []*Error

// Add appends an error at pos.
func (l *ErrorList) Add(pos Position, msg string) {
	*l = append(*l, &Error{Pos: pos, Msg: msg})
}

// Len, Swap and Less implement sort.Interface: by file, line, column, then
// message.
func (l ErrorList) Len() int      { return len(l) }
func (l ErrorList) Swap(i, j int) { l[i], l[j] = l[j], l[i] }
func (l ErrorList) Less(i, j int) bool {
	a, b := l[i].Pos, l[j].Pos
	if a.Filename != b.Filename {
		return a.Filename < b.Filename
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	if a.Column != b.Column {
		return a.Column < b.Column
	}
	return l[i].Msg < l[j].Msg
}

// Sort sorts the list by position.
func (l ErrorList) Sort() { sort.Stable(l) }

// RemoveMultiples sorts the list and keeps only the first error of each
// line, as go/scanner does: after one syntax error a line rarely says more.
func (l *ErrorList) RemoveMultiples() {
	l.Sort()
	var last Position
	i := 0
	for _, e := range *l {
		if e.Pos.Filename != last.Filename || e.Pos.Line != last.Line || !e.Pos.IsValid() {
			last = e.Pos
			(*l)[i] = e
			i++
		}
	}
	*l = (*l)[:i]
}

// maxQuoted is the number of characters of the user's text (a token, a
// name, a URL) that a message quotes: a longer text is cut, so that a
// sentinel named with a megabyte gives a message of a line.
const maxQuoted = 40

// short returns s, or its first maxQuoted characters and "..." when it is
// longer (cut between runes; a byte of invalid UTF-8 counts as one), with
// the characters a terminal would act on rather than show escaped (see
// visible): every message quotes the user's text through it.
func short(s string) string { return visible(cut(s)) }

// visible returns s with each control character (C0, DEL, C1) and each
// invisible format character (bidi controls such as U+202E, zero-width
// characters such as U+200B, U+FEFF) and line or paragraph separator
// written as Go writes it in a quoted string (\x01, \u202e): raw in a
// message, one would reorder or hide the rest of the line in a terminal.
// Other text, and bytes of invalid UTF-8, are left as they are.
func visible(s string) string {
	if !strings.ContainsFunc(s, hidden) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if hidden(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// hidden reports whether r is a character visible escapes.
func hidden(r rune) bool {
	return r != utf8.RuneError && (unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp))
}

// cut is short without the escapes: s, or its first maxQuoted characters
// and "...".
func cut(s string) string {
	n := 0
	for i := range s {
		if n == maxQuoted {
			return s[:i] + "..."
		}
		n++
	}
	return s
}

// shortCode is short for text in the language, as Print writes it: the
// cut is not made inside an escape of a quoted string (\", \\, \x7f,
// \u00a0), which would end the text on a lone backslash.
func shortCode(s string) string {
	c := cut(s)
	if c == s {
		return visible(s)
	}
	c = c[:len(c)-len("...")]
	for k := 0; k < len(c); k++ {
		if c[k] != '\\' {
			continue
		}
		n := 2 // \" \\ \n
		if k+1 < len(c) {
			switch c[k+1] {
			case 'x':
				n = 4
			case 'u':
				n = 6
			case 'U':
				n = 10
			}
		}
		if k+n > len(c) {
			return c[:k] + "..."
		}
		k += n - 1
	}
	return visible(c) + "..."
}

// quote returns s quoted as %q does, cut as short cuts it: the "..." is
// outside the quotes, so the quoted text is what the source holds.
func quote(s string) string {
	if c := cut(s); c != s {
		return strconv.Quote(strings.TrimSuffix(c, "...")) + "..."
	}
	return strconv.Quote(s)
}

// MaxErrors is the number of errors Parse, Checker.CheckFile and
// Checker.Check report at most, as Go's compiler stops at 10: past it the
// list ends with one more error, "too many errors", at the position of the
// first error left out. A file that is not a sentinel file at all (a
// binary, another language) would otherwise give an error a line.
const MaxErrors = 10

// TooManyErrors is the message of the error that ends a list cut at
// MaxErrors.
const TooManyErrors = "too many errors"

// limit sorts the list and, when it holds more than max errors, keeps the
// first max and ends it with "too many errors" at the position of the
// first one left out.
func (l *ErrorList) limit(max int) {
	l.Sort()
	if len(*l) <= max {
		return
	}
	next := (*l)[max]
	*l = append((*l)[:max:max], &Error{Pos: next.Pos, Msg: TooManyErrors})
}

// Error returns the first error and the number of others ("more than" so
// many in a list cut at MaxErrors).
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	if l[len(l)-1].Msg == TooManyErrors {
		return fmt.Sprintf("%s (and more than %d other errors)", l[0], len(l)-2)
	}
	if len(l) == 2 {
		return fmt.Sprintf("%s (and 1 more error)", l[0])
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0], len(l)-1)
}

// Err returns l as an error, or nil if the list is empty.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// String returns every error on a line of its own.
func (l ErrorList) String() string {
	var b strings.Builder
	for _, e := range l {
		b.WriteString(e.Error())
		b.WriteByte('\n')
	}
	return b.String()
}

// Unwrap returns the errors of the list, so errors.As finds an *Error.
func (l ErrorList) Unwrap() []error {
	errs := make([]error, len(l))
	for i, e := range l {
		errs[i] = e
	}
	return errs
}
