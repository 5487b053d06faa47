package spec

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// stripPos returns a deep copy of v with every Pos zeroed, so that trees can
// be compared "modulo positions". Comments are dropped.
func stripPos(v any) any {
	rv := reflect.ValueOf(v)
	out := stripValue(rv)
	return out.Interface()
}

var posType = reflect.TypeOf(Pos{})

func stripValue(v reflect.Value) reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		n := reflect.New(v.Elem().Type())
		n.Elem().Set(stripValue(v.Elem()))
		return n
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		n := reflect.New(v.Type()).Elem()
		n.Set(stripValue(v.Elem()))
		return n
	case reflect.Struct:
		if v.Type() == posType {
			return reflect.Zero(posType)
		}
		n := reflect.New(v.Type()).Elem()
		for i := 0; i < v.NumField(); i++ {
			if !n.Field(i).CanSet() {
				continue
			}
			if v.Type().Field(i).Name == "Comments" {
				continue
			}
			n.Field(i).Set(stripValue(v.Field(i)))
		}
		return n
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		n := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			n.Index(i).Set(stripValue(v.Index(i)))
		}
		return n
	}
	return v
}

func equalModuloPos(a, b any) bool { return reflect.DeepEqual(stripPos(a), stripPos(b)) }

func mustParse(t testing.TB, src string) *File {
	t.Helper()
	f, err := Parse("test.ssl", []byte(src))
	if err != nil {
		t.Fatalf("Parse(%q): %v", src, err)
	}
	return f
}

// paren prints an expression with every operation in parentheses.
func paren(x Expr) string {
	switch x := x.(type) {
	case *BinaryExpr:
		return "(" + paren(x.X) + " " + x.Op.String() + " " + paren(x.Y) + ")"
	case *NotExpr:
		return "(NOT " + paren(x.X) + ")"
	case *ChangeType:
		return Print(x)
	}
	return "?"
}

func TestPrecedence(t *testing.T) {
	tests := map[string]struct{ src, want string }{
		"and over or":          {"all links OR all images AND all words", "(all links OR (all images AND all words))"},
		"or left assoc":        {"all links OR all images OR all words", "((all links OR all images) OR all words)"},
		"and left assoc":       {"all links AND all images AND all words", "((all links AND all images) AND all words)"},
		"not over and":         {"NOT all links AND all images", "((NOT all links) AND all images)"},
		"not on second":        {`all words AND NOT phrase {"Lord of the Rings"}`, `(all words AND (NOT phrase {"Lord of the Rings"}))`},
		"parentheses":          {"(all links OR all images) AND all words", "((all links OR all images) AND all words)"},
		"right grouping":       {"all links OR (all images OR all words)", "(all links OR (all images OR all words))"},
		"not of group":         {"NOT (all links OR all images)", "(NOT (all links OR all images))"},
		"double not":           {"NOT NOT all links", "(NOT (NOT all links))"},
		"scope binds to leaf":  {`all links In css "#a" Ignore css ".ad" OR all images`, `(all links In css "#a" Ignore css ".ad" OR all images)`},
		"mixed four operands":  {"all links AND all images OR all words AND any change", "((all links AND all images) OR (all words AND any change))"},
		"case insensitive ops": {"all links and not all images or any change", "((all links AND (NOT all images)) OR any change)"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			f := mustParse(t, "Create Sentinel s Using http://a.example Monitor "+tt.src)
			x := f.Sentinels[0].Monitor.X
			if got := paren(x); got != tt.want {
				t.Errorf("parse %q\n got %s\nwant %s", tt.src, got, tt.want)
			}
			// The printer's minimal parentheses give back the same tree.
			printed := Print(x)
			g := mustParse(t, "Create Sentinel s Using http://a.example Monitor "+printed)
			if !equalModuloPos(x, g.Sentinels[0].Monitor.X) {
				t.Errorf("Print gave %q, which parses to %s", printed, paren(g.Sentinels[0].Monitor.X))
			}
		})
	}
}

