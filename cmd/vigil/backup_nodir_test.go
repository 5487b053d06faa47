package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestBackupIntoMissingFolder: a backup to a file in a folder that does
// not exist says what it could not make, once: "vigil backup: backup:
// open ..." said backup twice and not that the copy's file was meant.
func TestBackupIntoMissingFolder(t *testing.T) {
	data := t.TempDir()
	addSentinels(t, data, "Create Sentinel news Using https://example.com/\n")
	dest := filepath.Join(t.TempDir(), "no-such-folder", "copy.db")
	code, _, errOut := runVigil(t, "", "backup", "--data", data, dest)
	want := "vigil backup: the copy's file: open " + dest + ": no such file or directory"
	if code != exitError || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, stderr %q; want 2 and %q", code, errOut, want)
	}
}
