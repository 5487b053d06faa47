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
		names []string
		want  int64
	}{
		{[]string{a, b}, 1234},
		{[]string{a, "-"}, 1000},
		{[]string{filepath.Join(dir, "missing.xml"), b}, 234},
		{[]string{dir, a}, 1000}, // a directory is not an input's size
		{nil, 0},
	}
	for _, tt := range tests {
		if got := inputSize(tt.names...); got != tt.want {
			t.Errorf("inputSize(%q) = %d, want %d", tt.names, got, tt.want)
		}
	}
}
