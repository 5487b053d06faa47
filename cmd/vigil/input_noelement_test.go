package main

import (
	"strings"
	"testing"
)

// TestNoElementInput: diff and patch refuse a document with no element
// and no text (blank, or only comments, processing instructions and a
// DOCTYPE), from a file or standard input, naming it and saying what it
// holds, as they refuse a blank one, where the HTML parser read it as an
// empty page; patch and compose refuse such a delta file too. Text
// without an element, and anything with an element, are read.
func TestNoElementInput(t *testing.T) {
	dir := t.TempDir()
	v1 := example + "v1.xml"
	for _, tc := range []struct {
		name, in string
		holds    string // what the refusal says it holds; "" for read
		read     bool   // read as a document
	}{
		{"blank", " \n\t", "empty document: no root element", false},
		{"comment", "<!-- nothing here -->\n", "it holds only a comment, no root element", false},
		{"comments and instructions", "<!-- a -->\n<?pi x?>\n<!-- b -->\n", "it holds only comments and a processing instruction, no root element", false},
		{"XML declaration", `<?xml version="1.0"?>` + "\n", "it holds only an XML declaration, no root element", false},
		{"declaration and comment", "\xef\xbb\xbf<?xml version=\"1.0\"?>\n<!-- x -->\n", "it holds only an XML declaration and a comment, no root element", false},
		{"DOCTYPE", "<!DOCTYPE html>\n", "it holds only a DOCTYPE, no root element", false},
		{"unended comment", "<!-- x", "it holds only a comment, no root element", false},
		{"text", "hello\n", "", true},
		{"comment and element", "<!-- a -->\n<p>x</p>\n", "", true},
		{"declaration and element", `<?xml version="1.0"?><r/>` + "\n", "", true},
	} {
		file := writeFile(t, dir, "in", tc.in)
		runs := []struct {
			how, stdin string
			args       []string
			name       string // the input's name in the error
		}{
			{"diff OLD", "", []string{"diff", file, v1}, file},
			{"diff NEW from stdin", tc.in, []string{"diff", v1, "-"}, "<stdin>"},
			{"patch DOC", "", []string{"patch", file, v1}, file},
			{"patch DOC from stdin", tc.in, []string{"patch", "-", v1}, "<stdin>"},
		}
		for _, r := range runs {
			code, _, errOut := runCLI(t, r.stdin, r.args...)
			if tc.read {
				if strings.Contains(errOut, "empty document") || code == exitError && strings.HasPrefix(r.how, "diff") {
					t.Errorf("%s: %s: exit %d: %s", tc.name, r.how, code, errOut)
				}
				continue
			}
			if want := r.name + ": empty document: "; code != exitError || !strings.Contains(errOut, want) || !strings.Contains(errOut, tc.holds) {
				t.Errorf("%s: %s: exit %d, stderr %q; want %d and %q ... %q", tc.name, r.how, code, errOut, exitError, want, tc.holds)
			}
		}
		if tc.read || tc.name == "blank" {
			continue
		}
		// As a delta file.
		for _, args := range [][]string{{"patch", v1, file}, {"compose", file}} {
			code, _, errOut := runCLI(t, "", args...)
			if want := file + ": no delta in the file: empty document: " + tc.holds; code != exitError || !strings.Contains(errOut, want) {
				t.Errorf("%s: %s: exit %d, stderr %q; want %d and %q", tc.name, args[0], code, errOut, exitError, want)
			}
		}
	}
}
