package delta

import (
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// node is a compact tree literal for tests: a name and children, or a text.
type node struct {
	name  string
	text  string
	xid   tree.XID
	attrs []tree.Attr
	kids  []node
}

func el(name string, xid tree.XID, kids ...node) node {
	return node{name: name, xid: xid, kids: kids}
}
func tx(s string, xid tree.XID) node { return node{text: s, xid: xid} }

func (n node) build(d *tree.Document) *tree.Node {
	var t *tree.Node
	if n.name == "" {
		t = d.NewText(n.text)
	} else {
		t = d.NewElement(n.name)
		t.Attrs = n.attrs
		for _, k := range n.kids {
			t.AppendChild(k.build(d))
		}
	}
	t.XID = n.xid
	return t
}

func doc(root node, next tree.XID) *tree.Document {
	d := &tree.Document{NextXID: next}
	d.Root = root.build(d)
	return d
}

func opStrings(d *Delta) string {
	var b strings.Builder
	for i := range d.Ops {
		b.WriteString(d.Ops[i].String())
		b.WriteByte('\n')
	}
	return b.String()
}

// TestBuildCamera uses the matching of the seed's figures 3.2-3.5 (notes
// 001a, E1): the delta has the update, the move, the delete and the insert
// of figure 3.5, in XyScript order.
func TestBuildCamera(t *testing.T) {
	v1 := doc(el("Category", 15,
		el("Title", 2, tx("Digital Cameras", 1)),
		el("Discount", 8, el("Product", 7, el("Name", 4, tx("tx123", 3)), el("Price", 6, tx("$499", 5)))),
		el("NewProducts", 14, el("Product", 13, el("Name", 10, tx("zy456", 9)), el("Price", 12, tx("$799", 11)))),
	), 16)
	v2 := doc(el("Category", 15,
		el("Title", 2, tx("Digital Cameras", 1)),
		el("Discount", 8, el("Product", 13, el("Name", 10, tx("zy456", 9)), el("Price", 12, tx("$699", 11)))),
		el("NewProducts", 14, el("Product", 20, el("Name", 17, tx("abc", 16)), el("Price", 19, tx("$899", 18)))),
	), 21)
	d, err := Build(v1, v2)
	if err != nil {
		t.Fatal(err)
	}
	want := `d par=12 pos=1 xm=(11) update "$799"
d par=14 pos=1 xm=(13) move
d par=8 pos=1 xm=(3-7) <Product>
i par=8 pos=1 xm=(13) move
i par=12 pos=1 xm=(11) update "$699"
i par=14 pos=1 xm=(16-20) <Product>
`
	if got := opStrings(d); got != want {
		t.Errorf("ops:\n%s\nwant:\n%s", got, want)
	}
	if got := d.ToXIDMap.String(); got != "(1-2;9-13;8;16-20;14-15|21)" {
		t.Errorf("ToXIDMap = %s", got)
	}
	if got := d.FromXIDMap.String(); got != "(1-15|16)" {
		t.Errorf("FromXIDMap = %s", got)
	}
	if c := d.Cost(1); c != 5+5+1+1 {
		t.Errorf("cost = %d, want 12 (5 deleted, 5 inserted, 1 update, 1 move)", c)
	}
}

// TestBuildReorder is the seed's figure 3.6 (notes E3): one move of A.
func TestBuildReorder(t *testing.T) {
	v1 := doc(el("r", 7, el("A", 1), el("B", 2), el("C", 3), el("D", 4), el("E", 5), el("F", 6)), 8)
	v2 := doc(el("r", 7, el("B", 2), el("C", 3), el("A", 1), el("D", 4), el("E", 5), el("F", 6)), 8)
	d, err := Build(v1, v2)
	if err != nil {
		t.Fatal(err)
	}
	want := "d par=7 pos=1 xm=(1) move\ni par=7 pos=3 xm=(1) move\n"
	if got := opStrings(d); got != want {
		t.Errorf("ops:\n%s\nwant:\n%s", got, want)
	}
}

// TestBuildLongestSubsequence is the seed's chunking example (notes E4): the
// exact subsequence keeps A,B,C,F,G,H and moves D, E, I, J.
func TestBuildLongestSubsequence(t *testing.T) {
	names := "ABCDEFGHIJ"
	var kids1, kids2 []node
	for i, c := range names {
		kids1 = append(kids1, el(string(c), tree.XID(i+1)))
	}
	for _, c := range "DEJIABCFGH" {
		kids2 = append(kids2, el(string(c), tree.XID(strings.IndexRune(names, c)+1)))
	}
	d, err := Build(doc(el("r", 11, kids1...), 12), doc(el("r", 11, kids2...), 12))
	if err != nil {
		t.Fatal(err)
	}
	var moved []tree.XID
	for _, op := range d.Ops {
		if op.Kind == Delete && op.Move {
			moved = append(moved, op.Root())
		}
	}
	if len(moved) != 4 || moved[0] != 10 || moved[1] != 9 || moved[2] != 5 || moved[3] != 4 {
		t.Errorf("moved %v, want J I E D (10 9 5 4)", moved)
	}
}

func TestBuildAttributesAndRename(t *testing.T) {
	p1 := el("p", 2, tx("hello", 1))
	p1.attrs = []tree.Attr{{Name: "a", Value: "1"}, {Name: "b", Value: "2"}, {Name: "z", Value: "gone"}}
	p2 := el("para", 2, tx("hello", 1))
	p2.attrs = []tree.Attr{{Name: "c", Value: "4"}, {Name: "b", Value: "3"}, {Name: "a", Value: "1"}}
	d, err := Build(doc(el("root", 3, p1), 4), doc(el("root", 3, p2), 4))
	if err != nil {
		t.Fatal(err)
	}
	want := `rn xid=2 ov="p" nv="para"
au xid=2 a=b ov="2" nv="3"
ad xid=2 a=z v="gone"
ai xid=2 a=c v="4"
`
	if got := opStrings(d); got != want {
		t.Errorf("ops:\n%s\nwant:\n%s", got, want)
	}
}

func TestBuildErrors(t *testing.T) {
	tests := []struct {
		name   string
		v1, v2 *tree.Document
		err    string
	}{
		{"roots differ", doc(el("a", 1), 2), doc(el("a", 2), 3), "roots must have the same XID (old 1, new 2)"},
		{"missing XID", doc(el("a", 2, el("b", 0)), 3), doc(el("a", 2), 3), "old version: node /a[1]/b[1] has no XID"},
		{"duplicate", doc(el("a", 2), 3), doc(el("a", 2, el("b", 2)), 3), "new version: XID 2 is used twice"},
		{"kind", doc(el("a", 2, el("b", 1)), 3), doc(el("a", 2, tx("b", 1)), 3), "XID 1 is a element in the old version and a text in the new one"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Build(tt.v1, tt.v2)
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("err = %v, want containing %q", err, tt.err)
			}
		})
	}
}

