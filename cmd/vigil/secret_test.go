package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadSecret: a secret is made once and read back; a file too short to
// be one is an error, not a loop.
func TestLoadSecret(t *testing.T) {
	dir := t.TempDir()
	a, created, err := loadSecret(dir, "k")
	if err != nil || !created || len(a) < 32 {
		t.Fatalf("first: %q %v %v", a, created, err)
	}
	b, created, err := loadSecret(dir, "k")
	if err != nil || created || string(b) != string(a) {
		t.Fatalf("again: %q %v %v", b, created, err)
	}
	if err := os.WriteFile(filepath.Join(dir, "short"), []byte("abc\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := loadSecret(dir, "short"); err == nil || !strings.Contains(err.Error(), "fewer than the 32") {
		t.Errorf("short file: %v", err)
	}
}
