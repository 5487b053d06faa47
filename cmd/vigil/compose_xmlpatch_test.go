package main

import (
	"strings"
	"testing"
)

// TestComposeNamesXMLPatch: compose given an RFC 5261 XML patch (diff
// --format xmlpatch) says that it is one, which compose does not join, and
// what gives a delta. It said only that the root element was <diff>, not
// <unit_delta>, of a file that patch reads.
func TestComposeNamesXMLPatch(t *testing.T) {
	dir := t.TempDir()
	v1 := writeFile(t, dir, "v1.xml", `<r><a>1</a></r>`)
	v2 := writeFile(t, dir, "v2.xml", `<r><a>2</a></r>`)
	code, patch, errOut := runCLI(t, "", "diff", "--format", "xmlpatch", v1, v2)
	if code != exitChanged {
		t.Fatalf("diff: exit %d: %s", code, errOut)
	}
	p := writeFile(t, dir, "p.xml", patch)
	code, delta, errOut := runCLI(t, "", "diff", v1, v2)
	if code != exitChanged {
		t.Fatalf("diff: exit %d: %s", code, errOut)
	}
	d := writeFile(t, dir, "d.xy", delta)
	for _, args := range [][]string{{p}, {d, p}} {
		code, out, errOut := runCLI(t, "", append([]string{"compose"}, args...)...)
		if code != exitError || out != "" {
			t.Fatalf("compose %v: exit %d, output %q, want 2 and nothing", args, code, out)
		}
		for _, want := range []string{p + ": ", "RFC 5261 XML patch", "vigil diff"} {
			if !strings.Contains(errOut, want) {
				t.Errorf("compose %v: stderr %q, want it to say %q", args, errOut, want)
			}
		}
	}
}
