package treediff

import (
	"testing"

	"github.com/vigil-web/vigil/delta"
)

// TestSameSubtrees checks which new nodes the delta may skip: those zipped
// and those matched one by one with an identical old subtree, in order, but
// not a node whose content, or the order or the pairing of whose children,
// changed.
func TestSameSubtrees(t *testing.T) {
	// Post-order, new: "1"=0 a=1 "2"=2 b=3 "x"=4 c=5 rec=6 "y"=7 d=8 "z"=9 e=10 rec=11 r=12.
	m := matchingOf(t,
		`<r><rec><a>1</a><b>2</b><c>3</c></rec><rec><e>z</e><d>y</d></rec></r>`,
		`<r><rec><a>1</a><b>2</b><c>x</c></rec><rec><d>y</d><e>z</e></rec></r>`)
	// Old: "1"=0 a=1 "2"=2 b=3 "3"=4 c=5 rec=6 "z"=7 e=8 "y"=9 d=10 rec=11 r=12.
	// Pair every node by position in its record, as a recovery would: none
	// is zipped.
	for _, p := range [][2]int32{{12, 12}, {6, 6}, {0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5},
		{11, 11}, {7, 9}, {8, 10}, {9, 7}, {10, 8}} {
		m.pair(p[0], p[1])
	}
	same := m.sameSubtrees()
	want := map[int32]bool{
		0: true, 1: true, 2: true, 3: true, // unchanged fields, text and element
		4: false, 5: false, 6: false, // a text updated, its field and its record
		7: true, 8: true, 9: true, 10: true, // fields swapped, each unchanged
		11: false, 12: false, // their record's children changed order
	}
	for j, w := range want {
		if same[j] != w {
			t.Errorf("new node %d marked same = %v, want %v", j, same[j], w)
		}
	}
	// The marks only spare the delta work: the same operations (an update
	// and a move) with them and without.
	m.assignXIDs(true)
	with, err := delta.BuildMatched(&delta.Matching{Old: m.old, New: m.new, NewToOld: m.newMatch, OldToNew: m.oldMatch, Same: same, Consistent: true})
	if err != nil {
		t.Fatal(err)
	}
	without, err := delta.BuildMatched(&delta.Matching{Old: m.old, New: m.new, NewToOld: m.newMatch, OldToNew: m.oldMatch, Consistent: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(with.Ops) == 0 {
		t.Fatal("no operations")
	}
	if got, want := ops(with), ops(without); got != want {
		t.Errorf("delta with the marks:\n%s\nwithout:\n%s", got, want)
	}
}
