package treediff

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/delta"
)

// TestTwinsAcrossGapsAreMoves: repeated children that changed places, each
// left alone between two aligned ones or in a gap of its own, whose twins
// pair them all as moves: r0 r0 r3 r2 r1 r1 r2 to r2 r0 r3 r1 r2 r0 r1 was
// two lone children rewritten in place (r0 to r2, r1 to r0), an r2
// deleted and an r1 inserted, a cost of six for three moves. Pairing the
// lone ones in place is kept where the twins pair no more of them (the
// same values rewritten in place, TestSwappedSiblingsAreMoves's lone
// children with one twin). Twins left in gaps of more than one child on
// a side count too: what they take from such a gap, recovery cannot pair
// there in place.
func TestTwinsAcrossGapsAreMoves(t *testing.T) {
	items := func(vals ...int) string {
		var b strings.Builder
		b.WriteString("<l>")
		for _, v := range vals {
			fmt.Fprintf(&b, "<i>r%d</i>", v)
		}
		b.WriteString("</l>")
		return b.String()
	}
	for _, tc := range []struct {
		old, new []int
		want     delta.Stats
	}{
		{[]int{0, 0, 3, 2, 1, 1, 2}, []int{2, 0, 3, 1, 2, 0, 1}, delta.Stats{Moves: 3}},
		{[]int{3, 4, 3, 0, 3, 0, 3, 4, 0, 4}, []int{3, 3, 3, 0, 4, 3, 0, 0, 4, 4}, delta.Stats{Moves: 3}},
		// Twins in gaps of more than one child on a side.
		{[]int{3, 0, 1, 2, 4, 4, 1, 1}, []int{4, 1, 1, 0, 4, 2, 1, 3}, delta.Stats{Moves: 5}},
		{[]int{0, 0, 1, 2, 2, 1, 0, 2, 0, 0}, []int{0, 0, 0, 2, 2, 0, 0, 1, 2, 1}, delta.Stats{Moves: 4}},
		{[]int{4, 0, 1, 4, 3, 2, 2, 1, 1, 4, 3}, []int{2, 4, 1, 3, 1, 2, 4, 4, 1, 0, 3}, delta.Stats{Moves: 5}},
		// Values rewritten in place, one of them to a value another
		// held: updates, the twins would pair fewer.
		{[]int{5, 0, 1, 6, 2}, []int{5, 3, 4, 6, 0}, delta.Stats{Updates: 3}},
		// A lone pair whose children the twins do not take (r1 against
		// r2 at the start) stays an update in place while the others
		// move: marking it too left its r1 deleted and an r2 inserted.
		{[]int{1, 1, 0, 1, 0, 2, 2}, []int{1, 2, 0, 2, 1, 2, 0}, delta.Stats{Moves: 2, Updates: 1}},
		{[]int{0, 0, 0, 1, 0, 2, 1, 1, 0, 2, 1}, []int{0, 2, 0, 1, 0, 1, 1, 0, 1, 0, 1}, delta.Stats{Moves: 2, Updates: 1}},
	} {
		v1, v2 := parse(t, items(tc.old...)), parse(t, items(tc.new...))
		d, err := Diff(v1, v2, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkApplies(t, v1, v2, d)
		if s := d.Stats(); s != tc.want {
			t.Errorf("%v -> %v: %+v, want %+v\n%s", tc.old, tc.new, s, tc.want, ops(d))
		}
	}
}