func TestTargetPrecedence(t *testing.T) {
	f := mustParse(t, "Create Sentinel s Using http://a.example OR http://b.example AND (s1 OR sentinel s2)")
	got := Print(f.Sentinels[0].Target)
	if want := "http://a.example OR http://b.example AND (s1 OR s2)"; got != want {
		t.Errorf("target printed %q, want %q", got, want)
	}
	b, ok := f.Sentinels[0].Target.(*BinaryTarget)
	if !ok || b.Op != Or {
		t.Fatalf("top of target is %T, want OR", f.Sentinels[0].Target)
	}
}

// TestPrintRoundTrip: the canonical form of each input, and Parse(Print(x))
// = x modulo positions.
func TestPrintRoundTrip(t *testing.T) {
	tests := map[string]struct{ src, want string }{
		"scenario 1": {
			"Create Sentinel s1 Using http://www.uta.edu/class/schedule\nMonitor keyword (5331, 5324)\nFetch 1 day\nFrom 12/02/02 To 01/02/03\nNotify By email jill@aol.com Every best effort\nCompare pairwise",
			"Create Sentinel s1 Using http://www.uta.edu/class/schedule\n\tMonitor keywords {5331, 5324}\n\tFetch 1 day\n\tFrom 12/02/2002 To 01/02/2003\n\tNotify By email jill@aol.com\n\tEvery best effort\n\tCompare pairwise\n",
		},
		"scenario 3": {
			"Create Sentinel s3\nUsing s1\nMonitor phrase (“Optical Network”)",
			"Create Sentinel s3 Using s1\n\tMonitor phrase {\"Optical Network\"}\n",
		},
		"clause order": {
			"create sentinel x using sentinel s1 compare EVERY 3 every 2 days to end(s1) + 1 week from start (s1) fetch on change render monitor anychange",
			"Create Sentinel x Using s1\n\tMonitor any change\n\tFetch on change render\n\tFrom start(s1) To end(s1) + 1 week\n\tEvery 2 days\n\tCompare every 3\n",
		},
		"quoting": {
			`Create Sentinel q Using "http://a.example/wiki/Foo_(bar)" Monitor keywords {"a b", and, "", "x,y", 12/02/2002, -4} AND phrase {x} AND table {"t 1"} Notify By email "odd name@a.example", pda "my pda", fax 5551234`,
			"Create Sentinel q Using \"http://a.example/wiki/Foo_(bar)\"\n\tMonitor keywords {\"a b\", and, \"\", \"x,y\", 12/02/2002, -4} AND phrase {\"x\"} AND table {\"t 1\"}\n\tNotify By email \"odd name@a.example\", PDA \"my pda\", fax 5551234\n",
		},
		"value and scopes": {
			`Create Sentinel v Using https://shop.example/item Monitor value in XPATH "//span[@id='p']" falls below -2.50 ignore css ".ad" ignore xpath "//x" OR value In css ".n" changes Confirm after 30 seconds Fetch 15 minutes`,
			"Create Sentinel v Using https://shop.example/item\n\tMonitor value In xpath \"//span[@id='p']\" falls below -2.5 Ignore css \".ad\" Ignore xpath \"//x\" OR value In css \".n\" changes\n\tFetch 15 minutes\n\tConfirm after 30 seconds\n",
		},
		"dates and offsets": {
			"Create Sentinel d Using a.example/x From 6/1/2003 9:05 + 1 day + 2 hour To Now + 3 month Every interactive Compare moving 4",
			"Create Sentinel d Using a.example/x\n\tFrom 06/01/2003 09:05 + 1 day + 2 hours To Now + 3 months\n\tEvery interactive\n\tCompare moving 4\n",
		},
		"comments": {
			"# head\nCreate Sentinel c Using http://a.example # after using\n  # before fetch\n  Fetch 1 hour\n# tail",
			"# head\nCreate Sentinel c Using http://a.example # after using\n\t# before fetch\n\tFetch 1 hour\n\n# tail\n",
		},
		"two sentinels": {
			"Create Sentinel a Using http://a.example Create Sentinel b Using a To end(a)",
			"Create Sentinel a Using http://a.example\n\nCreate Sentinel b Using a\n\tTo end(a)\n",
		},
		"words except and lists": {
			"Create Sentinel w Using http://a.example Monitor all words except : (the, a) OR list OR list {menu} OR regular expression: {\"\\\\d+\"}",
			"Create Sentinel w Using http://a.example\n\tMonitor all words except {the, a} OR list OR list {menu} OR regular expression {\"\\\\d+\"}\n",
		},
		"chat": {
			"Create Sentinel n Using http://a.example Notify By slack://h/T/B, telegram://tok@telegram?chats=1, jill@aol.com, webhook https://h.example/x Every immediate",
			"Create Sentinel n Using http://a.example\n\tNotify By slack://h/T/B, telegram://tok@telegram?chats=1, email jill@aol.com, webhook https://h.example/x\n\tEvery immediate\n",
		},
		"site": {
			"create sentinel docs using SITE https://docs.example/guide/ pages 20 DEPTH 1 monitor keywords {deprecated}",
			"Create Sentinel docs Using site https://docs.example/guide/ depth 1 pages 20\n\tMonitor keywords {deprecated}\n",
		},
		"site quoted, without bounds": {
			`Create Sentinel docs Using site "http://a.example/wiki/Foo_(bar)"`,
			"Create Sentinel docs Using site \"http://a.example/wiki/Foo_(bar)\"\n",
		},
		"a sentinel named site": {
			"Create Sentinel s Using site OR (sentinel site AND http://a.example) Fetch 1 day",
			"Create Sentinel s Using site OR site AND http://a.example\n\tFetch 1 day\n",
		},
		"self-hosted chat": {
			"Create Sentinel n Using http://a.example Notify By gotify://push.example/Aaaaaaaaaaaaaaa, mattermost://chat.example/token",
			"Create Sentinel n Using http://a.example\n\tNotify By gotify://push.example/Aaaaaaaaaaaaaaa, mattermost://chat.example/token\n",
		},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			f := mustParse(t, tt.src)
			got := Print(f)
			if got != tt.want {
				t.Errorf("Print\n got %q\nwant %q", got, tt.want)
			}
			g := mustParse(t, got)
			if !equalModuloPos(f, g) {
				t.Errorf("Parse(Print(x)) != x\nfirst:  %s\nsecond: %s", Print(f), Print(g))
			}
			if again := Print(g); again != got {
				t.Errorf("Print is not idempotent:\n%q\n%q", got, again)
			}
		})
	}
}

