package render_test

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vigil-web/vigil/render"
)

// Characters as a reader sees them, each of more than one rune.
const (
	acute    = "e\u0301"                                                       // e and a combining acute accent
	thumb    = "👍🏽"                                                            // an emoji and its skin tone
	family   = "👨\u200d👩\u200d👧"                                               // a ZWJ sequence
	flags    = "🇫🇷🇩🇪"                                                          // two flags: four regional indicators
	heart    = "❤\ufe0f"                                                       // a variation selector
	scotland = "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f" // emoji tags
)

// TestClusterCut: a text is cut at i or the nearest place before it that
// splits no character as a reader sees it, else after it, within
// MaxClusterRunes.
func TestClusterCut(t *testing.T) {
	marks := strings.Repeat("\u0301", 40)
	many := strings.Repeat("\u0301", 1100) // more than MaxClusterRunes
	for _, tc := range []struct {
		name string
		text string
		i    int
		want int
	}{
		{"ascii unchanged", "hello", 2, 2},
		{"ascii at the start", "hello", 0, 0},
		{"ascii at the end", "hello", 5, 5},
		{"past the end", "hello", 9, 5},
		{"before an accent", acute + acute, 1, 0},
		{"between two accented letters", acute + acute, 2, 2},
		{"before the second accent", acute + acute, 3, 2},
		{"before a skin tone", thumb + thumb, 3, 2},
		{"after a skin tone", thumb + thumb, 2, 2},
		{"before a joiner", family + "x", 1, 0},
		{"after a joiner", family + "x", 2, 0},
		{"before the last of a family", family + "x", 4, 0},
		{"after a family", family + "x", 5, 5},
		{"inside the second family", family + family, 8, 5},
		{"inside the first flag", flags, 1, 0},
		{"between two flags", flags, 2, 2},
		{"inside the second flag", flags, 3, 2},
		{"flags paired from their run after a letter", "a" + flags, 3, 3},
		{"inside a flag after a letter", "a" + flags, 4, 3},
		{"inside a flag after a letter, first", "a" + flags, 2, 1},
		{"a third flag in the run", flags + "🇮🇹", 5, 4},
		{"a flag after a run of an odd length", "🇫" + "x" + flags, 4, 4},
		{"before a variation selector", heart + heart, 3, 2},
		{"after a variation selector", heart + heart, 2, 2},
		{"inside emoji tags", scotland + "x", 4, 0},
		{"after emoji tags", scotland + "x", 7, 7},
		{"a letter under dozens of marks is whole", "a" + marks + "b", 30, 0},
		{"a long cluster is cut after it, when near", "x" + "a" + many + "b", 1060, 1102},
		{"a cluster too long either way is cut where asked", "a" + many + many + many + "b", 1500, 1500},
		{"a run of regional indicators too long is cut where asked", "a" + strings.Repeat("🇫", 5000), 2000, 2000},
		{"a run of regional indicators, near its start", "a" + strings.Repeat("🇫", 5000), 1000, 999},
		{"a Hangul syllable in jamo", "\u1100\u1161\u11a8\u1100\u1161", 2, 0},
		{"a conjunct", "\u0915\u094d\u0937\u093f", 2, 0},
		{"CR LF", "a\r\nb", 2, 1},
	} {
		r := []rune(tc.text)
		if got := render.ClusterCut(r, tc.i); got != tc.want {
			t.Errorf("%s: ClusterCut(%.40q, %d) = %d, want %d", tc.name, tc.text, tc.i, got, tc.want)
		}
	}
}

