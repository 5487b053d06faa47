package treediff_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
)

// TestDiffFlatKeepsEarlierDeltas diffs one new version against two old
// ones in turn: the second diff gives it other XIDs, which must not change
// the first delta's XID-map.
func TestDiffFlatKeepsEarlierDeltas(t *testing.T) {
	parse := func(s string) *tree.Flat {
		f, err := markup.ParseXMLFlat(strings.NewReader(s), nil)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	a, b := parse("<r><x>1</x><y>2</y></r>"), parse("<r><y>2</y><x>1</x></r>")
	d1, err := treediff.DiffFlat(a, b, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := d1.ToXIDMap.Expand().XIDs
	if !slices.Equal(want, b.XID) {
		t.Fatalf("ToXIDMap %v, new version's XIDs %v", want, b.XID)
	}
	if _, err := treediff.DiffFlat(parse("<q/>"), b, nil); err != nil {
		t.Fatal(err)
	}
	if got := d1.ToXIDMap.Expand().XIDs; !slices.Equal(got, want) {
		t.Fatalf("the first delta's XID-map changed from %v to %v", want, got)
	}
}
