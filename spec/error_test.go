package spec

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// The files in testdata/*.ssl are sentinel files whose expected problems are
// written next to the offending token, in a comment on the same line, as
// go/parser's error_test.go does:
//
//	From 01/01/2003 To 12/31/2003 # ERROR "From 01/01/2003 has passed"
//	Monitor all words OR any change # WARNING "is the same as any change"
//
// The text in quotes is a regular expression that must match the message of
// exactly one error (or warning) reported on that line; any other error is a
// failure. A file with syntax errors is only parsed; a file without is also
// checked. Lines starting with "#!" set up the checker:
//
//	#! now 06/01/2003 12:00       the creation time of the sentinels (default 06/01/2003 12:00)
//	#! created s1 04/01/2003 12:00 the creation time of one sentinel
//	#! started s1 05/31/2003 12:00 s1 has started (its status)
//	#! ended s1 05/31/2003 12:00   s1 has ended
//	#! owner jill@aol.com         the owner's email address

var expectRx = regexp.MustCompile(`(ERROR|WARNING) "((?:[^"\\]|\\.)*)"`)

type expectation struct {
	line    int
	warning bool
	rx      *regexp.Regexp
	src     string
}

func parseTestTime(t *testing.T, s string) time.Time {
	t.Helper()
	tm, err := time.Parse("01/02/2006 15:04", s)
	if err != nil {
		t.Fatalf("bad directive time %q: %v", s, err)
	}
	return tm
}

func TestErrors(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.ssl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) { checkErrorFile(t, file) })
	}
}

func checkErrorFile(t *testing.T, file string) {
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2003, 6, 1, 12, 0, 0, 0, time.UTC)
	created := map[string]time.Time{}
	started := map[string]time.Time{}
	ended := map[string]time.Time{}
	owner := ""
	var want []*expectation
	for i, line := range strings.Split(string(src), "\n") {
		if d, ok := strings.CutPrefix(line, "#! "); ok {
			f := strings.Fields(d)
			switch {
			case f[0] == "now" && len(f) == 3:
				now = parseTestTime(t, f[1]+" "+f[2])
			case (f[0] == "created" || f[0] == "started" || f[0] == "ended") && len(f) == 4:
				m := map[string]map[string]time.Time{"created": created, "started": started, "ended": ended}[f[0]]
				m[f[1]] = parseTestTime(t, f[2]+" "+f[3])
			case f[0] == "owner" && len(f) == 2:
				owner = f[1]
			default:
				t.Fatalf("%s:%d: bad directive %q", file, i+1, line)
			}
			continue
		}
		for _, m := range expectRx.FindAllStringSubmatch(line, -1) {
			rx, err := regexp.Compile(strings.ReplaceAll(m[2], `\"`, `"`))
			if err != nil {
				t.Fatalf("%s:%d: bad regexp: %v", file, i+1, err)
			}
			want = append(want, &expectation{line: i + 1, warning: m[1] == "WARNING", rx: rx, src: m[2]})
		}
	}

	f, err := parse(file, src, -1) // every error, not the first MaxErrors
	var got ErrorList
	var warnings ErrorList
	if err != nil {
		got = err.(ErrorList)
	} else {
		c := &Checker{Owner: owner}
		for _, s := range f.Sentinels {
			c.Now = now
			if tm, ok := created[s.Name.Name]; ok {
				c.Now = tm
			}
			ch, el := c.check(file, s)
			got = append(got, el...)
			if len(el) == 0 {
				warnings = append(warnings, ch.Warnings...)
				c.Add(&Stored{Checked: ch, Started: started[s.Name.Name], Ended: ended[s.Name.Name]})
			}
		}
	}
	match := func(list ErrorList, warning bool) {
		for _, e := range list {
			found := false
			for i, w := range want {
				if w != nil && w.warning == warning && w.line == e.Pos.Line && w.rx.MatchString(e.Msg) {
					want[i] = nil
					found = true
					break
				}
			}
			if !found {
				kind := "error"
				if warning {
					kind = "warning"
				}
				t.Errorf("unexpected %s: %s", kind, e)
			}
			if e.Pos.Filename != file || !e.Pos.IsValid() {
				t.Errorf("error without a valid position: %#v", e.Pos)
			}
		}
	}
	match(got, false)
	match(warnings, true)
	for _, w := range want {
		if w != nil {
			kind := "ERROR"
			if w.warning {
				kind = "WARNING"
			}
			t.Errorf("%s:%d: missing %s %q", file, w.line, kind, w.src)
		}
	}
}

