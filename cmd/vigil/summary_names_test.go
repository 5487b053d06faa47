package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestSummaryQuotesOddFileNames: the summary is a line a change, its first
// the two files' names; a name holding a line break or another control
// character is quoted, as the texts of the changes are, so that it does not
// break that line in two.
func TestSummaryQuotesOddFileNames(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "old.xml")
	odd := filepath.Join(dir, "new\nline\r.xml")
	for name, content := range map[string]string{old: "<r>x</r>", odd: "<r>y</r>"} {
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := runCLI(t, "", "diff", "--format", "summary", old, odd)
	if code != exitChanged {
		t.Fatalf("diff --format summary: exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	want := old + " -> " + strconv.Quote(odd) + ": "
	if len(lines) != 2 || !strings.HasPrefix(lines[0], want) {
		t.Errorf("summary:\n%s\nwant two lines, the first starting %q", out, want)
	}
}

// TestLineNameQuotesUnprintable: a name is quoted when %q would escape a
// character of it, as the texts of the changes are: a control character,
// and a bidirectional override (U+202E) or a line separator (U+2028),
// which would reorder or break the line in a terminal or an editor.
func TestLineNameQuotesUnprintable(t *testing.T) {
	for name, quoted := range map[string]bool{
		"old.xml":           false,
		"a b/café.xml":      false,
		"new\nline.xml":     true,
		"lmx.\u202enew.xml": true,
		"a\u2028b.xml":      true,
		"bad\xffutf8.xml":   true,
		"\u05e2\u05d1.xml":  false,
	} {
		got := lineName(name)
		if want := strconv.Quote(name); quoted && got != want || !quoted && got != name {
			t.Errorf("lineName(%q) = %s, want quoted %v", name, got, quoted)
		}
	}
}
