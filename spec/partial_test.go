package spec

import (
	"strings"
	"testing"
)

// TestCheckPartial: a file with syntax errors has every problem told in
// one run, syntax and semantic, in line order, and no error that only
// follows from a clause that did not parse.
func TestCheckPartial(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{{
		name: "bad email and bad Fetch",
		src: "Create Sentinel news Using https://example.org/\nMonitor any change\nFetch every 2 hours\n" +
			"Notify By email nope\nEvery immediate\n",
		want: `f:3:7: "every" does not go after Fetch: write the interval alone, as in Fetch 2 hours
f:4:11: invalid email address "nope"
`,
	}, {
		name: "Confirm not compared with a Fetch that did not parse",
		src:  "Create Sentinel a Using https://example.org/\nFetch every 1 hour\nConfirm after 2 hours\nCompare moving 1\n",
		want: `f:2:7: "every" does not go after Fetch: write the interval alone, as in Fetch 1 hour
f:4:16: Compare moving 1: n must be at least 2 (moving 1 would compare each version with itself; moving 2 is pairwise)
`,
	}, {
		name: "Confirm compared with a Fetch that parsed",
		src:  "Create Sentinel a Using https://example.org/\nFetch 1 hour\nConfirm after 2 hours\nNotify By email x@y.example,\n",
		want: `f:3:1: Confirm after 2 hours must be shorter than Fetch 1 hour
f:4:29: expected email <address>, webhook <URL> or a chat URL (slack://, discord://, telegram://, ntfy://, gotify://, mattermost://), found end of file
`,
	}, {
		name: "list left open before the next sentinel, which is checked",
		src:  "Create Sentinel a Using https://example.org/\nMonitor keywords {sale,\nCreate Sentinel b Using https://example.org/b\nFetch 0 hours\n",
		want: `f:3:1: expected } to close the { at 2:18, found "Create"
f:4:7: Fetch 0 hours: interval must be greater than 0
`,
	}, {
		name: "list left open before a clause, which is checked",
		src:  "Create Sentinel a Using https://example.org/\nMonitor phrase {\"sold out\"\nNotify By email bad\n",
		want: `f:3:1: expected } to close the { at 2:16, found "Notify"
f:3:11: invalid email address "bad"
`,
	}, {
		name: "header did not parse: clauses alone",
		src:  "Create Sentinel c Usin https://example.org/\nFetch 0 hours\nNotify By email bad\nConfirm after 2 hours\n",
		want: `f:1:19: expected Using, found "Usin": write Using
f:2:7: Fetch 0 hours: interval must be greater than 0
f:3:11: invalid email address "bad"
`,
	}, {
		name: "misspelt clause: no defaults",
		src:  "Create Sentinel b Using https://example.org/\nFecth 1 hour\nConfirm after 2 hours\nEvery 0 hours\n",
		want: `f:2:1: expected Monitor, Fetch, Confirm, From, To, Notify, Every, Compare or Create, found "Fecth"
f:4:7: Every 0 hours: interval must be greater than 0
`,
	}, {
		name: "From did not parse: no default To, no lifespan rule",
		src:  "Create Sentinel a Using https://example.org/\nFrom start(\nTo 01/01/2001\nNotify By email nope\n",
		want: `f:3:1: expected sentinel name, found reserved word "To"
f:3:4: To 01/01/2001 has passed (01/01/2001 00:00 UTC is before now, 06/01/2003 12:00 UTC): write a later time, such as To Now + 1 month
f:4:11: invalid email address "nope"
`,
	}, {
		name: "a later sentinel told one with syntax errors has errors",
		src: "Create Sentinel a Using https://example.org/\nFetch every 1 hour\n" +
			"Create Sentinel b Using a\nNotify By email nope\n",
		want: `f:2:7: "every" does not go after Fetch: write the interval alone, as in Fetch 1 hour
f:3:25: sentinel a has errors
f:4:11: invalid email address "nope"
`,
	}, {
		name: "a bad escape in a string: its clause not checked",
		src:  "Create Sentinel a Using https://example.org/\nMonitor keywords {\"a\\qb\"}\nNotify By email nope\n",
		want: `f:2:21: invalid escape \q in string: write \\q for a backslash (strings take Go's escapes: \" \\ \n \t \u00e9)
f:3:11: invalid email address "nope"
`,
	}, {
		name: "a bad character after a clause read: the clause checked",
		src:  "Create Sentinel a Using nowhere $\nFetch 0 hours $\nNotify By email nope\n",
		want: `f:1:25: unknown sentinel nowhere
f:1:33: illegal character '$'
f:2:7: Fetch 0 hours: interval must be greater than 0
f:2:15: illegal character '$'
f:3:11: invalid email address "nope"
`,
	}, {
		name: "a contact read before the syntax error of its clause",
		src:  "Create Sentinel a Using https://example.org/\nNotify By email nope, ???\n",
		want: `f:2:11: invalid email address "nope"
f:2:23: illegal character '?'
`,
	}, {
		name: "contacts read before the syntax error, a duplicate among them",
		src:  "Create Sentinel a Using https://example.org/\nNotify By email a@b.example, email a@b.example, fax\nEvery 0 hours\n",
		want: `f:2:30: duplicate contact a@b.example
f:3:1: expected fax number, found "Every"
f:3:7: Every 0 hours: interval must be greater than 0
`,
	}, {
		name: "change types read before the syntax error of Monitor, not their combination",
		src:  "Create Sentinel a Using https://example.org/\nMonitor keywords {\"a b\"} OR regex {\"(\"} OR NOT all links OR\nFetch 1 hour\n",
		want: `f:2:19: keyword "a b" has several words: use phrase {"a b"}
f:2:36: invalid regular expression: missing closing ): ` + "`(`" + `
f:3:1: expected change type (any change, all links, all images, all words, keywords, phrase, table, list, regular expression, value), found "Fetch"
`,
	}, {
		name: "an event and an offset read before the syntax error of From",
		src:  "Create Sentinel a Using https://example.org/\nFrom start(nowhere) + 0 days +\nNotify By email nope\n",
		want: `f:2:12: unknown sentinel nowhere
f:2:23: offset 0 days: interval must be greater than 0
f:3:1: expected interval (a count and a unit, as in 1 day), found "Notify"
f:3:11: invalid email address "nope"
`,
	}, {
		name: "the interval after the syntax error of Fetch not told",
		src:  "Create Sentinel a Using https://example.org/\nFetch every 0 hours\n",
		want: `f:2:7: "every" does not go after Fetch, and 0 hours is not greater than 0: write the interval alone, at least 1, as in Fetch 1 hour
`,
	}, {
		name: "a change type before a bad escape told, the one holding it not",
		src:  "Create Sentinel a Using https://example.org/\nMonitor keywords {\"a b\"} OR phrase {\"\", \"a\\qb\"}\n",
		want: `f:2:19: keyword "a b" has several words: use phrase {"a b"}
f:2:43: invalid escape \q in string: write \\q for a backslash (strings take Go's escapes: \" \\ \n \t \u00e9)
`,
	}, {
		name: "targets read before the syntax error of the header",
		src:  "Create Sentinel a Using nowhere OR \"http://x .example/\" AND\nFetch 0 hours\n",
		want: `f:1:25: unknown sentinel nowhere
f:1:36: invalid URL "http://x .example/": invalid character " " in host name
f:2:1: expected URL or sentinel name, found "Fetch"
f:2:7: Fetch 0 hours: interval must be greater than 0
`,
	}, {
		name: "misspelt Sentinel: the header read, checked in full",
		src:  "Create Sentinal b Using nowhere\nFrom 01/01/2001\n",
		want: `f:1:8: expected Sentinel, found "Sentinal"
f:1:25: unknown sentinel nowhere
f:2:6: From 01/01/2001 has passed (01/01/2001 00:00 UTC is before now, 06/01/2003 12:00 UTC): write a later time, or From Now to start at once
`,
	}, {
		name: "misspelt Using: the target read, checked in full",
		src:  "Create Sentinel c Usin https://example.org/\nFetch 1 hour\nConfirm after 2 hours\n",
		want: `f:1:19: expected Using, found "Usin": write Using
f:3:1: Confirm after 2 hours must be shorter than Fetch 1 hour
`,
	}, {
		name: "no target: the lifespan it states checked",
		src:  "Create Sentinel d Using\nFrom start(nowhere)\nTo 01/01/2001\nNotify By email nope\n",
		want: `f:2:1: expected URL or sentinel name, found "From"
f:2:12: unknown sentinel nowhere
f:3:4: To 01/01/2001 has passed (01/01/2001 00:00 UTC is before now, 06/01/2003 12:00 UTC): write a later time, such as To Now + 1 month
f:4:11: invalid email address "nope"
`,
	}, {
		name: "no target: From and To stated, compared",
		src:  "Create Sentinel d Using\nFrom 01/01/2030\nTo 01/01/2029\n",
		want: `f:2:1: expected URL or sentinel name, found "From"
f:3:4: To 01/01/2029 is not after From 01/01/2030: the sentinel would end at 01/01/2029 00:00 UTC and start at 01/01/2030 00:00 UTC; write a To later than the From
`,
	}, {
		name: "no target: Confirm and Fetch stated, compared",
		src:  "Create Sentinel d Using\nFetch 1 hour\nConfirm after 2 hours\nTo Now\n",
		want: `f:2:1: expected URL or sentinel name, found "Fetch"
f:3:1: Confirm after 2 hours must be shorter than Fetch 1 hour
f:4:4: To Now would end the sentinel as soon as it starts: write To Now + a duration (To Now + 1 month), a later date, or no To for the default lifespan
`,
	}, {
		name: "no name: the target after Using read, its pieces checked",
		src:  "Create Sentinal Using nowhere OR \"http://x .example/\"\nFetch 0 hours\n",
		want: `f:1:8: expected Sentinel, found "Sentinal"
f:1:23: unknown sentinel nowhere
f:1:34: invalid URL "http://x .example/": invalid character " " in host name
f:2:7: Fetch 0 hours: interval must be greater than 0
`,
	}, {
		name: "a title for a name: the target after Using read, its pieces checked",
		src:  "Create Sentinel \"my shop\" Using nowhere\n",
		want: `f:1:17: expected sentinel name, found "my shop": a name is one word, unquoted, as in my-shop
f:1:33: unknown sentinel nowhere
`,
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := Parse("f", []byte(tc.src))
			if err == nil {
				t.Fatal("Parse: no syntax error")
			}
			_, semantic := NewChecker(date(2003, 6, 1, 12, 0)).CheckFile(f)
			var list ErrorList
			if semantic != nil {
				list = semantic.(ErrorList)
			}
			if got := MergeErrors(err, list).String(); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
			// CheckPartial of the first sentinel says what CheckFile does
			// of it.
			s := f.Sentinels[0]
			for _, e := range NewChecker(date(2003, 6, 1, 12, 0)).CheckPartial("", s) {
				if !strings.Contains(tc.want, e.Msg) {
					t.Errorf("CheckPartial: %v, not in the file's errors", e)
				}
			}
		})
	}
}

