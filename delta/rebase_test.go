package delta

import (
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// TestRebase numbers the same middle version two ways and checks that the
// second delta, rebased onto the first's numbering, applies after it.
func TestRebase(t *testing.T) {
	v1 := doc(el("r", 4, el("a", 2, tx("x", 1)), el("b", 3)), 5)
	v2 := doc(el("r", 4, el("b", 3), el("a", 2, tx("y", 1)), el("c", 5)), 6)
	d12, err := Build(v1, v2)
	if err != nil {
		t.Fatal(err)
	}
	// v2 numbered afresh, as a separate diff would, then changed into v3.
	v2fresh := v2.Clone()
	v2fresh.AssignXIDs()
	v3 := v2fresh.Clone()
	v3.Root.RemoveChild(0)  // b goes
	c := v3.NewElement("d") // d comes
	c.XID = v3.NextXID
	v3.NextXID++
	v3.Root.AppendChild(c)
	d23, err := Build(v2fresh, v3)
	if err != nil {
		t.Fatal(err)
	}
	rebased, err := Rebase(d23, d12.ToXIDMap)
	if err != nil {
		t.Fatal(err)
	}
	if rebased.FromXIDMap.String() != d12.ToXIDMap.String() {
		t.Fatalf("rebased source map %s, want %s", rebased.FromXIDMap, d12.ToXIDMap)
	}
	mid, err := Apply(v1, d12)
	if err != nil {
		t.Fatal(err)
	}
	end, err := Apply(mid, rebased)
	if err != nil {
		t.Fatalf("apply rebased: %v", err)
	}
	if diff := tree.Diff(end.Root, v3.Root, tree.Content); diff != "" {
		t.Fatal(diff)
	}
	if _, err := Rebase(d23, vm(1, 2)); err == nil {
		t.Error("rebase onto a map of another size succeeded")
	}
}