// TestClusterCutWithin: ClusterCutBefore never returns a place after i,
// ClusterCutAfter never one before it, for a cut under a hard limit.
func TestClusterCutWithin(t *testing.T) {
	marks := strings.Repeat("\u0301", 40)
	many := strings.Repeat("\u0301", 1100) // more than MaxClusterRunes
	for _, tc := range []struct {
		name          string
		text          string
		i             int
		before, after int
	}{
		{"ascii", "hello", 2, 2, 2},
		{"inside a family", "x" + family + "x", 3, 1, 6},
		{"inside a flag", "a" + flags, 4, 3, 5},
		{"at a skin tone", thumb + thumb, 1, 0, 2},
		{"a letter under dozens of marks", "a" + marks + "b", 30, 0, 41},
		{"a long cluster", "x" + "a" + many + "b", 1060, 1060, 1102},
		{"a cluster too long", "a" + many + many + many + "b", 1500, 1500, 1500},
		{"inside a conjunct", "x\u0915\u094d\u0937x", 2, 1, 4},
	} {
		r := []rune(tc.text)
		if got := render.ClusterCutBefore(r, tc.i); got != tc.before {
			t.Errorf("%s: ClusterCutBefore(%.40q, %d) = %d, want %d", tc.name, tc.text, tc.i, got, tc.before)
		}
		if got := render.ClusterCutAfter(r, tc.i); got != tc.after {
			t.Errorf("%s: ClusterCutAfter(%.40q, %d) = %d, want %d", tc.name, tc.text, tc.i, got, tc.after)
		}
	}
}

// TestClusterBoundaryASCII: in a text of single-rune characters every
// place is a boundary.
func TestClusterBoundaryASCII(t *testing.T) {
	r := []rune("Hello, wörld! ½ ∑ 日本")
	for i := 0; i <= len(r); i++ {
		if !render.ClusterBoundary(r, i) || render.ClusterCut(r, i) != i {
			t.Errorf("%q: no boundary at %d", string(r), i)
		}
	}
}

// clusterUnits are the characters the tests of the views' cuts repeat.
var clusterUnits = map[string]string{
	"accent": acute, "skin tone": thumb, "family": family, "flags": flags,
	"variation selector": heart, "emoji tags": scotland,
}

// atClusters reports whether kept is a part of src that starts and ends
// at the edges of characters as a reader sees them.
func atClusters(src, kept string) bool {
	r := []rune(src)
	n := utf8.RuneCountInString(kept)
	for at := 0; at+len(kept) <= len(src); at++ {
		if strings.HasPrefix(src[at:], kept) && utf8.RuneStart(src[at]) {
			start := utf8.RuneCountInString(src[:at])
			if render.ClusterBoundary(r, start) && render.ClusterBoundary(r, start+n) {
				return true
			}
		}
	}
	return false
}

// nearLimit reports whether kept ends at the limit or at most a
// character of clusterUnits before it, as ClusterCut moves a cut to the
// nearest boundary before it.
func nearLimit(kept string, limit int) bool {
	n := utf8.RuneCountInString(kept)
	return limit-utf8.RuneCountInString(scotland) < n && n <= limit
}

// TestAttrChangeCutsAtClusters: an attribute's long values are cut, at
// their end and from before where they differ, at the edges of
// characters as a reader sees them; a cut left a lone skin tone, accent
// or half a flag at either end.
func TestAttrChangeCutsAtClusters(t *testing.T) {
	for name, unit := range clusterUnits {
		for pad := range 4 {
			body := strings.Repeat("p", pad) + strings.Repeat(unit, 300)
			for _, tc := range []struct {
				cut      string
				old, new string
			}{
				{"end", "x" + body, "y" + body},
				{"start", body + "x", body + "y"},
			} {
				got := render.AttrChange(tc.old, tc.new, tc.old, tc.new)
				before, rest, err := unquote(got)
				if err != nil {
					t.Fatalf("%s: %v", got, err)
				}
				after, _, err := unquote(strings.TrimPrefix(rest, " → "))
				if err != nil {
					t.Fatalf("%s: %v", got, err)
				}
				for _, side := range []struct{ src, shown string }{{tc.old, before}, {tc.new, after}} {
					kept := strings.TrimSuffix(strings.TrimPrefix(side.shown, "…"), "…")
					if kept == side.shown || !atClusters(side.src, kept) {
						t.Errorf("%s, pad %d, cut at the %s: %+q is not cut at characters", name, pad, tc.cut, side.shown)
					}
					if tc.cut == "end" && !nearLimit(kept, 200) {
						t.Errorf("%s, pad %d: kept %d characters, want about 200", name, pad, utf8.RuneCountInString(kept))
					}
				}
			}
		}
	}
}

