package spec

import (
	"strconv"
	"strings"
)

// Token is the lexical class of a token of the sentinel language.
type Token int

// The tokens of the sentinel language. Only the words that start a clause or
// join change types are reserved (they have a token of their own); every
// other word of the grammar ("change", "links", "pairwise", "render", ...) is
// scanned as IDENT and recognised by the parser where the grammar expects it,
// so those words remain usable as sentinel names.
const (
	ILLEGAL Token = iota // an illegal character or malformed literal
	EOF                  // end of input
	COMMENT              // # to the end of the line

	IDENT  // s1, keywords, best
	INT    // 42
	FLOAT  // 99.95
	DATE   // 12/02/2002
	CLOCK  // 09:30
	WORD   // www.uta.edu/class, jill@aol.com, https://example.com/x?y=1
	STRING // "quoted \"text\"" or “typographic quotes”

	LPAREN // (
	RPAREN // )
	LBRACE // {
	RBRACE // }
	COMMA  // ,
	PLUS   // +
	COLON  // :

	keywordBeg
	CREATE   // Create
	SENTINEL // Sentinel
	USING    // Using
	MONITOR  // Monitor
	FETCH    // Fetch
	CONFIRM  // Confirm
	FROM     // From
	TO       // To
	NOTIFY   // Notify
	EVERY    // Every
	COMPARE  // Compare
	AND      // AND
	OR       // OR
	NOT      // NOT
	IN       // In
	IGNORE   // Ignore
	keywordEnd
)

var tokenNames = [...]string{
	ILLEGAL: "ILLEGAL",
	EOF:     "end of file",
	COMMENT: "comment",
	IDENT:   "identifier",
	INT:     "integer",
	FLOAT:   "number",
	DATE:    "date",
	CLOCK:   "time of day",
	WORD:    "URL or address",
	STRING:  "string",
	LPAREN:  "(",
	RPAREN:  ")",
	LBRACE:  "{",
	RBRACE:  "}",
	COMMA:   ",",
	PLUS:    "+",
	COLON:   ":",

	CREATE:   "Create",
	SENTINEL: "Sentinel",
	USING:    "Using",
	MONITOR:  "Monitor",
	FETCH:    "Fetch",
	CONFIRM:  "Confirm",
	FROM:     "From",
	TO:       "To",
	NOTIFY:   "Notify",
	EVERY:    "Every",
	COMPARE:  "Compare",
	AND:      "AND",
	OR:       "OR",
	NOT:      "NOT",
	IN:       "In",
	IGNORE:   "Ignore",
}

// String returns the canonical spelling of a keyword or operator token and a
// description of any other token ("identifier", "end of file").
func (t Token) String() string {
	if t >= 0 && int(t) < len(tokenNames) && tokenNames[t] != "" {
		return tokenNames[t]
	}
	return "token(" + strconv.Itoa(int(t)) + ")"
}

// IsKeyword reports whether t is a reserved word.
func (t Token) IsKeyword() bool { return keywordBeg < t && t < keywordEnd }

// IsLiteral reports whether t carries a literal value (identifier, number,
// date, URL, string).
func (t Token) IsLiteral() bool { return t >= IDENT && t <= STRING }

// clauseStart reports whether t begins a clause of a sentinel (or a new
// sentinel); the parser resynchronises on these after an error.
func (t Token) clauseStart() bool {
	switch t {
	case CREATE, MONITOR, FETCH, CONFIRM, FROM, TO, NOTIFY, EVERY, COMPARE:
		return true
	}
	return false
}

var keywords map[string]Token

func init() {
	keywords = make(map[string]Token, keywordEnd-keywordBeg)
	for t := keywordBeg + 1; t < keywordEnd; t++ {
		keywords[strings.ToLower(tokenNames[t])] = t
	}
}

// Lookup returns the keyword token for a reserved word, matched without
// regard to case, and IDENT for any other word.
func Lookup(word string) Token {
	if len(word) > 8 { // the longest reserved word is "sentinel"
		return IDENT
	}
	var buf [8]byte
	for i := 0; i < len(word); i++ {
		c := word[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		} else if c >= 0x80 {
			return IDENT // reserved words are ASCII
		}
		buf[i] = c
	}
	if t, ok := keywords[string(buf[:len(word)])]; ok { // no allocation
		return t
	}
	return IDENT
}
