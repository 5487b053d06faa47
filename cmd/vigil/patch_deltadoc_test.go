package main

import (
	"strings"
	"testing"
)

// TestPatchDocIsADelta: a delta given as DOC (patch D1 D2, taken for
// compose) is named as a delta, where patch said only that the delta was
// computed from another document.
func TestPatchDocIsADelta(t *testing.T) {
	dir := t.TempDir()
	v1 := writeFile(t, dir, "v1.xml", `<r><a>x</a></r>`)
	v2 := writeFile(t, dir, "v2.xml", `<r><a>y</a></r>`)
	v3 := writeFile(t, dir, "v3.xml", `<r><a>z</a></r>`)
	_, d1, _ := runCLI(t, "", "diff", v1, v2)
	_, d2, _ := runCLI(t, "", "diff", "--format", "json", v2, v3)
	p1 := writeFile(t, dir, "d1.xml", d1)
	p2 := writeFile(t, dir, "d2.json", d2)
	for _, args := range [][]string{{p1, p2}, {p2, p1}, {"--reverse", p1, p2}} {
		code, out, errOut := runCLI(t, "", append([]string{"patch"}, args...)...)
		doc := args[len(args)-2]
		want := "(" + doc + " is a delta, not a document: the arguments are DOC DELTA; vigil compose joins deltas)\n"
		if code != exitError || out != "" || !strings.HasPrefix(errOut, "vigil patch: the delta does not fit "+doc+": ") || !strings.HasSuffix(errOut, want) {
			t.Errorf("patch %s: exit %d, output %q, stderr\n%s\nwant 2, nothing and a message ending\n%s", strings.Join(args, " "), code, out, errOut, want)
		}
	}
	// A document is told as before.
	code, _, errOut := runCLI(t, "", "patch", v3, p1)
	if code != exitError || strings.Contains(errOut, "is a delta") {
		t.Errorf("patch v3 d1: exit %d, stderr\n%s", code, errOut)
	}
}