func TestPartialAST(t *testing.T) {
	src := "Create Sentinel a Using http://a.example\n Monitor bogus thing\n Fetch 1 hour\nCreate Sentinel b Using\nCreate Sentinel c Using http://c.example Compare pairwise\n"
	f, err := Parse("p.ssl", []byte(src))
	if err == nil {
		t.Fatal("want errors")
	}
	el := err.(ErrorList)
	if len(el) != 2 || el[0].Pos.Line != 2 || el[1].Pos.Line != 5 {
		t.Fatalf("errors:\n%s", el)
	}
	if el[0].Found != "bogus" || el[1].Expected != "URL or sentinel name" || !strings.HasPrefix(el[1].Error(), "p.ssl:5:1: expected URL or sentinel name") {
		t.Errorf("error details: %+v %+v", el[0], el[1])
	}
	if len(f.Sentinels) != 3 {
		t.Fatalf("%d sentinels, want 3", len(f.Sentinels))
	}
	a, b, c := f.Sentinels[0], f.Sentinels[1], f.Sentinels[2]
	if a.Monitor != nil || a.Fetch == nil || a.Fetch.Interval.Duration != (Duration{1, Hour}) {
		t.Errorf("sentinel a: monitor %v fetch %v", a.Monitor, a.Fetch)
	}
	if b.Name.Name != "b" || b.Target != nil {
		t.Errorf("sentinel b: %+v", b)
	}
	if c.Compare == nil || c.Compare.Method != Pairwise {
		t.Errorf("sentinel c not parsed: %+v", c)
	}
}