// TestTooManyErrors: past MaxErrors errors the list ends with "too many
// errors", at the position of the first error left out, for the parser as
// for the checker; a binary source gets one error at its first NUL byte.
// A 3 MB binary file gave 11,672 errors, one a line.
func TestTooManyErrors(t *testing.T) {
	now := time.Date(2003, 6, 1, 12, 0, 0, 0, time.UTC)
	badLines := func(n int) string { return "Create Sentinel a Using http://a.example\n" + strings.Repeat("$ $ $\n", n) }
	badSentinels := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "Create Sentinel s%d Using http://a.example\n\tCompare every 1\n", i)
		}
		return b.String()
	}
	for _, tc := range []struct {
		name  string
		src   string
		check bool   // check the file (it parses)
		want  int    // errors in the list
		last  string // the last error, as file:line:col: message
	}{
		{"parse: MaxErrors lines", badLines(MaxErrors), false, MaxErrors, "f.ssl:11:1: illegal character '$'"},
		{"parse: one line more", badLines(MaxErrors + 1), false, MaxErrors + 1, "f.ssl:12:1: too many errors"},
		{"parse: 100,000 lines", badLines(100000), false, MaxErrors + 1, "f.ssl:12:1: too many errors"},
		{"check: MaxErrors sentinels", badSentinels(MaxErrors), true, MaxErrors, "f.ssl:20:16: Compare every 1: n must be at least 2 (n = 1 is pairwise)"},
		{"check: 50 sentinels", badSentinels(50), true, MaxErrors + 1, "f.ssl:22:16: too many errors"},
		{"binary", "Create Sentinel a\r\nUsing \x01\x00\x00 \xff\n$$$\n", false, 1, "f.ssl:2:8: not text: byte 0x00 (a sentinel file is UTF-8 text)"},
		{"binary at the start", "\x00" + strings.Repeat("\xfe$\n", 1000), false, 1, "f.ssl:1:1: not text: byte 0x00 (a sentinel file is UTF-8 text)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse("f.ssl", []byte(tc.src))
			if tc.check {
				if err != nil {
					t.Fatalf("parse: %v", err)
				}
				_, err = NewChecker(now).CheckFile(f)
			}
			list, ok := err.(ErrorList)
			if !ok || len(list) != tc.want {
				t.Fatalf("%d errors, want %d:\n%s", len(list), tc.want, list)
			}
			if got := list[len(list)-1].Error(); got != tc.last {
				t.Errorf("last error %q, want %q", got, tc.last)
			}
			// The list's own message counts the errors it holds, or
			// says there are more when it was cut.
			others := fmt.Sprintf("(and %d more errors)", len(list)-1)
			if len(list) == 2 {
				others = "(and 1 more error)"
			}
			if strings.HasSuffix(tc.last, TooManyErrors) {
				others = fmt.Sprintf("(and more than %d other errors)", len(list)-2)
			}
			if len(list) > 1 && !strings.HasSuffix(list.Error(), others) {
				t.Errorf("list's message %q, want it to end %q", list.Error(), others)
			}
		})
	}
	// Check, for one sentinel, is cut as CheckFile is.
	src := "Create Sentinel a Using http://a.example Monitor keywords {" + strings.Repeat("x, ", 30) + "x}"
	s, err := ParseSentinel("", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewChecker(now).Check(s)
	if list, ok := err.(ErrorList); !ok || len(list) != MaxErrors+1 || list[MaxErrors].Msg != "too many errors" {
		t.Errorf("Check: %d errors, want %d ending with too many errors:\n%v", len(list), MaxErrors+1, err)
	}
}

