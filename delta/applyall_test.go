package delta

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// TestApplyAll applies chains of random deltas at once, from decoded files
// (whose consecutive maps share their XIDs, so the index is kept from step
// to step) and from the deltas as built (whose maps do not): the last
// version, and the input left as it was. A chain with a step that does not
// fit is refused with the step's number, the input still as it was.
// chainOf returns the deltas between consecutive versions, as built and
// as read back from one XyDelta file (vigil patch and vigil compose read
// them so).
func chainOf(t testing.TB, vs []*tree.Document) (built, decoded []*Delta) {
	t.Helper()
	for i := 1; i < len(vs); i++ {
		built = append(built, mustBuild(t, vs[i-1], vs[i]))
	}
	var buf bytes.Buffer
	if err := EncodeXML(&buf, built...); err != nil {
		t.Fatal(err)
	}
	decoded, err := DecodeXML(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return built, decoded
}

func TestApplyAll(t *testing.T) {
	for seed := range 60 {
		vs := versions(uint64(seed), 10+seed%40, 1+seed%6, 2+seed%7)
		ds, decoded := chainOf(t, vs)
		for i := 1; i < len(decoded); i++ {
			if !decoded[i].FromXIDMap.Equal(decoded[i-1].ToXIDMap) {
				t.Fatalf("seed %d: step %d's source map is not the previous target map", seed, i+1)
			}
		}
		first, last := vs[0], vs[len(vs)-1]
		before := first.Clone()
		for _, chain := range [][]*Delta{ds, decoded} {
			got, err := ApplyAll(first, chain)
			if err != nil {
				t.Fatalf("seed %d: ApplyAll: %v", seed, err)
			}
			if diff := sameDoc(got, last); diff != "" {
				t.Fatalf("seed %d: ApplyAll gives another last version: %s", seed, diff)
			}
			if diff := sameDoc(first, before); diff != "" {
				t.Fatalf("seed %d: ApplyAll changed its input: %s", seed, diff)
			}
		}
		if len(ds) < 2 {
			continue
		}
		// The first step twice: the second time it does not fit.
		broken := append([]*Delta{decoded[0]}, decoded...)
		if _, err := ApplyAll(first, broken); err == nil || !strings.HasPrefix(err.Error(), "delta 2: ") {
			t.Errorf("seed %d: a step that does not fit: %v, want an error naming delta 2", seed, err)
		}
		if diff := sameDoc(first, before); diff != "" {
			t.Fatalf("seed %d: a refused ApplyAll changed its input: %s", seed, diff)
		}
	}
}

// TestApplyAllValuesOnly applies chains in which most steps only update
// texts in place and change attributes (ApplyAll skips the walk of the
// document after those) and a few insert, decoded from a file as vigil
// patch reads them: the same result and next XID as Apply step by step,
// and a step that does not fit is named, text update or attribute change.
func TestApplyAllValuesOnly(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	v := doc(el("r", 7, el("a", 2, tx("one", 1)), el("a", 4, tx("two", 3)), el("b", 6, tx("three", 5))), 8)
	vs := []*tree.Document{v}
	for step := range 40 {
		next := vs[len(vs)-1].Clone()
		var texts, elems []*tree.Node
		tree.Walk(next.Root, func(n *tree.Node) bool {
			if n.Kind == tree.Text {
				texts = append(texts, n)
			} else {
				elems = append(elems, n)
			}
			return true
		})
		switch {
		case step%10 == 9: // now and then, a new element
			p := elems[r.IntN(len(elems))]
			n := next.NewElement("c")
			n.XID = next.NextXID
			next.NextXID++
			p.AppendChild(n)
		case step%2 == 0:
			texts[r.IntN(len(texts))].Value = fmt.Sprint("text ", step)
		default:
			e := elems[r.IntN(len(elems))]
			e.Attrs = []tree.Attr{{Name: "v", Value: fmt.Sprint(step)}}
		}
		vs = append(vs, next)
	}
	_, decoded := chainOf(t, vs)
	want := vs[0]
	for i, d := range decoded {
		var err error
		if want, err = Apply(want, d); err != nil {
			t.Fatalf("Apply, step %d: %v", i+1, err)
		}
	}
	got, err := ApplyAll(vs[0], decoded)
	if err != nil {
		t.Fatalf("ApplyAll: %v", err)
	}
	if diff := sameDoc(got, want); diff != "" {
		t.Fatalf("ApplyAll differs from Apply step by step: %s", diff)
	}
	if got.NextXID != want.NextXID {
		t.Errorf("ApplyAll's next XID %d, Apply's %d", got.NextXID, want.NextXID)
	}
	skipped := 0
	for _, d := range decoded[1:] {
		if !d.reshapes() {
			skipped++
		}
	}
	if skipped < 30 {
		t.Errorf("only %d steps of %d keep the shape", skipped, len(decoded))
	}
	// Steps 7 (a text update) and 8 (an attribute) twice: their old values
	// are no longer there the second time.
	for _, k := range []int{7, 8} {
		broken := append(append(append([]*Delta{}, decoded[:k]...), decoded[k-1]), decoded[k:]...)
		want := "delta " + fmt.Sprint(k+1) + ": "
		if _, err := ApplyAll(vs[0], broken); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("step %d repeated: %v, want an error starting %q", k, err, want)
		}
	}
}

