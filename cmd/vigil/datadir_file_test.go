package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDataIsAFile: a --data that names a file (a sentinel file given in
// its place) is refused by every command that uses the data directory
// with one message, where they said "no store in" for a missing
// directory but "data directory: mkdir a.ssl: not a directory" here.
func TestDataIsAFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.ssl")
	const src = "Create Sentinel news Using https://example.com/\nMonitor any change\nFetch 1 day\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	want := "--data " + file + " is a file, not a data directory"
	for _, args := range [][]string{
		{"sentinel", "list"},
		{"sentinel", "add", "--owner", "ops@example.test", file},
		{"sentinel", "rm", "news"},
		{"sentinel", "feed", "news"},
		{"user", "list"},
		{"user", "add", "--password-stdin", "ann@example.test"},
		{"keys", "rotate", "feed"},
		{"backup", filepath.Join(dir, "copy.db")},
		{"export", "warc", "--all"},
		{"import", "warc", file},
	} {
		t.Run(strings.Join(args[:2], " "), func(t *testing.T) {
			args := append(args[:len(args):len(args)], "--data", file)
			code, _, errOut := runCLI(t, "secret-password\n", args...)
			if code != exitError || !strings.Contains(errOut, want) {
				t.Errorf("exit %d, stderr %q, want %q", code, errOut, want)
			}
			b, err := os.ReadFile(file)
			if err != nil || string(b) != src {
				t.Errorf("the file changed: %q, %v", b, err)
			}
		})
	}
}
