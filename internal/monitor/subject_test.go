package monitor

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// TestSubjectLine: a message's subject is "[Vigil] name: " and its
// entries joined by "; ", capped at maxSubject characters: the entries
// that do not fit are dropped for "… and N more", and an entry too long
// alone is cut at a word (at a character if it has none) and ends with
// "…", never inside a UTF-8 character.
func TestSubjectLine(t *testing.T) {
	long := strings.Repeat("é", 30)
	words := strings.Repeat("changé ", 40)
	for _, tc := range []struct {
		name    string
		entries []string
		want    string // "" to check the cap alone
		suffix  string
	}{
		{name: "short", entries: []string{"a: 1 text changed", "b: 1 text changed"}, want: "[Vigil] s: a: 1 text changed; b: 1 text changed"},
		{name: "entries dropped", entries: []string{long, long, long, long, long, long, long, long}, want: "[Vigil] s: " + strings.Repeat(long+"; ", 5) + "… and 3 more"},
		{name: "one long entry, words", entries: []string{words}, suffix: "changé…"},
		{name: "one long entry, no word", entries: []string{strings.Repeat("é", 300)}, suffix: "é…"},
		{name: "one long entry and more", entries: []string{words, "b"}, suffix: "changé… and 1 more"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			es := make([]subjectEntry, len(tc.entries))
			for i, e := range tc.entries {
				es[i] = subjectEntry{what: e}
			}
			got := subjectLine("s", es...)
			if n := utf8.RuneCountInString(got); n > maxSubject || !utf8.ValidString(got) {
				t.Errorf("subject of %d characters (valid UTF-8: %v), want %d at most: %q", n, utf8.ValidString(got), maxSubject, got)
			}
			if tc.want != "" && got != tc.want {
				t.Errorf("subject\n%q, want\n%q", got, tc.want)
			}
			if tc.suffix != "" && !strings.HasSuffix(got, tc.suffix) {
				t.Errorf("subject %q, want it to end with %q", got, tc.suffix)
			}
		})
	}
}

// TestSubjectLinePage: a page's part of a subject entry (its URL or
// name) is what is cut when the subject is too long, in the middle,
// keeping its host and its end; what the entry says of it ("fails since
// …", "works again", a count) is never cut. The sentinel's name is cut at
// maxSubjectName characters, and the entries left out are counted right.
// Before, a URL of 200 characters cut "fails since" and "works again"
// alike, so a failure and a recovery had one subject, and a name of 200
// characters left room for no entry: "[Vigil] nnn…… and 2 more".
func TestSubjectLinePage(t *testing.T) {
	url := "https://shop.example/" + strings.Repeat("p", 240) + "/abcd"
	longName := strings.Repeat("n", 200)
	fails := " fails since 2026-12-01 13:05 JST"
	for _, tc := range []struct {
		name    string
		sname   string
		entries []subjectEntry
		prefix  string // the subject begins so
		suffix  string // and ends so
		has     []string
	}{
		{name: "failing, long URL", sname: "prices", entries: []subjectEntry{{page: url, what: fails}},
			prefix: "[Vigil] prices: https://shop.example/", suffix: "/abcd" + fails, has: []string{"…"}},
		{name: "recovery, long URL", sname: "prices", entries: []subjectEntry{{page: url, what: " works again"}},
			prefix: "[Vigil] prices: https://shop.example/", suffix: "/abcd works again", has: []string{"…"}},
		{name: "long name", sname: longName, entries: []subjectEntry{{page: "a", what: ": 1 text changed"}, {page: "b", what: ": 1 text changed"}},
			prefix: "[Vigil] " + strings.Repeat("n", maxSubjectName-1) + "…: ", suffix: "a: 1 text changed; b: 1 text changed"},
		{name: "long name, long URL", sname: longName, entries: []subjectEntry{{page: url, what: fails}},
			prefix: "[Vigil] " + strings.Repeat("n", maxSubjectName-1) + "…: https://shop.example/", suffix: "/abcd" + fails},
		{name: "long name, long entries counted", sname: longName, entries: []subjectEntry{{page: url, what: ": 1 text changed"}, {page: url + "2", what: ": 2 texts changed"}, {page: url + "3", what: ": 3 texts changed"}},
			prefix: "[Vigil] " + strings.Repeat("n", maxSubjectName-1) + "…: https://shop.example/", suffix: "/abcd: 1 text changed; … and 2 more"},
		{name: "entries counted", sname: "s", entries: []subjectEntry{{page: url, what: ": 1 text changed"}, {page: "b", what: ": 1 text changed"}, {page: "c", what: ": 1 text changed"}},
			prefix: "[Vigil] s: https://shop.example/", suffix: "/abcd: 1 text changed; … and 2 more"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := subjectLine(tc.sname, tc.entries...)
			if n := utf8.RuneCountInString(got); n > maxSubject || !utf8.ValidString(got) {
				t.Errorf("subject of %d characters (valid UTF-8: %v), want %d at most: %q", n, utf8.ValidString(got), maxSubject, got)
			}
			if !strings.HasPrefix(got, tc.prefix) || !strings.HasSuffix(got, tc.suffix) {
				t.Errorf("subject\n%q, want it to begin with\n%q and end with\n%q", got, tc.prefix, tc.suffix)
			}
			for _, h := range tc.has {
				if !strings.Contains(got, h) {
					t.Errorf("subject %q, want %q in it", got, h)
				}
			}
		})
	}
	failing := subjectLine("prices", subjectEntry{page: url, what: fails})
	working := subjectLine("prices", subjectEntry{page: url, what: " works again"})
	if failing == working {
		t.Errorf("a failure and a recovery of one page have one subject: %q", failing)
	}
}

// TestUsingAndSubjectCapped: the subject of a message telling the changes
// of many pages together ("Using A AND B AND ...") is capped at
// maxSubject characters, the entries that do not fit counted ("… and N
// more"); its body still tells every change. Before, it named every
// page's change, thousands of characters for a hundred pages.
func TestUsingAndSubjectCapped(t *testing.T) {
	onEachStore(t, func(t *testing.T, open storeOpener) {
		const n = 12
		var using []string
		for i := range n {
			using = append(using, fmt.Sprintf("URL/page-%02d", i))
		}
		p := newFilePages(t, open, strings.Join(using, " AND "), "Fetch 1 hour")
		for i := range n {
			p.srv.set(fmt.Sprintf("/page-%02d", i), []byte(pageWith("before")), false)
		}
		p.check(0)
		for i := range n {
			p.srv.set(fmt.Sprintf("/page-%02d", i), []byte(pageWith("after")), false)
		}
		p.check(time.Hour)
		msgs := p.messages()
		if len(msgs) != 1 {
			t.Fatalf("%d messages, want 1", len(msgs))
		}
		subject := msgs[0].Subject
		if c := utf8.RuneCountInString(subject); c > maxSubject {
			t.Errorf("subject of %d characters, want %d at most: %q", c, maxSubject, subject)
		}
		m := regexp.MustCompile(`; … and (\d+) more$`).FindStringSubmatch(subject)
		if m == nil {
			t.Fatalf("subject %q does not count the changes left out", subject)
		}
		kept := strings.Count(subject, ": any change: 1 text changed")
		if dropped, _ := strconv.Atoi(m[1]); kept+dropped != n {
			t.Errorf("subject names %d changes and counts %d more, want %d in all: %q", kept, dropped, n, subject)
		}
		for i := range n {
			if !strings.Contains(msgs[0].Text, fmt.Sprintf("on %s/page-%02d", p.base, i)) {
				t.Errorf("the text does not tell page-%02d's change", i)
			}
		}
	})
}