func TestHeaviestIncreasing(t *testing.T) {
	tests := []struct {
		keys    []int
		weights []float64
		want    string
	}{
		{[]int{0, 1, 2}, []float64{1, 1, 1}, "111"},
		{[]int{1, 2, 0}, []float64{1, 1, 1}, "110"},
		{[]int{1, 2, 0}, []float64{1, 1, 5}, "001"},
		{[]int{2, 0, 1}, []float64{1, 1, 1}, "011"},
		{[]int{3, 2, 1, 0}, []float64{1, 1, 1, 1}, "1000"},
		{nil, nil, ""},
		{[]int{1, 0}, []float64{1, 2}, "01"},
	}
	// One scratch for all, as a delta uses it: nothing of a call may leak
	// into the next.
	var scratch lisScratch
	for _, tt := range tests {
		keep := heaviestIncreasing(tt.keys, tt.weights, &scratch)
		var b strings.Builder
		for _, k := range keep {
			if k {
				b.WriteByte('1')
			} else {
				b.WriteByte('0')
			}
		}
		if b.String() != tt.want {
			t.Errorf("keys %v weights %v: keep %s, want %s", tt.keys, tt.weights, b.String(), tt.want)
		}
	}
}

// TestBuildMatchedRefusesBadInverse gives BuildMatched an OldToNew that is
// not the inverse of NewToOld, in each way it can fail.
func TestBuildMatchedRefusesBadInverse(t *testing.T) {
	v1 := doc(el("a", 3, el("b", 1), el("c", 2)), 4)
	v2 := doc(el("a", 3, el("b", 1), el("c", 2)), 4)
	f1, _ := tree.FlattenDocument(v1)
	f2, _ := tree.FlattenDocument(v2)
	for _, tc := range []struct {
		name               string
		newToOld, oldToNew []int32
		err                string
	}{
		{"inverse", []int32{0, 1, 2}, []int32{0, 1, 2}, ""},
		{"a pair of NewToOld missing", []int32{0, 1, 2}, []int32{1, 0, 2}, "not the inverse of NewToOld at new node 0"},
		{"out of range", []int32{0, 1, 2}, []int32{0, 7, 2}, "not the inverse of NewToOld at new node 1"},
		{"a pair more", []int32{0, -1, 2}, []int32{0, 1, 2}, "1 more pairs than NewToOld"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := BuildMatched(&Matching{Old: tree.WeighFlat(f1), New: tree.WeighFlat(f2), NewToOld: tc.newToOld, OldToNew: tc.oldToNew})
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("err = %v, want none", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("err = %v, want containing %q", err, tc.err)
			}
		})
	}
}

// TestBuildProcessingInstructionTarget changes the target of a processing
// instruction, not its data: the delta must say so (an update of the
// node), and applying it must give the new version, both ways.
func TestBuildProcessingInstructionTarget(t *testing.T) {
	version := func(target string) *tree.Document {
		d := &tree.Document{NextXID: 4}
		d.Root = d.NewElement("r")
		d.Root.XID = 3
		pi := d.NewNode(tree.ProcInst, target, "x")
		pi.XID = 1
		b := d.NewElement("b")
		b.XID = 2
		d.Root.AppendChild(pi)
		d.Root.AppendChild(b)
		return d
	}
	old, new := version("a"), version("c")
	d, err := Build(old, new)
	if err != nil {
		t.Fatal(err)
	}
	if d.Empty() {
		t.Fatal("a new target gives an empty delta")
	}
	got, err := Apply(old, d)
	if err != nil {
		t.Fatal(err)
	}
	if diff := tree.Diff(got.Root, new.Root, tree.ContentAndXIDs); diff != "" {
		t.Errorf("Apply(old, delta) != new: %s", diff)
	}
	back, err := Apply(new, Invert(d))
	if err != nil {
		t.Fatal(err)
	}
	if diff := tree.Diff(back.Root, old.Root, tree.ContentAndXIDs); diff != "" {
		t.Errorf("Apply(new, Invert(delta)) != old: %s", diff)
	}
}