// TestLongTokensQuotedShort: a message quotes at most maxQuoted characters
// of the user's text, then "..."; a sentinel named with a megabyte gave a
// message of a megabyte.
func TestLongTokensQuotedShort(t *testing.T) {
	long := strings.Repeat("a", 1<<20)
	digits := strings.Repeat("9", 1<<16)
	head := "Create Sentinel s Using http://a.example\n"
	now := time.Date(2003, 6, 1, 12, 0, 0, 0, time.UTC)
	for name, src := range map[string]string{
		"sentinel name":         "Create Sentinel " + long + " Using http://a.example\n",
		"found after Create":    "Create " + long,
		"found string":          "Create Sentinel s Using http://a.example Monitor \"" + long + "\"",
		"unknown change type":   head + "Monitor " + long,
		"keyword of two words":  head + "Monitor keywords {" + long + " b}",
		"keywords duplicate":    head + "Monitor keywords {" + long + ", " + long + "}",
		"several words":         head + "Monitor keywords {\"" + long + " b\"}",
		"punctuation":           head + "Monitor phrase {\"" + strings.Repeat("!", 1<<16) + "\"}",
		"selector unbalanced":   head + "Monitor value In css \"(" + long + "\" changes",
		"selector like xpath":   head + "Monitor value In css \"/" + long + "\" changes",
		"selector unquoted":     head + "Monitor value In css ." + long + " changes",
		"selector comment":      head + "Monitor value In css #" + long + " changes",
		"regular expression":    head + "Monitor regular expression {\"(" + long[:1000] + "\"}",
		"site match":            "Create Sentinel s Using site http://a.example match \"(" + long[:900] + "\"",
		"url":                   "Create Sentinel s Using \"http://a.example:99999/" + long + "\"",
		"url scheme":            "Create Sentinel s Using \"ftp://" + long + "\"",
		"url no host":           "Create Sentinel s Using \"http:///" + long + "\"",
		"operands":              "Create Sentinel s Using http://a.example/" + long + " OR http://a.example/" + long,
		"subsumed":              head + "Monitor keywords {" + long + "} AND NOT any change",
		"same as":               head + "Monitor keywords {" + long + "} OR any change",
		"email":                 head + "Notify By email \"" + long + "\"",
		"webhook":               head + "Notify By webhook \"" + long + "\"",
		"number out of range":   head + "Fetch " + digits + " hour",
		"unit":                  head + "Fetch 1 " + long,
		"date":                  head + "From " + digits + "/1/2003",
		"time of day":           head + "From 1/1/2030 " + digits + ":00",
		"compare n":             head + "Compare every " + digits,
		"threshold":             head + "Monitor value In css \"p\" rises above $" + digits,
		"unknown sentinel":      "Create Sentinel s Using " + long,
		"unknown event":         head + "From start(" + long + ")",
		"reserved":              "Create Sentinel s Using http://a.example Monitor " + long + "x",
		"distinct change types": head + "Monitor keywords {" + long + "} OR keywords {" + long + "}",
		"notify without by":     head + "Notify " + long + "@example.org",
		"webhook without by":    head + "Notify https://h.example/" + long,
		"chat without by":       head + "Notify slack://" + long,
		"condition as English":  head + "Monitor value In css \"p\" above " + digits,
		"name of several words": "Create Sentinel my " + long + " Using http://a.example",
		"name after a digit":    "Create Sentinel 1" + long + " Using http://a.example",
		"confirm without after": head + "Confirm " + digits + " minutes",
		"second target":         head[:len(head)-1] + " http://b.example/" + long,
		"second using":          head + "Using http://b.example/" + long,
		"swallowed sentinel":    head + "Monitor keywords {\"x Create Sentinel " + long,
	} {
		t.Run(name, func(t *testing.T) {
			f, err := Parse("f.ssl", []byte(src))
			var checked []*Checked
			if err == nil {
				checked, err = NewChecker(now).CheckFile(f)
			}
			list, _ := err.(ErrorList)
			for _, ch := range checked {
				if ch != nil {
					list = append(list, ch.Warnings...) // "X OR Y is the same as Y"
				}
			}
			if len(list) == 0 {
				t.Fatalf("no error or warning")
			}
			for _, e := range list {
				if len(e.Msg) > 250 {
					t.Errorf("message of %d bytes: %.200s", len(e.Msg), e.Msg)
				}
			}
		})
	}
	for name, doc := range map[string]string{
		"json change type": `{"name":"s","using":{"url":"http://a.example"},"monitor":{"kind":"` + long + `"}}`,
		"json date":        `{"name":"s","using":{"url":"http://a.example"},"from":{"date":"` + long + `"}}`,
		"json compare":     `{"name":"s","using":{"url":"http://a.example"},"compare":"` + long + `"}`,
		"json n":           `{"name":"s","using":{"url":"http://a.example"},"compare":"every ` + long + `"}`,
		"json condition":   `{"name":"s","using":{"url":"http://a.example"},"monitor":{"kind":"value","in":{"css":"p"},"condition":{"op":"` + long + `"}}}`,
		"json depth":       `{"name":"s","using":{"site":{"url":"http://a.example","depth":1` + digits + `.5}}}`,
		"json field":       `{"name":"s","using":{"url":"http://a.example"},"` + long + `":1}`,
		"json duration":    `{"name":"s","using":{"url":"http://a.example"},"confirm":"` + long + `"}`,
		"json name":        `{"name":"` + long + `","using":{"url":"http://a.example"}}`,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := DecodeSentinel([]byte(doc))
			var fe FieldErrors
			if !errorsAs(err, &fe) || len(fe) == 0 {
				t.Fatalf("error %v, want FieldErrors", err)
			}
			for _, e := range fe {
				if len(e.Error()) > 250 {
					t.Errorf("message of %d bytes: %.200s", len(e.Error()), e.Error())
				}
			}
		})
	}
}

