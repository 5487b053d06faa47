package main

import (
	"runtime"
	"strings"
	"testing"
)

// TestPatchRefusesLongVersionMap: a delta of a hundred bytes whose XID-maps
// list 60 million XIDs, patched onto a document of three nodes, is refused
// as a delta that does not fit the document, before its maps are expanded
// (vigil patch took 500 MB to refuse it).
func TestPatchRefusesLongVersionMap(t *testing.T) {
	const maxAlloc = 64 << 20
	dir := t.TempDir()
	doc := writeFile(t, dir, "doc.xml", `<r><a/>x</r>`)
	for _, tc := range []struct{ name, delta string }{
		{"delta.xml", `<unit_delta><t fromXidMap="(1-60000000|60000001)" toXidMap="(1-60000000|60000001)"></t></unit_delta>`},
		{"delta.json", `{"fromXidMap": "(1-60000000|60000001)", "toXidMap": "(1-60000000|60000001)", "ops": []}`},
	} {
		d := writeFile(t, dir, tc.name, tc.delta)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		code, _, errOut := runCLI(t, "", "patch", doc, d)
		runtime.ReadMemStats(&after)
		want := "the delta does not fit " + doc + ": " + d
		if code != exitError || !strings.Contains(errOut, want) || !strings.Contains(errOut, "XID-map has 60000000 XIDs for a version of at most") {
			t.Errorf("%s: exit %d, stderr %s\nwant %q", tc.name, code, errOut, want)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > maxAlloc {
			t.Errorf("%s: allocated %d MB, want less than %d", tc.name, n>>20, maxAlloc>>20)
		}
	}
}
