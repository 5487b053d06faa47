package tree_test

import (
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
)

// TestFingerprint: a fingerprint is written into deltas and read by other
// processes and releases, so it is pinned here; attribute order and XIDs
// do not change it, content does.
func TestFingerprint(t *testing.T) {
	fp := func(src string) tree.Fingerprint {
		t.Helper()
		f, err := markup.ParseXMLFlat(strings.NewReader(src), nil)
		if err != nil {
			t.Fatal(err)
		}
		return tree.FingerprintOf(f)
	}
	base := fp(`<r a="1" b="2"><x>1</x><y/></r>`)
	const pinned = tree.Fingerprint(0x919ccadcd09396ca)
	if base != pinned {
		t.Errorf("fingerprint %016x, want %016x: it must not change between releases", uint64(base), uint64(pinned))
	}
	if got := fp(`<r b="2" a="1"><x>1</x><y/></r>`); got != base {
		t.Errorf("attribute order changed the fingerprint: %016x, %016x", uint64(got), uint64(base))
	}
	for _, other := range []string{`<r a="1" b="3"><x>1</x><y/></r>`, `<r a="1" b="2"><x>2</x><y/></r>`, `<r a="1" b="2"><x>1</x></r>`,
		`<r a="1" b="2"><y/><x>1</x></r>`, `<r a="1" b="2"><x>1<y/></x></r>`, `<q a="1" b="2"><x>1</x><y/></q>`} {
		if fp(other) == base {
			t.Errorf("%s has the fingerprint of another document", other)
		}
	}
	// XIDs are left out.
	f, _ := markup.ParseXMLFlat(strings.NewReader(`<r a="1" b="2"><x>1</x><y/></r>`), nil)
	f.XID = []tree.XID{7, 8, 9, 10}
	if tree.FingerprintOf(f) != base {
		t.Error("XIDs changed the fingerprint")
	}
}