// TestApplyAllUpdateElsewhere applies, after a first step, a text update
// whose new text is not where the old one was, with equal XID-maps: Apply
// refuses it (the result's map is not the target's), and so does ApplyAll,
// which skips its check only for updates in place.
func TestApplyAllUpdateElsewhere(t *testing.T) {
	v0 := doc(el("p", 3, tx("x", 1), el("e", 2)), 4)
	v1 := v0.Clone()
	v1.Root.SetAttr("k", "v")
	first := mustBuild(t, v0, v1)
	update := &Delta{FromXIDMap: first.ToXIDMap, ToXIDMap: first.ToXIDMap, Ops: []Op{
		{Kind: Delete, Parent: 3, Pos: 1, Update: true, XIDs: xm(1), Content: v1.CloneNode(v1.Root.Children[0])},
		{Kind: Insert, Parent: 3, Pos: 2, Update: true, XIDs: xm(1), Content: v1.CloneNode(v1.Root.Children[0])},
	}}
	update.Ops[1].Content.Value = "y"
	if _, err := Apply(v1, update); err == nil {
		t.Fatal("Apply accepts the update elsewhere")
	}
	if _, err := ApplyAll(v0, []*Delta{first, update}); err == nil || !strings.HasPrefix(err.Error(), "delta 2: ") {
		t.Errorf("ApplyAll: %v, want delta 2 refused", err)
	}
	update.Ops[1].Pos = 1 // in place: fine
	got, err := ApplyAll(v0, []*Delta{first, update})
	if err != nil || got.Root.Children[0].Value != "y" {
		t.Errorf("ApplyAll of the update in place: %v", err)
	}
}

// TestApplyAllCyclicMove moves a node into its own subtree at the second
// step, on a document whose nodes were all reached at the first: refused,
// naming the step and the operation, as Apply refuses it, whatever the
// nodes' Post fields hold.
func TestApplyAllCyclicMove(t *testing.T) {
	v0 := doc(el("r", 5, el("a", 3, el("b", 2, tx("x", 1))), el("c", 4)), 6)
	v1 := v0.Clone()
	v1.Root.Children[1].SetAttr("k", "v")
	d1 := mustBuild(t, v0, v1)
	cyclic := &Delta{FromXIDMap: d1.ToXIDMap, ToXIDMap: d1.ToXIDMap, Ops: []Op{
		{Kind: Delete, Parent: 5, Pos: 1, Move: true, XIDs: xm(3)},
		{Kind: Insert, Parent: 2, Pos: 2, Move: true, XIDs: xm(3)},
	}}
	const want = "XID 3 is moved into its own subtree"
	if _, err := ApplyAll(v0, []*Delta{d1, cyclic}); err == nil || !strings.HasPrefix(err.Error(), "delta 2: ") || !strings.Contains(err.Error(), want) {
		t.Errorf("ApplyAll: %v, want delta 2 refused: %s", err, want)
	}
	for _, post := range []int32{0, 1, 7} {
		v := v1.Clone()
		tree.Walk(v.Root, func(n *tree.Node) bool { n.Post = post; return true })
		if _, err := Apply(v, cyclic); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Apply, Post fields %d: %v, want %s", post, err, want)
		}
	}
}
