package spec

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// An ErrorHandler is called by the Scanner for each malformed token.
type ErrorHandler func(pos Pos, msg, found string)

// Scanner splits the source of a sentinel file into tokens. Its zero value is
// not usable; call Init.
//
// Lexical rules:
//   - lines end with "\n", "\r\n" or a "\r" alone;
//   - white space separates tokens; a "#" at the start of a token begins a
//     comment that runs to the end of the line ("#" inside a URL does not);
//   - a word starts with a letter, digit or "_" and continues with letters,
//     digits, combining marks, "_" and "-"; a reserved word (Create,
//     Using, AND, ...) in any case is a keyword token, any other word is
//     IDENT, INT or WORD;
//   - a word followed by ".", "/", ":" or "@" and then a character that is
//     neither space nor one of ( ) { } , " becomes a WORD (a URL, a host
//     name, an email address) that runs until such a character, but for
//     the ";"s that end it, which are no part of it;
//   - digits/digits/digits is a DATE, digits:digits a CLOCK, digits.digits a
//     FLOAT, and a "-" directly before digits makes a negative number;
//   - strings are "double quoted" with Go escapes (\" \\ \n \t \u00e9 ...)
//     or in typographic quotes “...” without escapes, on one line.
type Scanner struct {
	src  []byte
	err  ErrorHandler
	off  int // current reading offset
	line int // current line
	bol  int // offset of the beginning of the current line
	// colOff and col are the offset and column of the last position
	// made on the current line, from which the next is counted on:
	// columns count runes, and the positions of a line come in order.
	colOff, col int

	// ErrorCount is the number of errors reported.
	ErrorCount int
}

// Init prepares s to scan src, reporting errors to err (which may be nil).
func (s *Scanner) Init(src []byte, err ErrorHandler) {
	*s = Scanner{src: src, err: err, line: 1, col: 1}
	if len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF {
		s.off, s.bol, s.colOff = 3, 3, 3 // byte order mark, no column
	}
}

// pos returns the position of the byte at offset off of the current
// line. Its column counts runes (characters, as an editor shows them),
// not bytes: 日 is one column.
func (s *Scanner) pos(off int) Pos {
	if s.colOff < s.bol || s.colOff > off {
		s.colOff, s.col = s.bol, 1
	}
	s.col += utf8.RuneCount(s.src[s.colOff:off])
	s.colOff = off
	return Pos{Offset: off, Line: s.line, Column: s.col}
}

func (s *Scanner) error(pos Pos, msg, found string) {
	s.ErrorCount++
	if s.err != nil {
		s.err(pos, msg, found)
	}
}

// peekByte returns the byte at offset off, 0 at the end.
func (s *Scanner) peekByte(off int) byte {
	if off >= len(s.src) {
		return 0
	}
	return s.src[off]
}

// isLineEnd reports whether c ends a line: "\n", or "\r" alone or before
// "\n".
func isLineEnd(c byte) bool { return c == '\n' || c == '\r' }

// peekRune returns the rune at offset off and its width; width 0 at the end.
func (s *Scanner) peekRune(off int) (rune, int) {
	if off >= len(s.src) {
		return -1, 0
	}
	if c := s.src[off]; c < utf8.RuneSelf {
		return rune(c), 1
	}
	return utf8.DecodeRune(s.src[off:])
}

const (
	openQuote  = '\u201C' // “
	closeQuote = '\u201D' // ”
)