// TestSyntaxErrorNeverValid: a sentinel whose text holds a syntax error
// that left every clause read (a duplicate clause, a misspelt Create) is
// still one with syntax errors: CheckFile does not find it valid, and
// Check refuses it. Both took it as valid, the first clause standing for
// the second.
func TestSyntaxErrorNeverValid(t *testing.T) {
	for name, src := range map[string]string{
		"duplicate clause":              "Create Sentinel a Using https://example.org/\nFetch 1 hour\nFetch 2 hours\n",
		"duplicate clause with error":   "Create Sentinel a Using https://example.org/\nFetch 1 hour\nFetch every 2 hours\n",
		"misspelt Create":               "Crate Sentinel a Using https://example.org/\n",
		"misspelt Create of the second": "Create Sentinel a Using https://example.org/\nFetch 1 hour\nCrate Sentinel b Using https://example.org/b\n",
	} {
		t.Run(name, func(t *testing.T) {
			f, err := Parse("f", []byte(src))
			if err == nil {
				t.Fatal("Parse: no syntax error")
			}
			s := f.Sentinels[len(f.Sentinels)-1]
			if !s.HasSyntaxErrors() {
				t.Errorf("HasSyntaxErrors false (Parse: %v)", err)
			}
			out, _ := NewChecker(date(2003, 6, 1, 12, 0)).CheckFile(f)
			if out[len(out)-1] != nil {
				t.Errorf("CheckFile: valid with %v", err)
			}
			if len(out) > 1 && (out[0] == nil || f.Sentinels[0].HasSyntaxErrors()) {
				t.Errorf("CheckFile: the sentinel before, without errors, not valid")
			}
			if _, cerr := NewChecker(date(2003, 6, 1, 12, 0)).Check(s); cerr == nil {
				t.Errorf("Check: valid with %v", err)
			}
		})
	}
}

