package treediff

import "testing"

// TestRecoveryAnchorsInOrder moves the first item of a list to the end and
// changes another: the gaps between the items that stayed in order must
// still be recovered (the changed text an update). Anchors taken greedily in
// old order would stop at the moved item and recover nothing after it.
func TestRecoveryAnchorsInOrder(t *testing.T) {
	// Post-order: old "a"=0 i=1 "b"=2 i=3 "c"=4 i=5 "d"=6 i=7 l=8;
	// new "b"=0 i=1 "C"=2 i=3 "d"=4 i=5 "a"=6 i=7 l=8.
	m := matchingOf(t, `<l><i>a</i><i>b</i><i>c</i><i>d</i></l>`, `<l><i>b</i><i>C</i><i>d</i><i>a</i></l>`)
	m.pair(8, 8)
	m.zip(1, 7) // a moved to the end
	m.zip(3, 1)
	m.zip(7, 5)
	recovery{}.run(m)
	if m.oldMatch[5] != 3 || m.oldMatch[4] != 2 {
		t.Errorf("the item between b and d and its text matched with %d and %d, want 3 and 2", m.oldMatch[5], m.oldMatch[4])
	}
}
