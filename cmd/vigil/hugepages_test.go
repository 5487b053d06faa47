package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestInputSize(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.xml"), filepath.Join(dir, "b.xml")
	if err := os.WriteFile(a, make([]byte, 1000), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, make([]byte, 234), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		limit int64
		names []string
		want  int64
	}{
		{1 << 20, []string{a, b}, 1234},
		{1 << 20, []string{a, "-"}, 1000},
		{1 << 20, []string{filepath.Join(dir, "missing.xml"), b}, 234},
		{1 << 20, []string{dir, a}, 1000}, // a directory is not an input's size
		{1 << 20, nil, 0},
		{1000, []string{a, b}, 1234},
		{999, []string{a, b}, 234}, // a is refused (--max-bytes), not read
	}
	for _, tt := range tests {
		if got := inputSize(tt.limit, tt.names...); got != tt.want {
			t.Errorf("inputSize(%d, %q) = %d, want %d", tt.limit, tt.names, got, tt.want)
		}
	}
}
