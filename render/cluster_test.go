package render_test

import (
	"bytes"
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
		{"a long cluster is cut after it, when near", "a" + marks + "b", 30, 41},
		{"a cluster too long either way is cut where asked", "a" + marks + marks + "b", 40, 40},
	} {
		r := []rune(tc.text)
		if got := render.ClusterCut(r, tc.i); got != tc.want {
			t.Errorf("%s: ClusterCut(%+q, %d) = %d, want %d", tc.name, tc.text, tc.i, got, tc.want)
		}
	}
}

// TestClusterCutWithin: ClusterCutBefore never returns a place after i,
// ClusterCutAfter never one before it, for a cut under a hard limit.
func TestClusterCutWithin(t *testing.T) {
	marks := strings.Repeat("\u0301", 40)
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
		{"a long cluster", "a" + marks + "b", 30, 30, 41},
		{"a cluster too long", "a" + marks + marks + "b", 40, 40, 40},
	} {
		r := []rune(tc.text)
		if got := render.ClusterCutBefore(r, tc.i); got != tc.before {
			t.Errorf("%s: ClusterCutBefore(%+q, %d) = %d, want %d", tc.name, tc.text, tc.i, got, tc.before)
		}
		if got := render.ClusterCutAfter(r, tc.i); got != tc.after {
			t.Errorf("%s: ClusterCutAfter(%+q, %d) = %d, want %d", tc.name, tc.text, tc.i, got, tc.after)
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

// nearLimit reports whether kept is within MaxClusterRunes characters of
// the limit, as ClusterCut moves a cut.
func nearLimit(kept string, limit int) bool {
	n := utf8.RuneCountInString(kept)
	return limit-render.MaxClusterRunes <= n && n <= limit+render.MaxClusterRunes
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
