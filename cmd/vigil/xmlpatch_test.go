package main

import (
	"os"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
)

// TestDiffXMLPatch: diff --format xmlpatch writes an RFC 5261 patch, with
// the exit codes of the other formats, and patch applies it back.
func TestDiffXMLPatch(t *testing.T) {
	dir := t.TempDir()
	v1, v2 := example+"v1.xml", example+"v2.xml"
	code, out, errOut := runCLI(t, "", "diff", "--format", "xmlpatch", v1, v2)
	if code != exitChanged || !strings.HasPrefix(out, "<diff") || !strings.Contains(out, `<remove sel="/Category/NewProducts/Product"/>`) {
		t.Fatalf("diff --format xmlpatch: exit %d, stderr %q, output\n%s", code, errOut, out)
	}
	if code, out, _ := runCLI(t, "", "diff", "--format", "xmlpatch", v1, v1); code != exitOK || out != "<diff>\n</diff>\n" {
		t.Errorf("no change: exit %d, output %q", code, out)
	}
	if code, _, errOut := runCLI(t, "", "diff", "--format", "xmlpatch", v1, "no-such-file.xml"); code != exitError || !strings.Contains(errOut, "no-such-file.xml") {
		t.Errorf("missing file: exit %d, stderr %q", code, errOut)
	}
	p := writeFile(t, dir, "p.xml", out)
	code, got, errOut := runCLI(t, "", "patch", v1, p)
	if code != exitOK {
		t.Fatalf("patch v1 p.xml: exit %d, stderr %q", code, errOut)
	}
	a, err := markup.ParseXMLBytes([]byte(got), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(v2)
	if err != nil {
		t.Fatal(err)
	}
	want, err := markup.ParseXMLBytes(b, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := tree.Diff(a.Root, want.Root, tree.Content); d != "" {
		t.Errorf("patch v1 (diff v1 v2) != v2: %s", d)
	}
	// Standard input, and flags after the arguments.
	if code, again, errOut := runCLI(t, out, "patch", v1, "-", "--whitespace", "normalize"); code != exitOK || again != got {
		t.Errorf("patch v1 - <p.xml: exit %d, stderr %q", code, errOut)
	}
}

// TestPatchXMLPatch: patch tells an RFC 5261 patch from a delta by its
// document element, and reports a failed operation with its number,
// selector and position; --reverse cannot undo one.
func TestPatchXMLPatch(t *testing.T) {
	dir := t.TempDir()
	doc := writeFile(t, dir, "doc.xml", "<doc>\n  <note>This is a sample document</note>\n</doc>\n")
	cases := []struct {
		name, patch string
		args        []string
		code        int
		out, err    string
	}{
		{"rfc example A.1", `<?xml version="1.0" encoding="UTF-8"?>
<diff>
  <add sel="doc"><foo id="ert4773">This is a new child</foo></add>
</diff>`, nil, exitOK, `<foo id="ert4773">This is a new child</foo></doc>`, ""},
		{"any root and prefix", `<p:patch xmlns:p="urn:ietf:rfc:7351"><p:replace sel="/doc/note/text()[1]">Patched</p:replace></p:patch>`,
			nil, exitOK, "<note>Patched</note>", ""},
		{"unlocated", "<diff>\n<remove sel=\"doc/nope\"/>\n</diff>", nil, exitError, "",
			`p.xml: line 2, column 1: operation 1 (<remove sel="doc/nope">): unlocated-node: no element matches step 2 (nope)`},
		{"malformed", "<diff>\n<add sel='doc'><a></b></add></diff>", nil, exitError, "", "p.xml: xml patch: line 2, column 19: </b> closes <a>"},
		{"reverse", `<diff><remove sel="doc/note"/></diff>`, []string{"--reverse"}, exitError, "", "cannot be undone"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := writeFile(t, dir, "p.xml", c.patch)
			code, out, errOut := runCLI(t, "", append([]string{"patch", doc, p}, c.args...)...)
			if code != c.code || !strings.Contains(out, c.out) || !strings.Contains(errOut, c.err) {
				t.Errorf("exit %d, output %q, stderr %q; want exit %d, %q, %q", code, out, errOut, c.code, c.out, c.err)
			}
		})
	}
	// A XyDelta still reads as one (its root is unit_delta).
	_, x, _ := runCLI(t, "", "diff", example+"v1.xml", example+"v2.xml")
	if code, _, errOut := runCLI(t, "", "patch", example+"v1.xml", writeFile(t, dir, "d.xml", x)); code != exitOK {
		t.Errorf("patch with a XyDelta: exit %d, stderr %q", code, errOut)
	}
	if !isXMLPatch([]byte("\ufeff <?xml version='1.0'?><!-- c --><diff/>")) || isXMLPatch([]byte(`<xy:unit_delta xmlns:xy="u"/>`)) || isXMLPatch([]byte(`{"ops":[]}`)) {
		t.Error("isXMLPatch misreads a file")
	}
}
