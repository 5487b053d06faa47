package main

import (
	"fmt"
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

// TestPatchDocIsALargeDelta: a delta of a large document given as DOC is
// named as a delta too, where the XID-map of the other delta, longer than
// the nodes of the small file taken for the document, was refused with
// the hint that a delta fits the version it was computed from alone. So
// is one whose maps list 60 million XIDs, told without expanding them.
func TestPatchDocIsALargeDelta(t *testing.T) {
	dir := t.TempDir()
	var big strings.Builder
	big.WriteString("<r>")
	for i := range 3000 {
		fmt.Fprintf(&big, "<a>%d</a>", i)
	}
	big.WriteString("</r>")
	v1 := big.String()
	v2 := strings.Replace(v1, "<a>5</a>", "<a>five</a>", 1)
	v3 := strings.Replace(v2, "<a>7</a>", "<a>seven</a>", 1)
	f1, f2, f3 := writeFile(t, dir, "v1.xml", v1), writeFile(t, dir, "v2.xml", v2), writeFile(t, dir, "v3.xml", v3)
	_, d1, _ := runCLI(t, "", "diff", f1, f2)
	_, d2, _ := runCLI(t, "", "diff", f2, f3)
	_, j1, _ := runCLI(t, "", "diff", "--format", "json", f1, f2)
	_, j2, _ := runCLI(t, "", "diff", "--format", "json", f2, f3)
	p1, p2 := writeFile(t, dir, "d1.xml", d1), writeFile(t, dir, "d2.xml", d2)
	q1, q2 := writeFile(t, dir, "d1.json", j1), writeFile(t, dir, "d2.json", j2)
	huge := writeFile(t, dir, "huge.xml", `<unit_delta><t fromXidMap="(1-60000000|60000001)" toXidMap="(1-60000000|60000001)"></t></unit_delta>`)
	for name, args := range map[string][]string{
		"xml":           {p1, p2},
		"json":          {q1, q2},
		"json then xml": {q1, p2},
		"xml then json": {p1, q2},
		"reverse":       {"--reverse", p2, p1},
		"huge maps":     {huge, p2},
	} {
		code, out, errOut := runCLI(t, "", append([]string{"patch"}, args...)...)
		doc := args[len(args)-2]
		want := "(" + doc + " is a delta, not a document: the arguments are DOC DELTA; vigil compose joins deltas)\n"
		if code != exitError || out != "" || !strings.Contains(errOut, "XID-map has") || !strings.HasSuffix(errOut, want) {
			t.Errorf("%s: patch %s: exit %d, output %q, stderr\n%s\nwant 2, nothing and an XID-map refused, ending\n%s", name, strings.Join(args, " "), code, out, errOut, want)
		}
	}
	// A small document, not a delta, is told the delta does not fit it.
	small := writeFile(t, dir, "small.xml", "<r><a>5</a></r>")
	code, _, errOut := runCLI(t, "", "patch", small, p2)
	if code != exitError || !strings.Contains(errOut, "XID-map has") || strings.Contains(errOut, "is a delta") {
		t.Errorf("patch small d2: exit %d, stderr\n%s", code, errOut)
	}
}