func TestParseSentinel(t *testing.T) {
	if _, err := ParseSentinel("x", []byte("Create Sentinel a Using http://a.example")); err != nil {
		t.Errorf("one sentinel: %v", err)
	}
	// No sentinel: an error at the start of the file, file:line:col as
	// every other (it had no line and column).
	if _, err := ParseSentinel("x", []byte("# nothing")); err == nil || err.Error() != "x:1:1: no sentinel: expected Create Sentinel" {
		t.Errorf("no sentinel: %v; want x:1:1: no sentinel: expected Create Sentinel", err)
	}
	if _, err := ParseSentinel("x", []byte("Create Sentinel a Using http://a.example Create Sentinel b Using a")); err == nil || !strings.Contains(err.Error(), "x:1:42: more than one sentinel") {
		t.Errorf("two sentinels: %v", err)
	}
}

func TestNodePositions(t *testing.T) {
	src := "Create Sentinel s1 Using http://a.example\n\tMonitor NOT keywords {a} AND all links\n\tFrom start(s0) + 1 day\n"
	f := mustParse(t, src)
	s := f.Sentinels[0]
	b := s.Monitor.X.(*BinaryExpr)
	checks := []struct {
		n    Node
		text string
	}{
		{s, "Create"}, {s.Name, "s1"}, {s.Target, "http://a.example"}, {s.Monitor, "Monitor"},
		{b, "NOT"}, {b.X, "NOT"}, {b.X.(*NotExpr).X, "keywords"}, {b.Y, "all links"},
		{b.X.(*NotExpr).X.(*ChangeType).Args[0], "a"},
		{s.From, "From"}, {s.From.Base, "start"}, {s.From.Base.(*Event).Name, "s0"}, {s.From.Offsets[0], "1 day"},
	}
	for _, c := range checks {
		p := c.n.Pos()
		if !p.IsValid() || !strings.HasPrefix(src[p.Offset:], c.text) {
			t.Errorf("%T at %+v, want it at %q", c.n, p, c.text)
		}
	}
}

func TestPrintContactQuoting(t *testing.T) {
	for _, addr := range []string{"Create", "1.5", "a b", "jill", "12/02/2002", "x@y.z"} {
		s := &Sentinel{Name: &Ident{Name: "a"}, Target: &URLTarget{URL: "http://a.example"},
			Notify: &NotifyClause{Contacts: []*Contact{{Kind: Email, Address: addr}, {Kind: Fax, Address: addr}}}}
		f := mustParse(t, Print(s))
		if !equalModuloPos(f.Sentinels[0], s) {
			t.Errorf("address %q: printed %q", addr, Print(s))
		}
	}
}

func TestDeepNesting(t *testing.T) {
	src := "Create Sentinel d Using http://a.example Monitor " + strings.Repeat("(", 5000) + "all links" + strings.Repeat(")", 5000)
	if _, err := Parse("deep", []byte(src)); err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Errorf("parens: %v", err)
	}
	src = "Create Sentinel d Using http://a.example Monitor " + strings.Repeat("NOT ", 200) + "all links Fetch 1 hour"
	f, err := Parse("deep", []byte(src))
	if err == nil || f.Sentinels[0].Fetch == nil {
		t.Errorf("NOT: %v; the next clause must still be parsed", err)
	}
	src = "Create Sentinel d Using " + strings.Repeat("(", 500) + "http://a.example" + strings.Repeat(")", 500)
	if _, err := Parse("deep", []byte(src)); err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Errorf("targets: %v", err)
	}
	js := `{"name":"a","using":{"url":"http://a.example"},"monitor":` + strings.Repeat(`{"not":`, 500) + `{"kind":"all links"}` + strings.Repeat("}", 500) + "}"
	if _, err := DecodeSentinel([]byte(js)); err == nil || !strings.Contains(err.Error(), "nested too deeply") {
		t.Errorf("JSON: %v", err)
	}
}

