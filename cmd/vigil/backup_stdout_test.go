package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBackupRefusesStandardOutput: every other command reads "-" as
// standard input or output, but a backup is a file that SQLite writes
// and syncs itself (VACUUM INTO), and vigil backup says on standard
// output what it wrote: it refuses "-" and says why, where it wrote a
// file named "-".
func TestBackupRefusesStandardOutput(t *testing.T) {
	data := t.TempDir()
	src := filepath.Join(t.TempDir(), "s.ssl")
	if err := os.WriteFile(src, []byte("Create Sentinel news Using https://example.com/\nMonitor any change\nFetch 1 day\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI(t, "", "sentinel", "add", "--data", data, "--owner", "ops@example.test", src); code != exitOK {
		t.Fatalf("sentinel add: exit %d: %s", code, errOut)
	}
	cwd := t.TempDir()
	t.Chdir(cwd)
	code, out, errOut := runCLI(t, "", "backup", "--data", data, "-")
	if code != exitError || out != "" {
		t.Errorf("exit %d, output %q, want an error and no output", code, out)
	}
	for _, want := range []string{"standard output", "file name"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr %q does not say %q", errOut, want)
		}
	}
	if _, err := os.Stat(filepath.Join(cwd, "-")); err == nil {
		t.Errorf("vigil backup - wrote a file named -")
	}
}