// unquote reads the quoted string s starts with and returns it and the
// rest of s.
func unquote(s string) (string, string, error) {
	q, err := strconv.QuotedPrefix(s)
	if err != nil {
		return "", "", err
	}
	u, err := strconv.Unquote(q)
	return u, s[len(q):], err
}

// TestWriteTextCutsAtClusters: the text view cuts an updated, inserted or
// white-space-changed long text at the edges of characters as a reader
// sees them.
func TestWriteTextCutsAtClusters(t *testing.T) {
	for name, unit := range clusterUnits {
		for pad := range 4 {
			long := strings.Repeat("p", pad) + strings.Repeat(unit, 120)
			for _, tc := range []struct {
				change   string
				old, new string
				src      string // the text cut
				quoted   bool
			}{
				{"update", "<p>" + long + "</p>", "<p>short</p>", long, false},
				{"insert", "<p>a</p>", "<p>a</p><div>" + long + "</div>", long, false},
				{"white space", "<p>" + long + " <b>x</b></p>", "<p>" + long + "<b>x</b></p>", long + " ", true},
			} {
				old, d := pair(t, "<html><body>"+tc.old+"</body></html>", "<html><body>"+tc.new+"</body></html>")
				a, err := render.Annotate(old, d)
				if err != nil {
					t.Fatal(err)
				}
				var buf bytes.Buffer
				if err := a.WriteText(&buf); err != nil {
					t.Fatal(err)
				}
				out := buf.String()
				var shown string
				for line := range strings.Lines(out) {
					_, text, ok := strings.Cut(strings.TrimSuffix(line, "\n"), ": ")
					if ok && strings.Contains(text, "…") {
						shown, _, _ = strings.Cut(text, " → ")
					}
				}
				kept := strings.TrimSuffix(strings.TrimPrefix(shown, "…"), "…")
				if tc.quoted {
					if kept, err = strconv.Unquote(kept); err != nil {
						t.Errorf("%s, pad %d, %s: %v in\n%s", name, pad, tc.change, err, out)
						continue
					}
				}
				if shown == "" || !atClusters(tc.src, kept) {
					t.Errorf("%s, pad %d, %s: %+q is not cut at characters\n%s", name, pad, tc.change, shown, out)
				}
				if !tc.quoted && !nearLimit(kept, 200) {
					t.Errorf("%s, pad %d, %s: kept %d characters, want about 200", name, pad, tc.change, utf8.RuneCountInString(kept))
				}
			}
		}
	}
}