// TestWideExpression: a chain of thousands of change types, which the
// bound on nesting does not bound, is parsed and checked (without going
// quadratic in the subsumption check), and refused for its size alone:
// one error, at the first change type past MaxChangeTypes.
func TestWideExpression(t *testing.T) {
	var b strings.Builder
	b.WriteString("Create Sentinel w Using http://a.example Monitor keywords {k0}")
	for i := 1; i < 3000; i++ {
		b.WriteString(" OR keywords {k" + strconv.Itoa(i) + "}")
	}
	f := mustParse(t, b.String())
	_, err := NewChecker(date(2003, 6, 1, 12, 0)).Check(f.Sentinels[0])
	col := strings.Index(b.String(), "keywords {k256}") + 1
	want := fmt.Sprintf("1:%d: 3000 change types in Monitor: want at most 256", col)
	if el, ok := err.(ErrorList); !ok || len(el) != 1 || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("error %v, want one error %q...", err, want)
	}
}

// TestErrorDetails: every syntax error carries the offending text and what
// was expected.
func TestErrorDetails(t *testing.T) {
	tests := map[string]struct{ src, found, expected string }{
		"expected token": {"Create Sentinel s1 Using http://a.example Fetch soon", "soon", "interval (1 hour) or on change"},
		"change type":    {"Create Sentinel s1 Using http://a.example Monitor frequent change", "frequent", changeTypes},
		"unit":           {"Create Sentinel s1 Using http://a.example Fetch 3 year", "year", "time unit"},
		"date":           {"Create Sentinel s1 Using http://a.example From 13/01/2003", "13/01/2003", "date MM/DD/YYYY"},
		"reserved name":  {"Create Sentinel To Using http://a.example", "To", "sentinel name"},
		"to during":      {"Create Sentinel s1 Using http://a.example To during(s0)", "during", "start(name) or end(name)"},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("e.ssl", []byte(tt.src))
			el, ok := err.(ErrorList)
			if !ok || len(el) != 1 {
				t.Fatalf("errors: %v", err)
			}
			if el[0].Found != tt.found || el[0].Expected != tt.expected {
				t.Errorf("Found %q Expected %q, want %q %q", el[0].Found, el[0].Expected, tt.found, tt.expected)
			}
		})
	}
}

