package treediff

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestPairUniqueChildrenAgree runs the top-down pairing of a root's
// children both ways, pairwise and through the map of names, on random
// lists of children with repeated names and some children already
// matched: the same pairs.
func TestPairUniqueChildrenAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	names := []string{"a", "b", "c", "d"}
	children := func() string {
		var b strings.Builder
		for range rng.IntN(topDownScan) {
			if rng.IntN(5) == 0 {
				fmt.Fprintf(&b, "text%d<z/>", rng.IntN(3))
				continue
			}
			fmt.Fprintf(&b, "<%s/>", names[rng.IntN(len(names))])
		}
		return b.String()
	}
	paired := 0
	for n := range 300 {
		oldXML, newXML := "<r>"+children()+"</r>", "<r>"+children()+"</r>"
		var results [2][]int32
		for k := range results {
			m := matchingOf(t, oldXML, newXML)
			i, j := m.old.Root(), m.new.Root()
			m.pair(i, j)
			// The same children matched beforehand, both times.
			pre := rand.New(rand.NewPCG(uint64(n), 3))
			// (Matched elsewhere: to the other root, which is all the
			// pass reads.)
			for _, ci := range m.oldChildren(i) {
				if pre.IntN(4) == 0 {
					m.oldMatch[ci] = j
				}
			}
			for _, cj := range m.newChildren(j) {
				if pre.IntN(4) == 0 {
					m.newMatch[cj] = i
				}
			}
			if k == 0 {
				m.pairUniqueChildren(i, j)
			} else {
				var slots nameSlots
				m.pairUniqueChildrenByName(i, j, &slots)
			}
			results[k] = slices.Clone(m.newMatch)
			if k == 0 {
				for _, cj := range m.newChildren(j) {
					if x := m.newMatch[cj]; x >= 0 && x != i {
						paired++
					}
				}
			}
		}
		if !slices.Equal(results[0], results[1]) {
			t.Fatalf("%s -> %s: pairwise %v, by name %v", oldXML, newXML, results[0], results[1])
		}
	}
	if paired == 0 {
		t.Fatal("no child was paired: the lists do not exercise the pass")
	}
}
