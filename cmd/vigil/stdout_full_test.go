package main

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// fullWriter fails every write, as standard output on a full disk or a
// closed pipe does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestStdoutFails: a command whose standard output cannot be written exits
// 2 and says why: sentinel check exited 0 (a file with warnings only) or 1,
// sentinel add, user add and user passwd 0, the password they print "only
// now" shown to nobody.
func TestStdoutFails(t *testing.T) {
	dir := t.TempDir()
	warned := writeFile(t, dir, "warned.ssl", "Create Sentinel w Using a.example Fetch 1 day\n")
	broken := writeFile(t, dir, "broken.ssl", "Create Sentinel b Using http://b.example Fetch 0 days\n")
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"check warnings", []string{"sentinel", "check", warned}},
		{"check problems", []string{"sentinel", "check", broken}},
		{"check json", []string{"sentinel", "check", "--json", warned}},
		{"add", []string{"sentinel", "add", "--data", filepath.Join(dir, "data"), warned}},
		{"add problems", []string{"sentinel", "add", "--data", filepath.Join(dir, "data2"), broken}},
		{"feed", []string{"sentinel", "feed", "--data", filepath.Join(dir, "data"), "w"}},
		{"user add", []string{"user", "add", "--data", filepath.Join(dir, "data"), "zed@example.test"}},
		{"user passwd", []string{"user", "passwd", "--data", filepath.Join(dir, "data"), "zed@example.test"}},
		{"help", []string{"help"}},
		{"diff", []string{"diff", example + "v1.xml", example + "v2.xml"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stderr bytes.Buffer
			env := &environment{stdin: strings.NewReader(""), stdout: fullWriter{}, stderr: &stderr, getenv: func(string) string { return "" }}
			code := run(context.Background(), env, tc.args)
			if code != exitError || strings.Count(stderr.String(), "no space left on device") != 1 {
				t.Errorf("%v: exit %d, stderr %q; want 2 and the write error, once", tc.args, code, stderr.String())
			}
		})
	}
}
