package treediff

import (
	"fmt"
	"strings"
	"testing"
)

// TestTwinsAcrossGapsAreMoves: repeated children that changed places, each
// left alone between two aligned ones or in a gap of its own, whose twins
// pair them all as moves: r0 r0 r3 r2 r1 r1 r2 to r2 r0 r3 r1 r2 r0 r1 was
// two lone children rewritten in place (r0 to r2, r1 to r0), an r2
// deleted and an r1 inserted, a cost of six for three moves. Pairing the
// lone ones in place is kept where the twins pair no more of them (the
// same values rewritten in place, TestSwappedSiblingsAreMoves's lone
// children with one twin).
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
		moves    int
	}{
		{[]int{0, 0, 3, 2, 1, 1, 2}, []int{2, 0, 3, 1, 2, 0, 1}, 3},
		{[]int{3, 4, 3, 0, 3, 0, 3, 4, 0, 4}, []int{3, 3, 3, 0, 4, 3, 0, 0, 4, 4}, 3},
	} {
		v1, v2 := parse(t, items(tc.old...)), parse(t, items(tc.new...))
		d, err := Diff(v1, v2, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkApplies(t, v1, v2, d)
		if s := d.Stats(); s.Moves != tc.moves || s.Inserts+s.Deletes+s.Updates > 0 {
			t.Errorf("%v -> %v: %+v, want %d moves only\n%s", tc.old, tc.new, s, tc.moves, ops(d))
		}
	}
}
