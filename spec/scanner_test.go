package spec

import (
	"errors"
	"fmt"
	"testing"
)

type scanned struct {
	tok Token
	lit string
}

func scanAll(src string) ([]scanned, []string) {
	var errs []string
	var sc Scanner
	sc.Init([]byte(src), func(pos Pos, msg, found string) {
		errs = append(errs, fmt.Sprintf("%d:%d: %s", pos.Line, pos.Column, msg))
	})
	var out []scanned
	for {
		_, tok, lit := sc.Scan()
		if tok == EOF {
			return out, errs
		}
		out = append(out, scanned{tok, lit})
	}
}

func TestScanner(t *testing.T) {
	tests := map[string]struct {
		src  string
		want []scanned
		errs int
	}{
		"keywords any case":  {"create SENTINEL Using monitor", []scanned{{CREATE, "create"}, {SENTINEL, "SENTINEL"}, {USING, "Using"}, {MONITOR, "monitor"}}, 0},
		"contextual words":   {"all links best effort", []scanned{{IDENT, "all"}, {IDENT, "links"}, {IDENT, "best"}, {IDENT, "effort"}}, 0},
		"names with dashes":  {"s-1 _x s2", []scanned{{IDENT, "s-1"}, {IDENT, "_x"}, {IDENT, "s2"}}, 0},
		"url with scheme":    {"http://www.uta.edu/class/schedule", []scanned{{WORD, "http://www.uta.edu/class/schedule"}}, 0},
		"url without scheme": {"www2.uta.edu/sharma/x.htm", []scanned{{WORD, "www2.uta.edu/sharma/x.htm"}}, 0},
		"url with fragment":  {"https://a.example/p?q=1&r=2#top # c", []scanned{{WORD, "https://a.example/p?q=1&r=2#top"}, {COMMENT, "# c"}}, 0},
		"url stops at comma": {"slack://a/b, ntfy://c", []scanned{{WORD, "slack://a/b"}, {COMMA, ","}, {WORD, "ntfy://c"}}, 0},
		"email":              {"jill@aol.com", []scanned{{WORD, "jill@aol.com"}}, 0},
		"ip address":         {"127.0.0.1/x", []scanned{{WORD, "127.0.0.1/x"}}, 0},
		"date and clock":     {"12/02/2002 09:30", []scanned{{DATE, "12/02/2002"}, {CLOCK, "09:30"}}, 0},
		"short date":         {"12/02/02", []scanned{{DATE, "12/02/02"}}, 0},
		"numbers":            {"5331 99.5 -3 -2.5", []scanned{{INT, "5331"}, {FLOAT, "99.5"}, {INT, "-3"}, {FLOAT, "-2.5"}}, 0},
		"number word":        {"5331-x", []scanned{{WORD, "5331-x"}}, 0},
		"punctuation":        {"(){},+:", []scanned{{LPAREN, "("}, {RPAREN, ")"}, {LBRACE, "{"}, {RBRACE, "}"}, {COMMA, ","}, {PLUS, "+"}, {COLON, ":"}}, 0},
		"offset":             {"Now+2 day", []scanned{{IDENT, "Now"}, {PLUS, "+"}, {INT, "2"}, {IDENT, "day"}}, 0},
		"event":              {"start(s1)+1 hour", []scanned{{IDENT, "start"}, {LPAREN, "("}, {IDENT, "s1"}, {RPAREN, ")"}, {PLUS, "+"}, {INT, "1"}, {IDENT, "hour"}}, 0},
		"list with colon":    {"keywords:{a}", []scanned{{IDENT, "keywords"}, {COLON, ":"}, {LBRACE, "{"}, {IDENT, "a"}, {RBRACE, "}"}}, 0},
		"string escapes":     {`"a \"b\" \u00e9\n"`, []scanned{{STRING, `"a \"b\" \u00e9\n"`}}, 0},
		"typographic":        {"(“Optical Network”)", []scanned{{LPAREN, "("}, {STRING, "“Optical Network”"}, {RPAREN, ")"}}, 0},
		"comment":            {"# all of it\nCreate", []scanned{{COMMENT, "# all of it"}, {CREATE, "Create"}}, 0},
		"crlf comment":       {"# x\r\nTo", []scanned{{COMMENT, "# x"}, {TO, "To"}}, 0},
		"cr comment":         {"# x\rTo", []scanned{{COMMENT, "# x"}, {TO, "To"}}, 0},
		"cr in string":       {"\"ab\rTo", []scanned{{STRING, "\"ab"}, {TO, "To"}}, 1},
		"unicode name":       {"überwachung", []scanned{{IDENT, "überwachung"}}, 0},
		// Decomposed text (as macOS and some copies give it): a combining
		// mark continues its word; it was an illegal character.
		"combining mark":   {"{cafe\u0301, na\u0303o}", []scanned{{LBRACE, "{"}, {IDENT, "cafe\u0301"}, {COMMA, ","}, {IDENT, "na\u0303o"}, {RBRACE, "}"}}, 0},
		"mark at a start":  {"\u0301x", []scanned{{ILLEGAL, "\u0301"}, {IDENT, "x"}}, 1},
		"unterminated":     {`"abc`, []scanned{{STRING, `"abc`}}, 1},
		"bad escape":       {`"a\qb"`, []scanned{{STRING, `"a\qb"`}}, 1},
		"illegal":          {"~", []scanned{{ILLEGAL, "~"}}, 1},
		"escaped bad utf8": {`"\xff"`, []scanned{{STRING, `"\xff"`}}, 1},
		"raw bad utf8":     {"“a\x9b”", []scanned{{STRING, "“a\x9b”"}}, 1},
		"quoted bad utf8":  {"\"caf\xe9 au lait\"", []scanned{{STRING, "\"caf\xe9 au lait\""}}, 1},
		"quoted bad utf8s": {"\"\xff\xfe\" x", []scanned{{STRING, "\"\xff\xfe\""}, {IDENT, "x"}}, 1},
		"escaped unicode":  {`"\é" x`, []scanned{{STRING, `"\é"`}, {IDENT, "x"}}, 1},
		"invalid utf8":     {"\xff", []scanned{{ILLEGAL, "\xff"}}, 1},
		"byte order mark":  {"\uFEFFCreate", []scanned{{CREATE, "Create"}}, 0},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			got, errs := scanAll(tt.src)
			if fmt.Sprint(got) != fmt.Sprint(tt.want) {
				t.Errorf("Scan(%q)\n got %v\nwant %v", tt.src, got, tt.want)
			}
			if len(errs) != tt.errs {
				t.Errorf("Scan(%q): %d errors %v, want %d", tt.src, len(errs), errs, tt.errs)
			}
		})
	}
}

