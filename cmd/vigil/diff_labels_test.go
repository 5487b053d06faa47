package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestDiffFileNamesXMLCannotHold: files whose names hold a character XML
// cannot hold (a control character, bytes that are not UTF-8: a Latin-1
// name) are diffed; the delta's labels show the character as U+FFFD, and
// patch applies it. diff refused them (exit 2), "encode delta 1,
// operation 1 (...): character U+0001 at byte ... of "...v\x01.xml"".
func TestDiffFileNamesXMLCannotHold(t *testing.T) {
	dir := t.TempDir()
	old := writeFile(t, dir, "v\x01.xml", `<r><a>x</a></r>`)
	new := writeFile(t, dir, "caf\xe9.xml", `<r><a>y</a></r>`)
	for _, format := range []string{"xydelta", "json"} {
		code, d, errOut := runCLI(t, "", "diff", "--format", format, old, new)
		if code != exitChanged || errOut != "" {
			t.Fatalf("%s: exit %d, stderr %q, want 1 and nothing", format, code, errOut)
		}
		for _, label := range []string{filepath.Join(dir, "v\uFFFD.xml"), filepath.Join(dir, "caf\uFFFD.xml")} {
			if !strings.Contains(d, label) {
				t.Errorf("%s: the delta does not name %q:\n%s", format, label, d)
			}
		}
		code, out, errOut := runCLI(t, "", "patch", old, writeFile(t, dir, "d."+format, d))
		if code != exitOK || out != "<r><a>y</a></r>\n" {
			t.Errorf("%s: patch: exit %d, output %q, stderr %q", format, code, out, errOut)
		}
	}
}