// graphemeBreakTests are lines in the form of Unicode's
// GraphemeBreakTest.txt (÷ a boundary, × none, between code points in
// hex), written by hand after its examples, one or more for each rule.
var graphemeBreakTests = []struct{ rule, line string }{
	{"GB3 CR LF", "÷ 000D × 000A ÷"},
	{"GB3 CR LF in a text", "÷ 0061 ÷ 000D × 000A ÷ 0062 ÷"},
	{"GB4 LF CR", "÷ 000A ÷ 000D ÷"},
	{"GB4 after a control", "÷ 0001 ÷ 0308 ÷"},
	{"GB4 after a soft hyphen", "÷ 0061 ÷ 00AD ÷ 0062 ÷"},
	{"GB5 before a control", "÷ 0061 × 0308 ÷ 0001 ÷"},
	{"GB5 before LF after a prepend", "÷ 0600 ÷ 000A ÷"},
	{"GB6 L V T (각)", "÷ 1100 × 1161 × 11A8 ÷"},
	{"GB6 L L LV", "÷ 1100 × 1100 × AC00 ÷"},
	{"GB7 LV T, then L", "÷ AC00 × 11A8 ÷ 1100 ÷"},
	{"GB7 LV V", "÷ AC00 × 1161 ÷"},
	{"GB8 LVT T", "÷ AC01 × 11A8 ÷"},
	{"GB999 LVT V", "÷ AC01 ÷ 1161 ÷"},
	{"GB999 T L", "÷ 11A8 ÷ 1100 ÷"},
	{"GB9 an accent", "÷ 0020 × 0308 ÷ 0020 ÷"},
	{"GB9 a zero-width non-joiner", "÷ 0020 × 200C ÷"},
	{"GB9 a skin tone", "÷ 1F476 × 1F3FF ÷ 1F476 ÷"},
	{"GB9 emoji tags (Scotland)", "÷ 1F3F4 × E0067 × E0062 × E0073 × E0063 × E0074 × E007F ÷ 0061 ÷"},
	{"GB9 a variation selector", "÷ 2764 × FE0F ÷ 2764 × FE0F ÷"},
	{"GB9a a spacing mark (कि)", "÷ 0915 × 093F ÷"},
	{"GB9a Thai sara am", "÷ 0E01 × 0E33 ÷ 0E01 ÷"},
	{"GB9b a prepend", "÷ 0600 × 0020 ÷"},
	{"GB9b Malayalam dot reph", "÷ 0D4E × 0D15 ÷"},
	{"GB9c a conjunct (क्ष)", "÷ 0915 × 094D × 0937 ÷"},
	{"GB9c with a joiner", "÷ 0915 × 094D × 200D × 0924 ÷"},
	{"GB9c two viramas", "÷ 0915 × 094D × 094D × 0924 ÷"},
	{"GB9c a mark before the virama", "÷ 0915 × 0300 × 094D × 0924 ÷"},
	{"GB9c three consonants", "÷ 0915 × 094D × 0924 × 094D × 092F ÷"},
	{"GB9c no virama", "÷ 0915 × 0300 ÷ 0924 ÷"},
	{"GB9c a virama not after a consonant", "÷ 0061 × 094D ÷ 0924 ÷"},
	{"GB9c a virama before a letter", "÷ 0915 × 094D ÷ 0061 ÷"},
	{"GB9c Bengali", "÷ 0995 × 09CD × 09B7 ÷"},
	{"GB11 a family", "÷ 1F468 × 200D × 1F469 × 200D × 1F467 ÷"},
	{"GB11 two stop signs", "÷ 1F6D1 × 200D × 1F6D1 ÷"},
	{"GB11 a joiner after a letter", "÷ 0061 × 200D ÷ 1F6D1 ÷"},
	{"GB11 a dingbat", "÷ 2701 × 200D × 2701 ÷"},
	{"GB11 a joiner after a letter, then a dingbat", "÷ 0061 × 200D ÷ 2701 ÷"},
	{"GB11 marks before the joiner", "÷ 1F476 × 1F3FF × 0308 × 200D × 1F476 × 1F3FF ÷"},
	{"GB11 two joiners", "÷ 1F6D1 × 200D × 200D ÷ 1F6D1 ÷"},
	{"GB12 a flag and a lone indicator", "÷ 1F1E6 × 1F1E7 ÷ 1F1E8 ÷ 0062 ÷"},
	{"GB13 two flags after a letter", "÷ 0061 ÷ 1F1E6 × 1F1E7 ÷ 1F1E8 × 1F1E9 ÷ 0062 ÷"},
	{"GB13 a joiner after a flag", "÷ 0061 ÷ 1F1E6 × 1F1E7 × 200D ÷ 1F1E8 ÷ 0062 ÷"},
	{"GB13 a joiner inside a flag", "÷ 0061 ÷ 1F1E6 × 200D ÷ 1F1E7 × 1F1E8 ÷ 0062 ÷"},
	{"GB999 letters", "÷ 0061 ÷ 0062 ÷"},
}

