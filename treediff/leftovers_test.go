package treediff

import (
	"slices"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
)

// matchingOf parses two XML documents flat and returns their matching,
// measured, with nothing paired yet.
func matchingOf(t *testing.T, oldXML, newXML string) *matching {
	t.Helper()
	old, err := markup.ParseXMLFlat(strings.NewReader(oldXML), nil)
	if err != nil {
		t.Fatal(err)
	}
	new, err := markup.ParseXMLFlat(strings.NewReader(newXML), nil)
	if err != nil {
		t.Fatal(err)
	}
	return newMatching(old, new, nil)
}

// TestZipMakesRegionRoots pairs two identical regions of which one node is
// already matched elsewhere: its counterpart, inside the region zipped, is
// left unmatched under a matched parent, a region root that the leftovers
// must see although it was not one before.
func TestZipMakesRegionRoots(t *testing.T) {
	// Post-order: old "one"=0 p=1 "two"=2 q=3 x=4 y=5 r=6;
	// new y=0 "two"=1 q=2 z=3 "one"=4 p=5 "two"=6 q=7 x=8 r=9.
	m := matchingOf(t, `<r><x><p>one</p><q>two</q></x><y/></r>`, `<r><y/><z><q>two</q></z><x><p>one</p><q>two</q></x></r>`)
	m.pair(6, 9)
	m.pair(5, 0)
	m.zip(3, 2) // the old x's q went into the new z

	oldRoots := regionRoots(m.old, m.oldMatch, m.oldParent)
	newRoots := regionRoots(m.new, m.newMatch, m.newParent)
	if !slices.Equal(oldRoots, []int32{4}) || !slices.Equal(newRoots, []int32{3, 8}) {
		t.Fatalf("region roots before: old %v, new %v; want [4] and [3 8]", oldRoots, newRoots)
	}
	zips := m.pairIdenticalRegions(oldRoots, newRoots)
	if !slices.Equal(zips, [][2]int32{{4, 8}}) {
		t.Fatalf("zipped %v, want [[4 8]]", zips)
	}
	if got := m.elementRoots(m.new, m.newMatch, m.newParent, newRoots, zips, 1); !slices.Equal(got, []int32{3, 7}) {
		t.Errorf("new element roots after the zip: %v, want [3 7] (z, and the q inside the zipped x)", got)
	}
	if got := m.elementRoots(m.old, m.oldMatch, m.oldParent, oldRoots, zips, 0); len(got) != 0 {
		t.Errorf("old element roots after the zip: %v, want none", got)
	}
}
