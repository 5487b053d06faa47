package main

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestInputNamesQuoted: the errors of diff, patch, compose and site diff about an
// input file (it cannot be opened, it is a folder, over --max-bytes, not
// well-formed, with no element) name it once, as the summary does: quoted
// where it holds a line break, a tab, an escape or bytes that are not
// UTF-8, which were printed raw to the terminal, and as it is otherwise.
func TestInputNamesQuoted(t *testing.T) {
	v1 := example + "v1.xml"
	for _, tc := range []struct {
		name string
		base string // the file's name
		odd  bool   // said quoted
	}{
		{"plain", "plain name.xml", false},
		{"line break", "a\nb.xml", true},
		{"tab", "a\tb.xml", true},
		{"escape", "a\x1b[31mred.xml", true},
		{"not UTF-8", "caf\xe9.xml", true},
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, tc.base)
		if err := os.WriteFile(path, []byte("<r>"), 0o644); err != nil {
			t.Logf("%s: skipped, the system refuses the name: %v", tc.name, err)
			continue
		}
		empty, folder, missing := path+".empty", path+".d", path+".missing"
		if err := os.WriteFile(empty, []byte("<!-- nothing here -->\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(folder, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, r := range []struct {
			how  string
			args []string
			file string // the file the error is about
			want string // what it says after the name
		}{
			{"diff, not well-formed", []string{"diff", path, v1}, path, ": line 1, column 4: "},
			{"diff, no element", []string{"diff", v1, empty}, empty, ": empty document: it holds only a comment"},
			{"diff, over --max-bytes", []string{"diff", "--max-bytes", "2", path, v1}, path, ": 3 bytes is more than the limit of 2 (--max-bytes)"},
			{"diff, missing", []string{"diff", missing, v1}, missing, ": no such file or directory"},
			{"diff, folder", []string{"diff", folder, v1}, folder, ": a folder, not a file"},
			{"patch, not well-formed", []string{"patch", path, v1}, path, ": line 1, column 4: "},
			{"patch, missing delta", []string{"patch", v1, missing}, missing, ": no such file or directory"},
			{"patch, no delta", []string{"patch", v1, empty}, empty, ": no delta in the file: empty document"},
			{"compose, missing", []string{"compose", missing}, missing, ": no such file or directory"},
			{"site diff, not a snapshot", []string{"site", "diff", path, path}, path, ": snapshot: invalid JSON at byte 1"},
			{"site diff, missing", []string{"site", "diff", missing, path}, missing, ": no such file or directory"},
		} {
			code, _, errOut := runCLI(t, "", r.args...)
			name := r.file
			if tc.odd {
				name = strconv.Quote(r.file)
			}
			if code != exitError || !strings.Contains(errOut, name+r.want) {
				t.Errorf("%s: %s: exit %d, stderr %q; want %d and %q", tc.name, r.how, code, errOut, exitError, name+r.want)
			}
			if n := strings.Count(errOut, name); n != 1 {
				t.Errorf("%s: %s: the file is named %d times: %q", tc.name, r.how, n, errOut)
			}
			if tc.odd && strings.Contains(errOut, r.file) {
				t.Errorf("%s: %s: the name is printed raw: %q", tc.name, r.how, errOut)
			}
		}
	}
}

// TestPathErrorQuotesTheName: a read error of a file with an odd name
// names it quoted, once, and is still the error it was.
func TestPathErrorQuotesTheName(t *testing.T) {
	for _, tc := range []struct {
		path, want string
	}{
		{"doc.xml", "read doc.xml: input/output error"},
		{"a\nb.xml", `read "a\nb.xml": input/output error`},
	} {
		err := pathError(&os.PathError{Op: "read", Path: tc.path, Err: syscall.EIO})
		if err.Error() != tc.want || !errors.Is(err, syscall.EIO) {
			t.Errorf("%q: %q, want %q", tc.path, err, tc.want)
		}
	}
}