func isWordStart(r rune) bool {
	return r == '_' || r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') ||
		r >= utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// isWordPart reports whether r continues a word: what starts one, "-",
// and a combining mark (decomposed text: "cafe\u0301" is café).
func isWordPart(r rune) bool {
	return r == '-' || isWordStart(r) || r >= utf8.RuneSelf && unicode.In(r, unicode.Mn, unicode.Mc, unicode.Me)
}

// isURLPart reports whether r may appear in a URL-like WORD.
func isURLPart(r rune) bool {
	switch r {
	case '(', ')', '{', '}', ',', '"', openQuote, closeQuote, -1, utf8.RuneError:
		return false
	}
	return r > ' ' && r != 0x7f && !unicode.IsSpace(r) && unicode.IsPrint(r)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// Scan returns the next token: its position, class and literal text. The
// literal of a STRING is the quoted source text; of a COMMENT, the text from
// "#" to the end of the line; of keywords and operators, the source text.
func (s *Scanner) Scan() (pos Pos, tok Token, lit string) {
	// skip white space, counting lines
	for s.off < len(s.src) {
		r, w := s.peekRune(s.off)
		if r == '\n' || r == '\r' && s.peekByte(s.off+1) != '\n' {
			// A carriage return alone ends a line too (classic Mac
			// files); before "\n" it is white space.
			s.off++
			s.line++
			s.bol = s.off
			continue
		}
		if r == ' ' || r == '\t' || r == '\r' || r == '\f' || r == '\v' || (r >= utf8.RuneSelf && unicode.IsSpace(r)) {
			s.off += w
			continue
		}
		break
	}
	start := s.off
	pos = s.pos(start)
	if s.off >= len(s.src) {
		return pos, EOF, ""
	}
	r, w := s.peekRune(s.off)
	switch {
	case r == '#':
		for s.off < len(s.src) && !isLineEnd(s.src[s.off]) {
			s.off++
		}
		return pos, COMMENT, string(s.src[start:s.off])
	case r == '"':
		return pos, STRING, s.scanString(pos)
	case r == openQuote:
		return pos, STRING, s.scanTypographic(pos, w)
	case r == '-' && s.off+1 < len(s.src) && isDigit(s.src[s.off+1]):
		s.off++
		tok, lit = s.scanWord(start)
		if tok != INT && tok != FLOAT {
			tok = WORD
		}
		return pos, tok, lit
	case isWordStart(r):
		tok, lit = s.scanWord(start)
		return pos, tok, lit
	}
	s.off += w
	switch r {
	case '(':
		return pos, LPAREN, "("
	case ')':
		return pos, RPAREN, ")"
	case '{':
		return pos, LBRACE, "{"
	case '}':
		return pos, RBRACE, "}"
	case ',':
		return pos, COMMA, ","
	case '+':
		return pos, PLUS, "+"
	case ':':
		return pos, COLON, ":"
	}
	lit = string(s.src[start:s.off])
	switch {
	case r == utf8.RuneError && w == 1:
		s.error(pos, invalidUTF8, lit)
	case r == ';':
		s.error(pos, `illegal character ';': clauses and sentinels end without ";": remove it`, lit)
	default:
		s.error(pos, illegalCharacter(r), lit)
	}
	return pos, ILLEGAL, lit
}

// illegalCharacter says that r is not part of the language. A full-width
// form of an ASCII character (U+FF01..U+FF5E: ｛, ｝, ，, as an East Asian
// keyboard types them) names the ASCII character to write instead, or,
// when that one is not legal either ($), the character it stands for.
func illegalCharacter(r rune) string {
	msg := "illegal character " + strconv.QuoteRune(r)
	if r < 0xFF01 || r > 0xFF5E {
		return msg
	}
	ascii := r - 0xFF01 + '!'
	if _, ok := scanOne(string(ascii)); ok {
		return msg + " (full-width; write " + strconv.QuoteRune(ascii) + ")"
	}
	return msg + " (full-width " + strconv.QuoteRune(ascii) + ")"
}

// invalidUTF8 is the error at a byte outside a string that is not UTF-8.
const invalidUTF8 = "invalid UTF-8 encoding (save the file as UTF-8)"

// scanWord scans an identifier, number, date, clock or URL-like word
// starting at start; s.off is at its first word character.
func (s *Scanner) scanWord(start int) (Token, string) {
	allDigits := true
	for {
		r, w := s.peekRune(s.off)
		if !isWordPart(r) {
			break
		}
		if r < '0' || r > '9' {
			allDigits = false
		}
		s.off += w
	}
	digitsStart := start
	if s.src[start] == '-' {
		digitsStart++
	}
	if allDigits && s.off > digitsStart {
		if tok, ok := s.scanNumberForm(); ok {
			return tok, string(s.src[start:s.off])
		}
	}
	// URL continuation: ".", "/", ":" or "@" followed by a URL character.
	r, w := s.peekRune(s.off)
	switch r {
	case '.', '/', ':', '@':
		if r2, _ := s.peekRune(s.off + w); isURLPart(r2) {
			for {
				r, w := s.peekRune(s.off)
				if !isURLPart(r) {
					break
				}
				s.off += w
			}
			// A URL or an address may hold a ";" (a;b=1), but one
			// that ends it ends a statement in other languages:
			// left out, it is reported (see Scan).
			for s.off > start+1 && s.src[s.off-1] == ';' {
				s.off--
			}
			return WORD, string(s.src[start:s.off])
		}
	}
	lit := string(s.src[start:s.off])
	if allDigits {
		if s.src[start] == '-' {
			return INT, lit
		}
		return INT, lit
	}
	if s.src[start] >= '0' && s.src[start] <= '9' || s.src[start] == '-' {
		return WORD, lit // 5331-x: a word, not a name
	}
	return Lookup(lit), lit
}

// scanNumberForm tries DATE (d/d/d), CLOCK (d:dd) and FLOAT (d.d) after a run
// of digits; on failure it leaves s.off unchanged.
func (s *Scanner) scanNumberForm() (Token, bool) {
	save := s.off
	digits := func() int {
		n := 0
		for s.off < len(s.src) && isDigit(s.src[s.off]) {
			s.off++
			n++
		}
		return n
	}
	// ends reports whether the form ends here (no URL character follows).
	ends := func() bool {
		r, _ := s.peekRune(s.off)
		return !isURLPart(r) || r == '+'
	}
	if s.off < len(s.src) {
		switch s.src[s.off] {
		case '/':
			s.off++
			if digits() > 0 && s.off < len(s.src) && s.src[s.off] == '/' {
				s.off++
				if digits() > 0 && ends() {
					return DATE, true
				}
			}
		case ':':
			s.off++
			if digits() > 0 && ends() {
				return CLOCK, true
			}
		case '.':
			s.off++
			if digits() > 0 && ends() {
				return FLOAT, true
			}
		}
	}
	s.off = save
	return 0, false
}

// scanString scans a double-quoted string with Go escapes and returns its
// source text; errors are reported and the text up to the problem returned.
func (s *Scanner) scanString(pos Pos) string {
	start := s.off
	s.off++ // opening quote
	badUTF8 := false
	for {
		if s.off >= len(s.src) || isLineEnd(s.src[s.off]) {
			lit := string(s.src[start:s.off])
			s.unterminated(pos, start, string(closeQuote), `found the typographic quote ” at %s, but a literal opened with " ends with " (or write it in “ and ”)`)
			return lit
		}
		c := s.src[s.off]
		if c >= utf8.RuneSelf {
			// strconv.Unquote would read a byte that is not UTF-8 as
			// U+FFFD: a phrase from a Latin-1 file ("caf\xe9") would
			// match no page, silently.
			r, w := utf8.DecodeRune(s.src[s.off:])
			if r == utf8.RuneError && w == 1 && !badUTF8 {
				badUTF8 = true
				s.error(s.pos(s.off), "string is not valid UTF-8 (save the file as UTF-8)", string(s.src[s.off:s.off+1]))
			}
			s.off += w
			continue
		}
		s.off++
		if c == '"' {
			break
		}
		if c == '\\' && s.off < len(s.src) && !isLineEnd(s.src[s.off]) {
			_, w := s.peekRune(s.off) // the escaped character, whole
			s.off += w
		}
	}
	lit := string(s.src[start:s.off])
	if badUTF8 {
		return lit // reported at the byte
	}
	if v, err := strconv.Unquote(lit); err != nil {
		if off, esc, msg := badEscape(lit); msg != "" {
			s.error(s.pos(start+off), msg, esc)
		} else {
			s.error(pos, "invalid escape sequence in string", lit)
		}
	} else if !utf8.ValidString(v) {
		s.error(pos, "string is not valid UTF-8", lit)
	}
	return lit
}

// badEscape finds the first escape of a double-quoted literal that Go's
// strings do not have and returns its offset in lit, its text and what to
// say of it; "" if there is none. A regular expression written in a string
// ("\.html$", "\d+") is the usual cause: the message says to double the
// backslash.
func badEscape(lit string) (int, string, string) {
	for i := 1; i < len(lit)-1; i++ {
		if lit[i] != '\\' {
			continue
		}
		rest := lit[i:]
		if _, _, tail, err := strconv.UnquoteChar(rest, '"'); err == nil {
			i += len(rest) - len(tail) - 1
			continue
		}
		letter, w := utf8.DecodeRuneInString(rest[1:])
		digits, what := 0, ""
		switch {
		case letter == 'x':
			digits, what = 2, `\x takes 2 hexadecimal digits`
		case letter == 'u':
			digits, what = 4, `\u takes 4 hexadecimal digits`
		case letter == 'U':
			digits, what = 8, `\U takes 8 hexadecimal digits`
		case letter >= '0' && letter <= '7':
			digits, what = 2, `an octal escape takes 3 digits, \000 to \377`
		}
		if what == "" {
			esc := rest[:1+w]
			if letter == '\'' {
				return i, esc, "invalid escape " + esc + " in string: write ' without a backslash"
			}
			return i, esc, "invalid escape " + esc + " in string: write \\" + esc + ` for a backslash (strings take Go's escapes: \" \\ \n \t \u00e9)`
		}
		end := 2
		for end < len(rest) && end < 2+digits && rest[end] != '"' {
			end++
		}
		esc := rest[:end]
		if end == 2+digits && isHexDigits(esc[2:]) && letter != 'x' && (letter < '0' || letter > '7') {
			what = "not a Unicode character" // a surrogate, or beyond U+10FFFF
		}
		return i, esc, "invalid escape " + esc + " in string: " + what
	}
	return 0, "", ""
}

// isHexDigits reports whether s is hexadecimal digits.
func isHexDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// unterminated reports the string literal at pos, from offset start to
// the end of the line, as not terminated. Where the line holds the other
// kind of closing quote (closer) after the opening one, the last was
// surely meant to end it: the message says so with hint, whose %s is
// where it is. Where the literal holds a Create Sentinel, it has read
// that sentinel as its text: the message says so too, and where it is,
// lest the user look in vain for why the sentinel is not seen.
func (s *Scanner) unterminated(pos Pos, start int, closer, hint string) {
	lit := string(s.src[start:s.off])
	msg := "string literal not terminated"
	_, w := utf8.DecodeRuneInString(lit)
	sep := ": "
	if i := strings.LastIndex(lit[w:], closer); i >= 0 {
		at := s.pos(start + w + i)
		msg += sep + fmt.Sprintf(hint, fmt.Sprintf("%d:%d", at.Line, at.Column))
		sep = "; "
	}
	if i, name, ok := swallowedCreate(lit[w:]); ok {
		at := s.pos(start + w + i)
		what := "Create Sentinel"
		if name != "" {
			what += " " + short(name)
		}
		msg += sep + fmt.Sprintf("it runs to the end of the line and holds the %s at %d:%d, which is not read as a sentinel: close the string before it", what, at.Line, at.Column)
	}
	s.error(pos, msg, lit)
}

// swallowedCreate finds in text, the text of a string literal left open
// after its opening quote, the words Create Sentinel (in any case, apart
// from the words around them), and returns the offset of the Create and
// the name after Sentinel, "" if none follows it.
func swallowedCreate(text string) (off int, name string, ok bool) {
	isWordChar := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' }
	spaces := func(i int) int {
		for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
			i++
		}
		return i
	}
	for i := 0; i+len("create") <= len(text); i++ {
		if r, _ := utf8.DecodeLastRuneInString(text[:i]); i > 0 && isWordChar(r) || !strings.EqualFold(text[i:i+len("create")], "create") {
			continue
		}
		j := spaces(i + len("create"))
		if j == i+len("create") || j+len("sentinel") > len(text) || !strings.EqualFold(text[j:j+len("sentinel")], "sentinel") {
			continue
		}
		j += len("sentinel")
		if r, _ := utf8.DecodeRuneInString(text[j:]); j < len(text) && isWordChar(r) {
			continue // "create sentinels"
		}
		k := spaces(j)
		if k == j {
			return i, "", true
		}
		end := k
		for end < len(text) {
			r, w := utf8.DecodeRuneInString(text[end:])
			if !isWordChar(r) {
				break
			}
			end += w
		}
		return i, text[k:end], true
	}
	return 0, "", false
}

// scanTypographic scans a string in typographic quotes (the seed writes
// phrase (“Optical Network”)); there are no escapes. Its first byte that
// is not UTF-8 is reported, as scanString reports it: one error a byte,
// each with the text up to it, took the square of a long line's length.
func (s *Scanner) scanTypographic(pos Pos, w int) string {
	start := s.off
	s.off += w
	badUTF8 := false
	for {
		r, w := s.peekRune(s.off)
		if w == 0 || r == '\n' || r == '\r' {
			lit := string(s.src[start:s.off])
			s.unterminated(pos, start, `"`, `found " at %s, but a literal opened with “ ends with ” (or write it in " and ")`)
			return lit
		}
		if r == utf8.RuneError && w == 1 && !badUTF8 {
			badUTF8 = true
			s.error(pos, "string is not valid UTF-8", string(s.src[start:s.off+1]))
		}
		s.off += w
		if r == closeQuote {
			return string(s.src[start:s.off])
		}
	}
}

// srcOffset returns the byte offset in lit, a STRING literal as the scanner
// returned it, of the character that begins the n-th rune (counted from 0)
// of its value: past the opening quote, whatever its width, and past the
// escapes that wrote the runes before it. An n beyond the value gives the
// offset of the closing quote. ok is false if lit is not a well-formed
// literal.
func srcOffset(lit string, n int) (off int, ok bool) {
	if r, w := utf8.DecodeRuneInString(lit); r == openQuote {
		// no escapes: a rune of the value is a rune of the source
		end := len(lit)
		if rc, wc := utf8.DecodeLastRuneInString(lit[w:]); rc == closeQuote {
			end -= wc
		}
		off = w
		for ; n > 0 && off < end; n-- {
			_, w := utf8.DecodeRuneInString(lit[off:])
			off += w
		}
		return min(off, end), true
	}
	if len(lit) < 2 || lit[0] != '"' {
		return 0, false
	}
	// The rune begins at byte d of the value; decode one escape or
	// character at a time until the value written so far reaches it (\x
	// and octal escapes write single bytes, which make runes together).
	v, err := strconv.Unquote(lit)
	if err != nil {
		return 0, false
	}
	d := 0
	for ; n > 0 && d < len(v); n-- {
		_, w := utf8.DecodeRuneInString(v[d:])
		d += w
	}
	tail := lit[1:]
	for written := 0; written < d; {
		r, multibyte, rest, err := strconv.UnquoteChar(tail, '"')
		if err != nil {
			return 0, false
		}
		switch {
		case tail[0] != '\\':
			written += len(tail) - len(rest) // copied as written
		case multibyte:
			written += utf8.RuneLen(r)
		default:
			written++ // \x, octal or a one-byte escape
		}
		tail = rest
	}
	return len(lit) - len(tail), true
}

// unquote returns the value of a STRING literal as the scanner returned it.
func unquote(lit string) string {
	if r, w := utf8.DecodeRuneInString(lit); r == openQuote {
		v := lit[w:]
		if r2, w2 := utf8.DecodeLastRuneInString(v); r2 == closeQuote {
			v = v[:len(v)-w2]
		}
		return v
	}
	if v, err := strconv.Unquote(lit); err == nil {
		return v
	}
	// unterminated or bad escape (already reported): best effort
	if len(lit) > 0 && lit[0] == '"' {
		lit = lit[1:]
	}
	if len(lit) > 0 && lit[len(lit)-1] == '"' {
		lit = lit[:len(lit)-1]
	}
	return lit
}