func TestScannerPositions(t *testing.T) {
	src := "Create Sentinel s1\n  Using http://a.example # c\nMonitor"
	want := []Pos{{0, 1, 1}, {7, 1, 8}, {16, 1, 17}, {21, 2, 3}, {27, 2, 9}, {44, 2, 26}, {48, 3, 1}}
	var sc Scanner
	sc.Init([]byte(src), nil)
	for i, w := range want {
		pos, tok, lit := sc.Scan()
		if pos != w {
			t.Errorf("token %d (%v %q): pos %+v, want %+v", i, tok, lit, pos, w)
		}
		if src[pos.Offset:pos.Offset+len(lit)] != lit {
			t.Errorf("token %d: offset %d does not start %q", i, pos.Offset, lit)
		}
	}
}

// A byte that is not UTF-8 inside a double-quoted string is reported
// where it is, with what to do; strconv.Unquote alone turned it into
// U+FFFD without a word.
func TestScannerBadUTF8InString(t *testing.T) {
	tests := map[string]struct {
		src  string
		want string
	}{
		"latin-1 e acute": {"phrase {\"caf\xe9 au lait\"}", "1:13: string is not valid UTF-8 (save the file as UTF-8)"},
		"after unicode":   {"x \"é\xff\xfe\"", "1:5: string is not valid UTF-8 (save the file as UTF-8)"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			_, errs := scanAll(tt.src)
			if len(errs) != 1 || errs[0] != tt.want {
				t.Errorf("Scan(%q): errors %q, want [%q]", tt.src, errs, tt.want)
			}
		})
	}
}