// TestErrorPosition: an "expected X, found Y" error is at Y, the token it
// names, even when Y is on a later line than the token before it. Where Y
// begins a clause or a sentinel, X is missing at the end of the line
// before, but the error is still told at Y ("found "Fetch"" at 2:30 sent
// the reader looking for a Fetch on line 2), and Y's line keeps its own
// error. Only "found end of file" is told just after the last token, where
// X belongs. An illegal character is reported once, by the scanner.
func TestErrorPosition(t *testing.T) {
	const head = "Create Sentinel s1 Using http://a.example\n"
	tests := map[string]struct {
		src  string
		want []string // the errors' positions, line:col, in order
	}{
		"missing before a clause":                 {head + "Monitor keywords {a} AND\nFetch 1 day", []string{"3:1"}},
		"missing before an indented clause":       {head + "Monitor all links AND\n\tFetch 1 day", []string{"3:2"}},
		"missing before a clause after a comment": {head + "Monitor keywords {a} AND # and?\n\nFetch 1 day", []string{"4:1"}},
		"missing before a sentinel":               {head + "Monitor all\nCreate Sentinel s2 Using http://b.example", []string{"3:1"}},
		"missing at the end":                      {head + "Monitor keywords {a} AND\n", []string{"2:25"}},
		"missing at the end, no newline":          {head + "Monitor keywords {a} AND", []string{"2:25"}},
		"missing at the end after blank lines":    {head + "Monitor keywords {a} AND\n\n\n", []string{"2:25"}},
		// The cases of the report: b3.ssl and mixed.ssl.
		"change type missing after AND before Fetch": {head + "Monitor value In css \".price\" decreases AND\nFetch on change\n", []string{"3:1"}},
		"value condition missing before Fetch":       {head + "Monitor value In css \".price\"\nFetch on change\n", []string{"3:1"}},
		"list left open before Fetch":                {head + "Monitor keywords {sale\nFetch 1 day\n", []string{"3:1"}},
		"list left open at the end":                  {head + "Monitor keywords {sale\n", []string{"2:23"}},
		"target missing before a clause":             {"Create Sentinel s1 Using\nMonitor any change\n", []string{"2:1"}},
		"Using missing before a clause":              {"Create Sentinel s1\nMonitor any change\n", []string{"2:1"}},
		// The clause named is read, and its own mistake told on its
		// line too.
		"the clause's own mistake told too": {head + "Monitor value In css \".price\" decreases AND\nFetch every 2 hours\n", []string{"3:1", "3:7"}},
		// A string left open runs to the end of its line: the list it
		// was in is not told again at the clause after it.
		"after a string left open": {head + "Monitor keywords {\"sale\nFetch 1 day\n", []string{"2:19"}},

		"wrong word on the next line":          {head + "Monitor all\n\tlinkz", []string{"3:2"}},
		"wrong operand on the next line":       {head + "Monitor all links AND\n  ~", []string{"3:3"}},
		"list without braces on the next line": {head + "Monitor phrase\n  \"sold out\"", []string{"3:3"}},
		"wrong unit on the next line":          {head + "Fetch 3\n  fortnights later", []string{"3:3"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("e.ssl", []byte(tc.src))
			el, ok := err.(ErrorList)
			if !ok {
				t.Fatalf("errors: %v, want %d", err, len(tc.want))
			}
			var got []string
			for _, e := range el {
				got = append(got, fmt.Sprintf("%d:%d", e.Pos.Line, e.Pos.Column))
				// The token an error says it found is the text at it.
				if e.Found != "" && strings.Contains(e.Msg, ", found ") && !strings.Contains(e.Msg, "found end of file") && !strings.HasPrefix(tc.src[e.Pos.Offset:], e.Found) {
					t.Errorf("%v: the text there is %q", e, tc.src[e.Pos.Offset:])
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("errors at %v, want %v:\n%s", got, tc.want, el)
			}
		})
	}
}

// TestParseSentinelMoreThanOneWithSyntaxErrors: a source of two
// sentinels, one with a syntax error, is told both: the syntax error and
// "more than one sentinel" at the second's Create, in source order. The
// second was told only when the source had no syntax error.
func TestParseSentinelMoreThanOneWithSyntaxErrors(t *testing.T) {
	for src, want := range map[string]string{
		"Create Sentinel a Using http://a.example\nFetch every 2 hours\nCreate Sentinel b Using a\n": "x:2:7: \"every\" does not go after Fetch: write the interval alone, as in Fetch 2 hours\n" +
			"x:3:1: more than one sentinel: expected end of input\n",
		"Create Sentinel a Using http://a.example\nCreate Sentinel b Using a\nFetch every 2 hours\n": "x:2:1: more than one sentinel: expected end of input\n" +
			"x:3:7: \"every\" does not go after Fetch: write the interval alone, as in Fetch 2 hours\n",
	} {
		s, err := ParseSentinel("x", []byte(src))
		if s == nil || s.Name.Name != "a" {
			t.Errorf("%q: sentinel %v, want a", src, s)
		}
		if got := err.(ErrorList).String(); got != want {
			t.Errorf("%q:\ngot\n%s\nwant\n%s", src, got, want)
		}
	}
}
