package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
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

// TestLoadSecretConcurrent: processes that make a data directory's key at
// once (vigil serve and vigil sentinel add started together) all get the
// one key written, none an error for a file caught between its creation
// and its content.
func TestLoadSecretConcurrent(t *testing.T) {
	for range 200 {
		dir := t.TempDir()
		keys := make([][]byte, 8)
		errs := make([]error, len(keys))
		var wg sync.WaitGroup
		for i := range keys {
			wg.Go(func() { keys[i], _, errs[i] = loadSecret(dir, secretFile) })
		}
		wg.Wait()
		for i := range keys {
			if errs[i] != nil {
				t.Fatalf("loadSecret %d: %v", i, errs[i])
			}
			if !bytes.Equal(keys[i], keys[0]) {
				t.Fatalf("loadSecret %d: %q, another %q", i, keys[i], keys[0])
			}
		}
	}
}
