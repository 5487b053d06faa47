package main

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestSyncDir: a directory syncs; a missing one is an error, not ignored;
// one on a file system that cannot sync a directory (procfs answers
// EINVAL, as some network and shared file systems do) is no error, since
// the rename before it is done: a key rotation told "the old key stays".
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
	if runtime.GOOS == "linux" {
		if err := syncDir("/proc"); err != nil {
			t.Errorf("syncDir(/proc), a file system that cannot sync a directory: %v", err)
		}
	}
}