// parseBreakTest returns the runes of a line of graphemeBreakTests and
// the places that are boundaries.
func parseBreakTest(t *testing.T, line string) ([]rune, []bool) {
	t.Helper()
	var r []rune
	var at []bool
	for _, f := range strings.Fields(line) {
		switch f {
		case "÷", "×":
			at = append(at, f == "÷")
		default:
			n, err := strconv.ParseUint(f, 16, 32)
			if err != nil {
				t.Fatalf("%q: %v", line, err)
			}
			r = append(r, rune(n))
		}
	}
	if len(at) != len(r)+1 {
		t.Fatalf("%q: %d marks for %d code points", line, len(at), len(r))
	}
	return r, at
}

// TestClusterBoundaryUAX29: ClusterBoundary puts a boundary where
// Unicode's grapheme break tests do and none elsewhere, and each cut
// finds the nearest one.
func TestClusterBoundaryUAX29(t *testing.T) {
	for _, tc := range graphemeBreakTests {
		r, at := parseBreakTest(t, tc.line)
		for i := range at {
			if got := render.ClusterBoundary(r, i); got != at[i] {
				t.Errorf("%s: %s: ClusterBoundary at %d = %v, want %v", tc.rule, tc.line, i, got, at[i])
			}
			before, after := i, i
			for !at[before] {
				before--
			}
			for !at[after] {
				after++
			}
			if got := render.ClusterCutBefore(r, i); got != before {
				t.Errorf("%s: %s: ClusterCutBefore(%d) = %d, want %d", tc.rule, tc.line, i, got, before)
			}
			if got := render.ClusterCutAfter(r, i); got != after {
				t.Errorf("%s: %s: ClusterCutAfter(%d) = %d, want %d", tc.rule, tc.line, i, got, after)
			}
			if got := render.ClusterCut(r, i); got != before {
				t.Errorf("%s: %s: ClusterCut(%d) = %d, want %d", tc.rule, tc.line, i, got, before)
			}
		}
	}
}

// clusterAlphabet are runes of each class the rules tell apart, for the
// property tests.
var clusterAlphabet = []rune{
	'a', ' ', '\r', '\n', 0x01, 0xAD, 0x0301, 0x0308, 0x200C, zwjRune, 0xFE0F,
	0x1F3FD, 0x1F1EB, 0x1F1F7, 0x1F468, 0x1F6D1, 0x00A9, 0x2701,
	0x1100, 0x1161, 0x11A8, 0xAC00, 0xAC01, 0x0600, 0x0D4E, 0x0903, 0x093F,
	0x0915, 0x0937, 0x094D, 0x0E33, 0xE0067, 0xE007F, 0xD800, -1, 0x110000,
}

const zwjRune = 0x200D

// randomClusterText returns n runes drawn from clusterAlphabet, in runs
// of one to long so that runs of marks, joiners and regional indicators
// longer than MaxClusterRunes occur.
func randomClusterText(rng *rand.Rand, n int) []rune {
	r := make([]rune, 0, n)
	for len(r) < n {
		c := clusterAlphabet[rng.IntN(len(clusterAlphabet))]
		run := 1
		if rng.IntN(8) == 0 {
			run = rng.IntN(3 * render.MaxClusterRunes)
		}
		for ; run > 0 && len(r) < n; run-- {
			r = append(r, c)
		}
	}
	return r
}

