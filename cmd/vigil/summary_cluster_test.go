package main

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestSummaryClipsAtCharacters: a summary cuts a long text where a reader
// sees one character end and the next begin, never between a letter and
// its accent, an emoji and its skin tone or ZWJ sequence, or the two
// regional indicators of a flag; a cut left a lone skin-tone modifier
// after the "...".
func TestSummaryClipsAtCharacters(t *testing.T) {
	const (
		thumb  = "👍🏽"
		dark   = "👍🏿"
		acute  = "e\u0301"
		family = "👨\u200d👩\u200d👧"
		flags  = "🇫🇷🇩🇪"
	)
	for _, tc := range []struct{ name, old, new, wantOld, wantNew string }{
		{"skin tone at the start", strings.Repeat(thumb, 50), strings.Repeat(thumb, 49) + dark,
			"..." + strings.Repeat(thumb, 11), "..." + strings.Repeat(thumb, 10) + dark},
		{"accent at the start", strings.Repeat(acute, 40) + "ax", strings.Repeat(acute, 40) + "ay",
			"..." + strings.Repeat(acute, 10) + "ax", "..." + strings.Repeat(acute, 10) + "ay"},
		{"accent at the end", strings.Repeat("a", 40) + strings.Repeat(acute, 20), "b",
			strings.Repeat("a", 40) + strings.Repeat(acute, 8) + "...", "b"},
		{"after a joiner at the end", strings.Repeat("x", 55) + strings.Repeat(family, 3), "b",
			strings.Repeat("x", 55) + "...", "b"},
		{"skin tone at the end", strings.Repeat("x", 56) + strings.Repeat(thumb, 3), "b",
			strings.Repeat("x", 56) + "...", "b"},
		{"whole clusters kept", strings.Repeat("x", 55) + strings.Repeat(thumb, 3), "b",
			strings.Repeat("x", 55) + thumb + "...", "b"},
		{"inside a flag at the end", strings.Repeat("x", 56) + strings.Repeat(flags, 2), "b",
			strings.Repeat("x", 56) + "...", "b"},
		{"between flags at the end", strings.Repeat("x", 55) + strings.Repeat(flags, 2), "b",
			strings.Repeat("x", 55) + "🇫🇷...", "b"},
	} {
		a, b := contrast(tc.old, tc.new)
		if a != tc.wantOld || b != tc.wantNew {
			t.Errorf("%s: got %q -> %q\nwant %q -> %q", tc.name, a, b, tc.wantOld, tc.wantNew)
		}
	}
}

// TestSummaryUpdateKeepsSkinTone runs the case of the report through
// vigil diff --format summary.
func TestSummaryUpdateKeepsSkinTone(t *testing.T) {
	dir := t.TempDir()
	a := writeFile(t, dir, "a.xml", "<r><p>"+strings.Repeat("👍🏽", 50)+"</p></r>")
	b := writeFile(t, dir, "b.xml", "<r><p>"+strings.Repeat("👍🏽", 49)+"👍🏿</p></r>")
	code, out, errOut := runCLI(t, "", "diff", "--format", "summary", a, b)
	want := `update  /r[1]/p[1]/text()[1]: "...` + strings.Repeat("👍🏽", 11) + `" -> "...` + strings.Repeat("👍🏽", 10) + `👍🏿"`
	if code != exitChanged || !strings.Contains(out, "\n"+want+"\n") {
		t.Errorf("exit %d %s\n%s\nwant the line %s", code, errOut, out, want)
	}
}

// TestSummaryClipsUnderTheLimit: a summary's text is never longer than
// clipRunes characters, and a cut inside a cluster longer than
// render.MaxClusterRunes ends before it; ClusterCut looked past the
// cluster, past the end of the shorter text, and panicked.
func TestSummaryClipsUnderTheLimit(t *testing.T) {
	marks := strings.Repeat("\u0301", 1100) // more than render.MaxClusterRunes
	for _, tc := range []struct{ name, old, new string }{
		{"a long cluster, the new text ending inside it", "a" + marks + "Z", "a" + marks[:2*1090]},
		{"a long cluster, the old text ending inside it", "a" + marks[:2*1090], "a" + marks + "Z"},
		{"a long cluster at the start", "a" + marks + "x", "b"},
		{"a long cluster at the end", strings.Repeat("x", 50) + "a" + marks, "b"},
		{"flags", strings.Repeat("🇫🇷", 100) + "x", strings.Repeat("🇫🇷", 100) + "y"},
		{"a conjunct at the limit", strings.Repeat("x", 56) + "\u0915\u094d\u0937", "b"},
	} {
		a, b := contrast(tc.old, tc.new)
		for _, s := range []string{a, b} {
			if n := utf8.RuneCountInString(s); n > clipRunes {
				t.Errorf("%s: %.40q has %d characters, more than %d", tc.name, s, n, clipRunes)
			}
		}
	}
	if got, want := clip(strings.Repeat("x", 55)+"\u0915\u094d\u0937yzw"), strings.Repeat("x", 55)+"..."; got != want {
		t.Errorf("a conjunct at the limit: clip = %q, want %q", got, want)
	}
}