// TestCheckPartialCap: a file of many sentinels with syntax errors, the
// pieces of their clauses and their headers checked too, still has at
// most MaxErrors errors told, then "too many errors", sorted by position,
// none twice.
func TestCheckPartialCap(t *testing.T) {
	srcs := []string{
		"Create Sentinel a Using https://example.org/\nNotify By email nope, ???\n",
		"Create Sentinel b Using nowhere OR \"http://x .example/\" AND\nFetch 0 hours\n",
		"Create Sentinel c Using https://example.org/\nFrom start(nowhere) + 0 days +\nNotify By email nope\n",
		"Create Sentinel d Using\nFrom start(nowhere)\nTo 01/01/2001\nFetch 1 hour\nConfirm after 2 hours\n",
		"Create Sentinel e Usin nowhere\nFrom 01/01/2001\nMonitor keywords {\"a b\"} OR regex {\"(\"} OR\n",
	}
	f, err := Parse("f", []byte(strings.Join(srcs, "")))
	if err == nil {
		t.Fatal("Parse: no syntax error")
	}
	_, semantic := NewChecker(date(2003, 6, 1, 12, 0)).CheckFile(f)
	sem, _ := semantic.(ErrorList)
	all := append(append(ErrorList(nil), err.(ErrorList)...), sem...)
	if len(all) <= MaxErrors {
		t.Fatalf("%d errors in all, want more than %d to cut:\n%s", len(all), MaxErrors, all)
	}
	list := MergeErrors(err, sem)
	if len(list) != MaxErrors+1 || list[MaxErrors].Msg != TooManyErrors {
		t.Errorf("got %d errors, want %d then %q:\n%s", len(list), MaxErrors, TooManyErrors, list)
	}
	seen := map[string]bool{}
	for i, e := range list {
		if i > 0 && before(e, list[i-1]) {
			t.Errorf("%v before %v: not sorted", e, list[i-1])
		}
		if seen[e.Error()] {
			t.Errorf("%v told twice", e)
		}
		seen[e.Error()] = true
	}
}