// TestClusterCutProperties: on random texts, each cut is a boundary or
// the place asked, within r and on its side of it, and where the text is
// shorter than MaxClusterRunes the nearest boundary.
func TestClusterCutProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 29))
	for range 300 {
		n := rng.IntN(60)
		if rng.IntN(10) == 0 {
			n = rng.IntN(5 * render.MaxClusterRunes)
		}
		r := randomClusterText(rng, n)
		boundary := make([]bool, len(r)+1)
		for i := range boundary {
			boundary[i] = render.ClusterBoundary(r, i)
		}
		for range 20 {
			i := rng.IntN(len(r)+3) - 1
			at := min(max(i, 0), len(r))
			short := len(r) <= render.MaxClusterRunes
			c := render.ClusterCut(r, i)
			if c < 0 || c > len(r) || c != at && !boundary[c] {
				t.Fatalf("%.40q (%d runes): ClusterCut(%d) = %d, not a boundary", string(r), len(r), i, c)
			}
			b := render.ClusterCutBefore(r, i)
			if b < 0 || b > at || b != at && !boundary[b] {
				t.Fatalf("%.40q (%d runes): ClusterCutBefore(%d) = %d", string(r), len(r), i, b)
			}
			a := render.ClusterCutAfter(r, i)
			if a < at || a > len(r) || a != at && !boundary[a] {
				t.Fatalf("%.40q (%d runes): ClusterCutAfter(%d) = %d", string(r), len(r), i, a)
			}
			if short && (!boundary[b] || !boundary[a] || c != b) {
				t.Fatalf("%.40q: a cut in a short text at %d is not at a boundary: %d, %d, %d", string(r), i, c, b, a)
			}
			for p := b + 1; short && p <= at; p++ {
				if boundary[p] {
					t.Fatalf("%.40q: ClusterCutBefore(%d) = %d passes the boundary %d", string(r), i, b, p)
				}
			}
			for p := at; short && p < a; p++ {
				if boundary[p] {
					t.Fatalf("%.40q: ClusterCutAfter(%d) = %d passes the boundary %d", string(r), i, a, p)
				}
			}
		}
	}
}

// FuzzClusterCut: no cut panics, each is within r, ClusterCutBefore is
// never after the place asked, ClusterCutAfter never before it, and each
// is a boundary or that place.
func FuzzClusterCut(f *testing.F) {
	for _, tc := range graphemeBreakTests {
		var b strings.Builder
		for _, fld := range strings.Fields(tc.line) {
			if n, err := strconv.ParseUint(fld, 16, 32); err == nil {
				b.WriteRune(rune(n))
			}
		}
		f.Add(b.String(), 1)
	}
	f.Add("a"+strings.Repeat("\u0301", 1100)+"b", 1060)
	f.Add(strings.Repeat("🇫", 2100), 1500)
	f.Add("\xff\xfe e\u0301", -3)
	f.Add(family+flags+thumb, 99)
	f.Fuzz(func(t *testing.T, s string, i int) {
		r := []rune(s)
		at := min(max(i, 0), len(r))
		c := render.ClusterCut(r, i)
		if c < 0 || c > len(r) || c != at && !render.ClusterBoundary(r, c) {
			t.Errorf("ClusterCut(%+q, %d) = %d", s, i, c)
		}
		if b := render.ClusterCutBefore(r, i); b < 0 || b > at || b != at && !render.ClusterBoundary(r, b) {
			t.Errorf("ClusterCutBefore(%+q, %d) = %d", s, i, b)
		}
		if a := render.ClusterCutAfter(r, i); a < at || a > len(r) || a != at && !render.ClusterBoundary(r, a) {
			t.Errorf("ClusterCutAfter(%+q, %d) = %d", s, i, a)
		}
	})
}

// BenchmarkClusterCut cuts a text at a place that is a boundary, inside
// an emoji ZWJ sequence, and inside a cluster longer than
// MaxClusterRunes, the worst case.
func BenchmarkClusterCut(b *testing.B) {
	for _, bc := range []struct {
		name string
		text string
		i    int
	}{
		{"ascii", strings.Repeat("word ", 400), 1000},
		{"family", strings.Repeat(family, 400), 1002},
		{"marks", "a" + strings.Repeat("\u0301", 4000), 2000},
	} {
		r := []rune(bc.text)
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				render.ClusterCut(r, bc.i)
			}
		})
	}
}
