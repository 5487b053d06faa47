package main

import (
	"strings"
	"testing"
)

// TestLimitErrorsInUserTerms: an input past one of the parser's limits is
// refused naming the flag that changes the limit, or saying it is fixed,
// never a Go identifier such as Options.MaxDepth.
func TestLimitErrorsInUserTerms(t *testing.T) {
	dir := t.TempDir()
	small := writeFile(t, dir, "small.xml", "<r>x</r>")
	deep := writeFile(t, dir, "deep.xml", strings.Repeat("<r>", 1_000_001)+strings.Repeat("</r>", 1_000_001))
	var bomb strings.Builder
	bomb.WriteString(`<!DOCTYPE r [<!ENTITY e0 "` + strings.Repeat("x", 1000) + `">`)
	for i := 1; i <= 8; i++ {
		bomb.WriteString("<!ENTITY e" + string(rune('0'+i)) + ` "` + strings.Repeat("&e"+string(rune('0'+i-1))+";", 10) + `">`)
	}
	bomb.WriteString("]><r>&e8;</r>")
	bombPath := writeFile(t, dir, "bomb.xml", bomb.String())
	for _, tc := range []struct {
		name string
		args []string
		want string // what the message says instead
	}{
		{"file size", []string{"diff", "--max-bytes", "4", small, small}, "--max-bytes"},
		{"depth", []string{"diff", deep, small}, "elements nested deeper than the limit of 1000000 (a fixed limit)"},
		{"entity expansion", []string{"diff", small, bombPath}, "refused as a possible entity bomb (a fixed limit)"},
		{"entity expansion in patch", []string{"patch", bombPath, small}, "refused as a possible entity bomb (a fixed limit)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := runCLI(t, "", tc.args...)
			if code != exitError || strings.Contains(errOut, "Options.") || !strings.Contains(errOut, tc.want) {
				t.Errorf("vigil %s: exit %d, stderr %q; want exit %d and %q, no Go identifier", strings.Join(tc.args, " "), code, errOut, exitError, tc.want)
			}
		})
	}
}
