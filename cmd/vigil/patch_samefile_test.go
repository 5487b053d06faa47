package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestPatchRefusesSameFile: DOC and DELTA given as one file (the same
// name twice, or a link to it) is a slip: patch says so (exit 2, nothing
// written), where a document whose root is empty read as an empty XML
// patch and was written back unchanged with exit 0, and a delta was
// refused as "computed from another document".
func TestPatchRefusesSameFile(t *testing.T) {
	dir := t.TempDir()
	empty := writeFile(t, dir, "r.xml", `<r/>`)
	_, d, _ := runCLI(t, "", "diff", writeFile(t, dir, "v1.xml", `<r><a>x</a></r>`), writeFile(t, dir, "v2.xml", `<r><a>y</a></r>`))
	dp := writeFile(t, dir, "d.xml", d)
	link := filepath.Join(dir, "link.xml")
	if err := os.Symlink(dp, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ doc, delta string }{{empty, empty}, {dp, dp}, {dp, link}} {
		code, out, errOut := runCLI(t, "", "patch", tc.doc, tc.delta)
		want := "vigil patch: " + tc.delta + " is " + tc.doc + ": DOC and DELTA are one file (the arguments are a document, then a delta or an XML patch)\n"
		if tc.doc == tc.delta {
			want = "vigil patch: DOC and DELTA are one file, " + tc.doc + " (the arguments are a document, then a delta or an XML patch)\n"
		}
		if code != exitError || out != "" || errOut != want {
			t.Errorf("patch %s %s: exit %d, output %q, stderr\n%s\nwant 2, nothing and\n%s", tc.doc, tc.delta, code, out, errOut, want)
		}
	}
}
