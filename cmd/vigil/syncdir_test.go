package main

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestSyncDir: a directory syncs; a missing one is an error, not ignored.
func TestSyncDir(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := syncDir(dir); err != nil {
		t.Errorf("syncDir(%s): %v", dir, err)
	}
	if runtime.GOOS != "windows" {
		if err := syncDir(filepath.Join(dir, "missing")); err == nil {
			t.Error("syncDir of a missing directory: no error")
		}
	}
}
