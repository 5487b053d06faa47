package delta

import (
	"errors"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// catalog returns the seed's catalog example, version 1 (notes 001a, E2),
// with its postfix XIDs.
func catalog() *tree.Document {
	return doc(el("catalog", 15,
		el("product", 7,
			el("name", 2, tx("Notebook", 1)),
			el("description", 4, tx("2200MHz Pentium4", 3)),
			el("price", 6, tx("$1999", 5))),
		el("product", 14,
			el("name", 9, tx("Digital Camera", 8)),
			el("description", 11, tx("Fuji FinePix 2600Z", 10)),
			el("status", 13, tx("Not Available", 12))),
	), 16)
}

// catalog2 is version 2 of E2: status replaced by price.
func catalog2() *tree.Document {
	return doc(el("catalog", 15,
		el("product", 7,
			el("name", 2, tx("Notebook", 1)),
			el("description", 4, tx("2200MHz Pentium4", 3)),
			el("price", 6, tx("$1999", 5))),
		el("product", 14,
			el("name", 9, tx("Digital Camera", 8)),
			el("description", 11, tx("Fuji FinePix 2600Z", 10)),
			el("price", 17, tx("$299", 16))),
	), 18)
}

// content returns a detached subtree for an operation.
func content(n node) *tree.Node { return n.build(&tree.Document{}) }

func xm(xids ...tree.XID) tree.XIDMap { return tree.XIDMap{XIDs: xids} }

// vm is a version's XID-map listing xids.
func vm(xids ...tree.XID) tree.XIDRanges { return tree.RangesOf(xids, 0) }

func TestApplyCatalog(t *testing.T) {
	a, b := catalog(), catalog2()
	d := mustBuild(t, a, b)
	want := "d par=14 pos=3 xm=(12-13) <status>\ni par=14 pos=3 xm=(16-17) <price>\n"
	if got := opStrings(d); got != want {
		t.Errorf("ops:\n%s\nwant:\n%s", got, want)
	}
	if got := d.ToXIDMap.String(); got != "(1-11;16-17;14-15|18)" {
		t.Errorf("ToXIDMap = %s", got)
	}
	got, err := Apply(a, d)
	if err != nil {
		t.Fatal(err)
	}
	if diff := sameDoc(got, b); diff != "" {
		t.Fatal(diff)
	}
	if got.NextXID != 18 {
		t.Errorf("NextXID = %d", got.NextXID)
	}
}

func TestApplyRefusals(t *testing.T) {
	status := func() *tree.Node { return content(el("status", 13, tx("Not Available", 12))) }
	del := func(par tree.XID, pos int, m tree.XIDMap, c *tree.Node) Op {
		return Op{Kind: Delete, Parent: par, Pos: pos, XIDs: m, Content: c}
	}
	ins := func(par tree.XID, pos int, m tree.XIDMap, c *tree.Node) Op {
		return Op{Kind: Insert, Parent: par, Pos: pos, XIDs: m, Content: c}
	}
	move := func(k OpKind, par tree.XID, pos int, x tree.XID) Op {
		return Op{Kind: k, Parent: par, Pos: pos, XIDs: xm(x), Move: true}
	}
	attr := func(k OpKind, x tree.XID, name, ov, nv string) Op {
		return Op{Kind: k, Node: x, Name: name, OldValue: ov, NewValue: nv}
	}
	upd := func(k OpKind, par tree.XID, pos int, x tree.XID, v string) Op {
		return Op{Kind: k, Parent: par, Pos: pos, XIDs: xm(x), Update: true, Content: content(tx(v, x))}
	}
	tests := []struct {
		name string
		d    Delta
		err  string
	}{
		{"parent missing", Delta{Ops: []Op{
			attr(AttrInsert, 14, "a", "", "1"),
			attr(AttrInsert, 7, "a", "", "1"),
			del(17, 2, xm(12, 13), status())}},
			"operation 3 (d par=17 pos=2 xm=(12-13)): parent XID 17 not in document"},
		{"position out of range", Delta{Ops: []Op{del(14, 4, xm(12, 13), status())}},
			"operation 1 (d par=14 pos=4 xm=(12-13)): position 4 out of range: parent XID 14 has 3 children"},
		{"wrong node at position", Delta{Ops: []Op{del(14, 2, xm(12, 13), status())}},
			"operation 1 (d par=14 pos=2 xm=(12-13)): child 2 of XID 14 is XID 11, not 13"},
		{"deleted content differs", Delta{Ops: []Op{del(14, 3, xm(12, 13), content(el("status", 13, tx("Available", 12))))}},
			`operation 1 (d par=14 pos=3 xm=(12-13)): deleted subtree differs from the document's: at XID 12: value "Available" in the delta, "Not Available" in the document`},
		{"deleted XIDs differ", Delta{Ops: []Op{del(14, 3, xm(10, 13), content(el("status", 13, tx("Not Available", 10))))}},
			"operation 1 (d par=14 pos=3 xm=(10;13)): deleted subtree differs from the document's: XID 10 in the delta, 12 in the document"},
		{"deleted attributes differ", Delta{Ops: []Op{del(14, 3, xm(12, 13), content(node{name: "status", xid: 13, attrs: []tree.Attr{{Name: "a", Value: "1"}}, kids: []node{tx("Not Available", 12)}}))}},
			"deleted subtree differs from the document's: at XID 13: attributes [{a 1}] in the delta, [] in the document"},
		{"deleted kind differs", Delta{Ops: []Op{del(14, 3, xm(12, 13), content(el("status", 13, el("b", 12))))}},
			"deleted subtree differs from the document's: at XID 12: kind element in the delta, text in the document"},
		{"deleted size differs", Delta{Ops: []Op{del(14, 3, xm(13), content(el("status", 13)))}},
			"deleted subtree differs from the document's: at XID 13: 0 children in the delta, 1 in the document"},
		{"parent is a text", Delta{Ops: []Op{ins(1, 1, xm(20), content(tx("x", 20)))}},
			"operation 1 (i par=1 pos=1 xm=(20)): parent XID 1 is a text, not an element"},
		{"insert reuses XID", Delta{Ops: []Op{ins(14, 1, xm(5), content(tx("x", 5)))}},
			"operation 1 (i par=14 pos=1 xm=(5)): inserted XID 5 is in use in the document"},
		{"insert position out of range", Delta{Ops: []Op{ins(14, 5, xm(20), content(tx("x", 20)))}},
			"operation 1 (i par=14 pos=5 xm=(20)): position 5 out of range: parent XID 14 would have 3 children, so position 4 at most"},
		// One child is said so, not "1 children".
		{"position out of range, one child", Delta{Ops: []Op{del(13, 2, xm(20), content(tx("x", 20)))}},
			"operation 1 (d par=13 pos=2 xm=(20)): position 2 out of range: parent XID 13 has 1 child"},
		{"insert position out of range, one child", Delta{Ops: []Op{ins(13, 3, xm(20), content(tx("x", 20)))}},
			"operation 1 (i par=13 pos=3 xm=(20)): position 3 out of range: parent XID 13 would have 1 child, so position 2 at most"},
		{"insert twice at one position", Delta{Ops: []Op{ins(14, 1, xm(20), content(tx("x", 20))), ins(14, 1, xm(21), content(tx("y", 21)))}},
			"operation 2 (i par=14 pos=1 xm=(21)): position 1 of parent XID 14 is inserted twice (also by operation 1)"},
		{"insert under deleted parent", Delta{Ops: []Op{del(14, 3, xm(12, 13), status()), ins(13, 1, xm(20), content(tx("x", 20)))}},
			"operation 2 (i par=13 pos=1 xm=(20)): parent XID 13 not in document"},
		{"move into own subtree", Delta{Ops: []Op{move(Delete, 15, 2, 14), move(Insert, 11, 1, 14)}},
			"operation 2 (i par=11 pos=1 xm=(14) move): XID 14 is moved into its own subtree"},
		{"move source mismatch", Delta{Ops: []Op{move(Delete, 14, 1, 8), move(Insert, 7, 1, 8)}},
			"operation 1 (d par=14 pos=1 xm=(8) move): child 1 of XID 14 is XID 9, not 8"},
		{"move without target", Delta{Ops: []Op{move(Delete, 14, 1, 9), move(Insert, 7, 1, 8)}},
			"operation 1 (d par=14 pos=1 xm=(9) move): move of XID 9 has no matching insert with move=yes"},
		{"deleted twice", Delta{Ops: []Op{del(14, 3, xm(12, 13), status()), del(14, 3, xm(12, 13), status())}},
			"operation 2 (d par=14 pos=3 xm=(12-13)): XID 12 is deleted twice (also by operation 1)"},
		{"update unpaired", Delta{Ops: []Op{upd(Delete, 13, 1, 12, "Not Available")}},
			"operation 1 (d par=13 pos=1 xm=(12) update): update of XID 12 has no matching insert with update=yes"},
		{"update halves under different parents", Delta{Ops: []Op{upd(Delete, 13, 1, 12, "Not Available"), upd(Insert, 11, 1, 12, "x")}},
			"operation 1 (d par=13 pos=1 xm=(12) update): the other half of the update (operation 2) has parent 11, not 13"},
		{"update old value differs", Delta{Ops: []Op{upd(Delete, 13, 1, 12, "Available"), upd(Insert, 13, 1, 12, "x")}},
			`deleted subtree differs from the document's: at XID 12: value "Available" in the delta, "Not Available" in the document`},
		{"attribute on missing element", Delta{Ops: []Op{attr(AttrUpdate, 99, "a", "1", "2")}},
			`operation 1 (au xid=99 a=a ov="1" nv="2"): element XID 99 not in document`},
		{"attribute on a text", Delta{Ops: []Op{attr(AttrInsert, 12, "a", "", "2")}},
			"XID 12 is a text, not an element"},
		{"attribute missing", Delta{Ops: []Op{attr(AttrDelete, 14, "a", "1", "")}},
			"element XID 14 has no attribute a"},
		{"attribute insert exists", Delta{Ops: []Op{attr(AttrInsert, 14, "a", "", "1"), attr(AttrInsert, 14, "a", "", "1")}},
			"operation 2 (ai xid=14 a=a v=\"1\"): the attribute a of element 14 is changed twice (also by operation 1)"},
		{"rename wrong old name", Delta{Ops: []Op{attr(Rename, 14, "", "item", "thing")}},
			`element XID 14 is named "product", not "item"`},
		{"source map differs", Delta{FromXIDMap: vm(1, 2, 3)},
			"the document's XID-map has 15 XIDs, the delta's source XID-map 3"},
		{"target map differs", Delta{FromXIDMap: vm(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15), ToXIDMap: vm(1, 2)},
			"the result's XID-map has 15 XIDs, the delta's target XID-map 2"},
		{"malformed: move with content", Delta{Ops: []Op{{Kind: Delete, Parent: 14, Pos: 3, XIDs: xm(13), Move: true, Content: status()}}},
			"a move carries no content"},
		{"malformed: position 0", Delta{Ops: []Op{del(14, 0, xm(12, 13), status())}},
			"position 0: positions start at 1"},
		{"malformed: xm length", Delta{Ops: []Op{del(14, 3, xm(13), status())}},
			"XID-map has 1 XIDs for content of 2 nodes"},
		{"malformed: xm differs from content", Delta{Ops: []Op{del(14, 3, xm(11, 13), status())}},
			"content node 1 in post-order has XID 12, the XID-map says 11"},
		{"malformed: no content", Delta{Ops: []Op{del(14, 3, xm(12, 13), nil)}},
			"missing content"},
		// "an element", not "a element".
		{"malformed: element without a name", Delta{Ops: []Op{ins(14, 1, xm(20), &tree.Node{Kind: tree.Element, XID: 20})}},
			"operation 1 (i par=14 pos=1 xm=(20)): an element in the content has no name"},
		{"malformed: kind", Delta{Ops: []Op{{Kind: 42}}},
			"unknown operation kind 42"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := catalog()
			before := a.Clone()
			got, err := Apply(a, &tt.d)
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("err = %v\nwant containing %q", err, tt.err)
			}
			if got != nil {
				t.Errorf("got a document with an error")
			}
			if !errors.Is(err, ErrConflict) && !errors.Is(err, ErrMalformed) {
				t.Errorf("error %v wraps neither ErrConflict nor ErrMalformed", err)
			}
			if diff := sameDoc(a, before); diff != "" || a.NextXID != before.NextXID {
				t.Errorf("input changed: %s", diff)
			}
			if err2 := Validate(a, &tt.d); err2 == nil || err2.Error() != err.Error() {
				t.Errorf("Validate = %v, Apply = %v", err2, err)
			}
		})
	}
}

// TestApplyFlatList is the long list: 5 000 siblings, 40 moved.
func TestApplyFlatList(t *testing.T) {
	const n, moved = 5000, 40
	kids1 := make([]node, n)
	for i := range kids1 {
		kids1[i] = el("li", tree.XID(i+1))
	}
	a := doc(el("ul", n+1, kids1...), n+2)
	b := a.Clone()
	ul := b.Root
	for k := 0; k < moved; k++ {
		from := (k*127 + 3) % len(ul.Children)
		c := ul.RemoveChild(from)
		ul.InsertChild((k*911+7)%(len(ul.Children)+1), c)
	}
	d := mustBuild(t, a, b)
	if s := d.Stats(); s.Moves > moved || s.Inserts+s.Deletes+s.Updates > 0 {
		t.Errorf("stats %+v: want at most %d moves and nothing else", s, moved)
	}
	got, err := Apply(a, d)
	if err != nil {
		t.Fatal(err)
	}
	if diff := sameDoc(got, b); diff != "" {
		t.Fatal(diff)
	}
	back, err := Apply(b, Invert(d))
	if err != nil || sameDoc(back, a) != "" {
		t.Fatalf("invert: %v", err)
	}
}
