package intent

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/spec"
)

// TestInvisibleCharacters: the format characters a browser draws as
// nothing (U+200B ZERO WIDTH SPACE, U+2060 WORD JOINER, U+FEFF ZERO WIDTH
// NO-BREAK SPACE, the invisible operators U+2061-U+2064) are left out as
// soft hyphens are: a word is read without them (Re&#8203;funds is
// "Refunds"), a change that only adds or removes them (or a soft hyphen)
// is no change, and a change shows its texts without them. ZWJ and ZWNJ
// (U+200D, U+200C) are left out likewise between Latin, Greek or Cyrillic
// letters, digits, punctuation and white space, where they change nothing
// a reader sees, but kept next to other letters, marks and symbols (an
// emoji sequence, Persian, the scripts of India), where they change the
// shapes a browser draws; matching leaves them out everywhere, as Unicode's
// collation does. The bidirectional marks, embeddings, overrides and
// isolates (U+200E, U+200F, U+202A-U+202E, U+2066-U+2069, U+061C) are left
// out too: they order the letters a reader sees, but are not among them.
func TestInvisibleCharacters(t *testing.T) {
	page := func(body string) string { return "<html><body>" + body + "</body></html>" }
	for _, tc := range []struct {
		name, old, new, clause string
		want                   []string // Line of each change; nil for no change
	}{
		{"keyword across U+200B", page(`<p>Shipping</p>`), page(`<p>Shipping. Re&#8203;funds in 5 days</p>`), `keywords {Refunds}`,
			[]string{"+ keyword added: Refunds"}},
		{"keyword across U+2060", page(`<p>Shipping</p>`), page("<p>Shipping. Re\u2060funds in 5 days</p>"), `keywords {Refunds}`,
			[]string{"+ keyword added: Refunds"}},
		{"keyword across U+FEFF", page(`<p>Shipping</p>`), page("<p>Shipping. Re\ufefffunds in 5 days</p>"), `keywords {Refunds}`,
			[]string{"+ keyword added: Refunds"}},
		{"keyword across ZWJ in Latin", page(`<p>Shipping</p>`), page("<p>Shipping. Re\u200dfunds in 5 days</p>"), `keywords {Refunds}`,
			[]string{"+ keyword added: Refunds"}},
		{"keyword across an element holding U+200B", page(`<p>Shipping</p>`), page(`<p>Shipping. Re<span>&#8203;</span>funds in 5 days</p>`), `keywords {Refunds}`,
			[]string{"+ keyword added: Refunds"}},
		{"phrase across U+200B", page(`<p>Shipping</p>`), page(`<p>Shipping. Refunds are&#8203; pa&#8203;id</p>`), `phrase {"refunds are paid"}`,
			[]string{"+ phrase added: refunds are paid"}},
		{"regular expression across U+200B", page(`<p>Shipping</p>`), page(`<p>Shipping. Re&#8203;funds</p>`), `regex {"Refunds$"}`,
			[]string{"+ match added: Refunds"}},
		{"any change: U+200B added", page(`<p>Refunds in 5 days</p>`), page(`<p>Re&#8203;funds in 5 days</p>`), `any change`, nil},
		{"any change: U+FEFF and U+2060 added", page(`<p>Refunds in 5 days</p>`), page("<p>\ufeffRefunds in\u2060 5 days</p>"), `any change`, nil},
		{"any change: soft hyphen added", page(`<p>Donaudampfschiff</p>`), page(`<p>Donau&shy;dampf&shy;schiff</p>`), `any change`, nil},
		{"any change: ZWJ in Latin added", page(`<p>Refunds</p>`), page("<p>Re\u200dfunds</p>"), `any change`, nil},
		{"any change: alt with U+200B", page(`<img src="/a.png" alt="Refunds">`), page(`<img src="/a.png" alt="Re&#8203;funds">`), `any change`, nil},
		{"any change: ZWJ of an emoji kept", page("<p>Family \U0001F468\u200d\U0001F469\u200d\U0001F467</p>"), page("<p>Family \U0001F468\U0001F469\U0001F467</p>"), `any change`,
			[]string{"~ text changed: Family \U0001F468\u200d\U0001F469\u200d\U0001F467 -> Family \U0001F468\U0001F469\U0001F467"}},
		{"any change: ZWNJ of Persian kept", page("<p>\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645</p>"), page("<p>\u0645\u06cc\u062e\u0648\u0627\u0647\u0645</p>"), `any change`,
			[]string{"~ text changed: \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645 -> \u0645\u06cc\u062e\u0648\u0627\u0647\u0645"}},
		{"all words: U+200B added", page(`<p>Refunds in 5 days</p>`), page(`<p>Re&#8203;funds in 5&#8203; days</p>`), `all words`, nil},
		{"all words: ZWNJ of Persian added", page("<p>\u0645\u06cc\u062e\u0648\u0627\u0647\u0645</p>"), page("<p>\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645</p>"), `all words`, nil},
		{"words shown without U+200B", page(`<p>Ein Schiff</p>`), page(`<p>Ein Re&#8203;funds</p>`), `all words`,
			[]string{"~ words changed: Schiff -> Refunds"}},
		{"any change: RLM added", page(`<p>Call 555-0100</p>`), page("<p>Call 555-0100\u200f</p>"), `any change`, nil},
		{"any change: LRM and ALM added", page(`<p>Price 20 USD</p>`), page("<p>Price\u200e 20\u061c USD</p>"), `any change`, nil},
		{"any change: isolates added", page("<p>User \u05d3\u05e0\u05d4 posted</p>"), page("<p>User \u2067\u05d3\u05e0\u05d4\u2069 posted</p>"), `any change`, nil},
		{"any change: embedding and override added", page(`<p>Refunds in 5 days</p>`), page("<p>\u202aRefunds\u202c in \u202b5\u202c \u202ddays\u202e\u202c</p>"), `any change`, nil},
		{"keyword across RLM", page(`<p>Shipping</p>`), page("<p>Shipping. Re\u200ffunds in 5 days</p>"), `keywords {Refunds}`,
			[]string{"+ keyword added: Refunds"}},
		{"words shown without bidi marks", page(`<p>Ein Schiff</p>`), page("<p>Ein \u2068Refunds\u2069\u200e</p>"), `all words`,
			[]string{"~ words changed: Schiff -> Refunds"}},
		{"list item label shown without U+200B", page(`<ul><li>Re&#8203;funds<ul><li>a</li></ul></li></ul>`), page(`<ul><li>Re&#8203;funds<ul><li>a</li><li>b</li></ul></li></ul>`), `list`,
			[]string{"+ list item added in Refunds: b"}},
	} {
		r := evalClause(t, tc.old, tc.new, tc.clause)
		var got []string
		for _, c := range r.Changes {
			got = append(got, c.Line())
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: lines %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestWordKeyInvisible: a word's comparison form leaves out the invisible
// format characters, ZWJ and ZWNJ among them, as it leaves out soft
// hyphens.
func TestWordKeyInvisible(t *testing.T) {
	for _, c := range []struct{ word, key string }{
		{"Re\u200bfunds", "refunds"},
		{"Re\u2060funds", "refunds"},
		{"\ufeffRefunds", "refunds"},
		{"Re\u200dfunds", "refunds"},
		{"Re\u200cfunds", "refunds"},
		{"x\u2062y", "xy"},
		{"\u200b\u200b", ""},
		{"Re\u200efunds\u200f", "refunds"},
		{"\u202aRefunds\u202c", "refunds"},
		{"\u2066Re\u2067fu\u2068nds\u2069", "refunds"},
		{"\u202b\u202d\u202e\u061c", ""},
		{"\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", "\u0645\u06cc\u062e\u0648\u0627\u0647\u0645"},
	} {
		if got := spec.WordKey(c.word, false); got != c.key {
			t.Errorf("spec.WordKey(%q) = %q, want %q", c.word, got, c.key)
		}
	}
}

// TestLeaveOutInvisibleRuns: a run of invisible characters is left out
// where the characters around it are drawn the same without it, and keeps
// its joiners, in order, where one of them may change a shape.
func TestLeaveOutInvisibleRuns(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"a\u200d\u200b\u200db", "ab"},
		{"\u200d\u200d", ""},
		{"\u200da", "a"},
		{"a\u200d", "a"},
		{"\u0915\u200b\u200d\u00ad\u200c\u0937", "\u0915\u200d\u200c\u0937"},
		{"a\u200b\u200d\u0937", "a\u200d\u0937"},
		{"\u0915\u200d", "\u0915\u200d"},
		{"\u0915\u200f\u200d\u2066\u0937", "\u0915\u200d\u0937"},
		{"\u200ea\u202bb\u202c\u2069\u061c", "ab"},
		{"\U0001F468\u200d\U0001F469 a\u200db", "\U0001F468\u200d\U0001F469 ab"},
		{"a" + strings.Repeat("\u200b\u200d", 50_000) + "b", "ab"},
	} {
		if got := leaveOutInvisible(c.in); got != c.want {
			t.Errorf("leaveOutInvisible(%+q) = %+q, want %+q", testClip(c.in), got, c.want)
		}
	}
}

// testClip shortens a test's input for its message.
func testClip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// BenchmarkLeaveOutInvisibleRun: a run of joiners costs its length (the
// run was read again for each of its joiners, quadratic, before).
func BenchmarkLeaveOutInvisibleRun(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		s := "a" + strings.Repeat("\u200b\u200d", n) + "b"
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				leaveOutInvisible(s)
			}
		})
	}
}
