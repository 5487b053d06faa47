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
