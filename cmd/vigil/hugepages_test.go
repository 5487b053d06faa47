package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
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
	fileA, err := os.Open(a)
	if err != nil {
		t.Fatal(err)
	}
	defer fileA.Close()
	pipeR, pipeW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pipeR.Close()
	defer pipeW.Close()
	tests := []struct {
		stdin io.Reader
		limit int64
		names []string
		want  int64
	}{
		{nil, 1 << 20, []string{a, b}, 1234},
		{nil, 1 << 20, []string{a, "-"}, 1000},
		{strings.NewReader("<a/>"), 1 << 20, []string{"-", b}, 234}, // not a file: no size
		{pipeR, 1 << 20, []string{"-", b}, 234},                     // a pipe: no size
		{fileA, 1 << 20, []string{"-", b}, 1234},                    // < a.xml
		{fileA, 999, []string{"-", b}, 234},
		{nil, 1 << 20, []string{filepath.Join(dir, "missing.xml"), b}, 234},
		{nil, 1 << 20, []string{dir, a}, 1000}, // a directory is not an input's size
		{nil, 1 << 20, nil, 0},
		{nil, 1000, []string{a, b}, 1234},
		{nil, 999, []string{a, b}, 234}, // a is refused (--max-bytes), not read
	}
	for _, tt := range tests {
		if got := inputSize(tt.stdin, tt.limit, tt.names...); got != tt.want {
			t.Errorf("inputSize(%d, %q) = %d, want %d", tt.limit, tt.names, got, tt.want)
		}
	}
}
