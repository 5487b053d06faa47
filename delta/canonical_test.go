package delta

import (
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// TestCanonicalize: the seed's XyScript order (notes E7 and COMPARE).
func TestCanonicalize(t *testing.T) {
	leaf := func(k OpKind, par tree.XID, pos int, x tree.XID) Op {
		return Op{Kind: k, Parent: par, Pos: pos, XIDs: xm(x), Content: content(el("c", x))}
	}
	tests := []struct {
		name string
		ops  []Op
		want string
	}{
		{"deletes right to left (L4.2.6)", []Op{leaf(Delete, 1, 2, 102), leaf(Delete, 1, 4, 104)},
			"d par=1 pos=4 xm=(104) <c>\nd par=1 pos=2 xm=(102) <c>\n"},
		{"inserts left to right (L4.2.7)", []Op{leaf(Insert, 1, 4, 104), leaf(Insert, 1, 2, 102)},
			"i par=1 pos=2 xm=(102) <c>\ni par=1 pos=4 xm=(104) <c>\n"},
		{"deletes before inserts, attributes first", []Op{leaf(Insert, 1, 1, 7), leaf(Delete, 1, 1, 5), {Kind: AttrUpdate, Node: 1, Name: "b", OldValue: "1", NewValue: "2"}, {Kind: Rename, Node: 1, OldValue: "a", NewValue: "b"}, {Kind: AttrInsert, Node: 1, Name: "a", NewValue: "1"}},
			"ai xid=1 a=a v=\"1\"\nau xid=1 a=b ov=\"1\" nv=\"2\"\nrn xid=1 ov=\"a\" nv=\"b\"\nd par=1 pos=1 xm=(5) <c>\ni par=1 pos=1 xm=(7) <c>\n"},
		// A move out of a deleted subtree goes before the delete of its
		// ancestor; a move into an inserted subtree after its insert.
		{"descendants deleted first", []Op{
			{Kind: Delete, Parent: 1, Pos: 1, XIDs: xm(3, 4), Content: content(el("p", 4, el("q", 3)))},
			{Kind: Delete, Parent: 3, Pos: 1, XIDs: xm(2), Move: true},
			{Kind: Insert, Parent: 1, Pos: 1, XIDs: xm(2), Move: true},
		}, "d par=3 pos=1 xm=(2) move\nd par=1 pos=1 xm=(3-4) <p>\ni par=1 pos=1 xm=(2) move\n"},
		{"ancestors inserted first", []Op{
			{Kind: Delete, Parent: 1, Pos: 1, XIDs: xm(2), Move: true},
			{Kind: Insert, Parent: 9, Pos: 1, XIDs: xm(2), Move: true},
			{Kind: Insert, Parent: 1, Pos: 3, XIDs: xm(8, 9), Content: content(el("p", 9, el("q", 8)))},
		}, "d par=1 pos=1 xm=(2) move\ni par=1 pos=3 xm=(8-9) <p>\ni par=9 pos=1 xm=(2) move\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := &Delta{Ops: tt.ops}
			Canonicalize(d)
			if got := opStrings(d); got != tt.want {
				t.Errorf("ops:\n%s\nwant:\n%s", got, tt.want)
			}
			// Equal ignores the order; Invert twice gives the delta back.
			shuffled := &Delta{Ops: append([]Op(nil), tt.ops...)}
			if !Equal(d, shuffled) || !Equal(Invert(Invert(shuffled)), d) {
				t.Errorf("Equal or Invert(Invert) differs")
			}
		})
	}
}

// TestInvertE7: every delete becomes an insert with the same attributes
// and content, and the other way round (notes E7).
func TestInvertE7(t *testing.T) {
	a, b := catalog(), catalog2()
	b.Root.Children[0].SetAttr("id", "p1")
	d := mustBuild(t, a, b)
	inv := Invert(d)
	want := "ad xid=7 a=id v=\"p1\"\nd par=14 pos=3 xm=(16-17) <price>\ni par=14 pos=3 xm=(12-13) <status>\n"
	if got := opStrings(inv); got != want {
		t.Errorf("ops:\n%s\nwant:\n%s", got, want)
	}
	if inv.FromXIDMap.String() != d.ToXIDMap.String() || inv.ToXIDMap.String() != d.FromXIDMap.String() {
		t.Errorf("XID-maps not swapped")
	}
}