// TestScannerCRLines: a carriage return alone ends a line, as in files
// saved with classic Mac line endings; it was white space, so that such a
// file was one line, and a comment on its first line hid the rest: vigil
// sentinel check found nothing in it, and said nothing.
// TestScannerBadEscape: an escape that Go strings do not have is reported
// where it is, with the backslash doubled as the way out: a regular
// expression (match "\.html$", {"\d+"}) is the usual cause, and "invalid
// escape sequence in string" at the opening quote did not say which.
func TestScannerBadEscape(t *testing.T) {
	const goEscapes = ` (strings take Go's escapes: \" \\ \n \t \u00e9)`
	for src, want := range map[string]string{
		`match "\.html$"`: `1:8: invalid escape \. in string: write \\. for a backslash` + goEscapes,
		`{"a\tb\d+ \w"}`:  `1:7: invalid escape \d in string: write \\d for a backslash` + goEscapes,
		`"\é"`:            `1:2: invalid escape \é in string: write \\é for a backslash` + goEscapes,
		`"\'"`:            `1:2: invalid escape \' in string: write ' without a backslash`,
		`"\u00zz"`:        `1:2: invalid escape \u00zz in string: \u takes 4 hexadecimal digits`,
		`"\x4"`:           `1:2: invalid escape \x4 in string: \x takes 2 hexadecimal digits`,
		`"\U1F600"`:       `1:2: invalid escape \U1F600 in string: \U takes 8 hexadecimal digits`,
		`"\400"`:          `1:2: invalid escape \400 in string: an octal escape takes 3 digits, \000 to \377`,
		`"\uD800"`:        `1:2: invalid escape \uD800 in string: not a Unicode character`,
	} {
		_, errs := scanAll(src)
		if len(errs) != 1 || errs[0] != want {
			t.Errorf("Scan(%s): errors %q, want [%q]", src, errs, want)
		}
	}
}

// TestScannerStringErrorFound: an error inside a string names, as the text
// found, what is at its position (the bad escape, the byte that is not
// UTF-8), so that the dashboard's editor underlines that and no more.
func TestScannerStringErrorFound(t *testing.T) {
	for src, want := range map[string]string{
		"Create Sentinel x Using site a.example/ match \"a\\.html$\"":    `\.`,
		"Create Sentinel x Using a.example Monitor phrase {\"caf\xe9\"}": "\xe9",
	} {
		_, err := Parse("f", []byte(src))
		var el ErrorList
		if !errors.As(err, &el) || len(el) != 1 || el[0].Found != want || src[el[0].Pos.Offset:el[0].Pos.Offset+len(want)] != want {
			t.Errorf("Parse(%q): %v, want one error with found %q at its offset", src, err, want)
		}
	}
}

func TestScannerCRLines(t *testing.T) {
	src := "# header\rCreate Sentinel s1\r\n  Using a.example\r\rMonitor"
	want := []Pos{{0, 1, 1}, {9, 2, 1}, {16, 2, 8}, {25, 2, 17}, {31, 3, 3}, {37, 3, 9}, {48, 5, 1}}
	var sc Scanner
	sc.Init([]byte(src), nil)
	for i, w := range want {
		pos, tok, lit := sc.Scan()
		if pos != w {
			t.Errorf("token %d (%v %q): pos %+v, want %+v", i, tok, lit, pos, w)
		}
	}
	_, err := Parse("cr.ssl", []byte("Create Sentinel x Using a.example\r  Monitor frob\r"))
	if err == nil || err.Error() != "cr.ssl:2:11: unknown change type \"frob\": expected change type (any change, all links, all images, all words, keywords, phrase, table, list, regular expression, value)" {
		t.Errorf("Parse: %v", err)
	}
	if f, _ := Parse("cr.ssl", []byte("# header\rCreate Sentinel x Using a.example\r")); len(f.Sentinels) != 1 {
		t.Errorf("after a comment and a carriage return: %d sentinels, want 1", len(f.Sentinels))
	}
}

func TestUnquote(t *testing.T) {
	for lit, want := range map[string]string{
		`"a \"b\""`:  `a "b"`,
		"“x y”":      "x y",
		`"\u00e9\t"`: "é\t",
	} {
		if got := unquote(lit); got != want {
			t.Errorf("unquote(%q) = %q, want %q", lit, got, want)
		}
	}
}
