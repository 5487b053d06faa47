package main

import (
	"strings"
	"testing"
)

// TestSummaryShowsNormalisationChange: a summary line never shows a change
// as two texts that read alike; where only the Unicode form of a character
// changed (e and a combining acute accent for a precomposed é), the texts
// are shown escaped past ASCII and said to be the same text, where the
// line read "...ééé" -> "...ééé".
func TestSummaryShowsNormalisationChange(t *testing.T) {
	for _, tc := range []struct{ name, old, new, want string }{
		{"text", "<r><p>" + strings.Repeat("e\u0301", 80) + "</p></r>", "<r><p>" + strings.Repeat("e\u0301", 79) + "é</p></r>",
			`update  /r[1]/p[1]/text()[1]: "...` + strings.Repeat(`e\u0301`, 11) + `" -> "...` + strings.Repeat(`e\u0301`, 10) + `\u00e9" (the same text in another Unicode normalisation form)`},
		{"attribute", `<r><p k="café"/></r>`, "<r><p k=\"cafe\u0301\"/></r>",
			`attr    /r[1]/p[1]: @k "caf\u00e9" -> "cafe\u0301" (the same text in another Unicode normalisation form)`},
		{"another character", `<r><p>café</p></r>`, `<r><p>cafè</p></r>`,
			`update  /r[1]/p[1]/text()[1]: "café" -> "cafè"`},
	} {
		dir := t.TempDir()
		a, b := writeFile(t, dir, "a.xml", tc.old), writeFile(t, dir, "b.xml", tc.new)
		code, out, errOut := runCLI(t, "", "diff", "--format", "summary", a, b)
		if code != exitChanged || !strings.Contains(out, "\n"+tc.want+"\n") {
			t.Errorf("%s: exit %d %s\n%s\nwant the line %s", tc.name, code, errOut, out, tc.want)
		}
	}
}