func TestQuoteShort(t *testing.T) {
	for _, tc := range []struct{ in, short, quote string }{
		{"", "", `""`},
		{"abc", "abc", `"abc"`},
		{strings.Repeat("x", 40), strings.Repeat("x", 40), `"` + strings.Repeat("x", 40) + `"`},
		{strings.Repeat("x", 41), strings.Repeat("x", 40) + "...", `"` + strings.Repeat("x", 40) + `"...`},
		{strings.Repeat("é", 50), strings.Repeat("é", 40) + "...", `"` + strings.Repeat("é", 40) + `"...`},
		{strings.Repeat("\xff", 41), strings.Repeat("\xff", 40) + "...", `"` + strings.Repeat(`\xff`, 40) + `"...`},
	} {
		if got := short(tc.in); got != tc.short {
			t.Errorf("short(%.50q) = %q, want %q", tc.in, got, tc.short)
		}
		if got := quote(tc.in); got != tc.quote {
			t.Errorf("quote(%.50q) = %q, want %q", tc.in, got, tc.quote)
		}
	}
}

// TestShortQuotationOfCode: a message quoting printed code cut at
// maxQuoted characters does not end inside an escape of a quoted string,
// on a lone backslash (keywords {"aaa\...), and a regular expression cut
// short keeps its dots outside its backquotes, as quote keeps them
// outside the quotes: inside, they read as part of the expression.
func TestShortQuotationOfCode(t *testing.T) {
	now := time.Date(2003, 6, 1, 12, 0, 0, 0, time.UTC)
	a28 := strings.Repeat("a", 28)
	for name, tc := range map[string]struct {
		src, want string
	}{
		"escaped quote": {`Create Sentinel a Using http://a.example Monitor keywords {"` + a28 + `\"bbbb"} OR keywords {"` + a28 + `\"bbbb"}`,
			`keywords {"` + a28 + `... appears twice`},
		"escaped byte": {`Create Sentinel a Using http://a.example Monitor keywords {"` + a28[:26] + `\x01bbbb"} OR keywords {"` + a28[:26] + `\x01bbbb"}`,
			`keywords {"` + a28[:26] + `... appears twice`},
		"regexp": {`Create Sentinel a Using site http://a.example match "(` + strings.Repeat("x", 60) + `"`,
			"missing closing ): `(" + strings.Repeat("x", 39) + "`..."},
	} {
		t.Run(name, func(t *testing.T) {
			f, err := Parse("f.ssl", []byte(tc.src))
			if err == nil {
				_, err = NewChecker(now).CheckFile(f)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want it to hold %s", err, tc.want)
			}
		})
	}
}

// TestErrorListMessageCounts: a list's message counts the errors after
// the first in the singular when there is one: "(and 1 more error)", where
// it said "(and 1 more errors)".
func TestErrorListMessageCounts(t *testing.T) {
	e := func(line int) *Error { return &Error{Pos: Position{Line: line, Column: 1}, Msg: "bad"} }
	for _, tc := range []struct {
		list ErrorList
		want string
	}{
		{ErrorList{e(1)}, "1:1: bad"},
		{ErrorList{e(1), e(2)}, "1:1: bad (and 1 more error)"},
		{ErrorList{e(1), e(2), e(3)}, "1:1: bad (and 2 more errors)"},
	} {
		if got := tc.list.Error(); got != tc.want {
			t.Errorf("%d errors: %q, want %q", len(tc.list), got, tc.want)
		}
	}
}
