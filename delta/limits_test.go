package delta

import (
	"bytes"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// deepChain returns an element chain depth deep, XIDs from first up in
// post-order (the innermost gets first).
func deepChain(d *tree.Document, depth int, first tree.XID) *tree.Node {
	var inner *tree.Node
	for k := 0; k < depth; k++ {
		n := d.NewElement("e")
		n.XID = first + tree.XID(k)
		if inner != nil {
			n.AppendChild(inner)
		}
		inner = n
	}
	return inner
}

// TestDeepContent: a subtree 100 000 levels deep is inserted, encoded,
// decoded, composed, inverted and deleted without growing the stack.
func TestDeepContent(t *testing.T) {
	const depth = 100000
	a := doc(el("root", 1), 2)
	b := a.Clone()
	b.Root.AppendChild(deepChain(b, depth, 2))
	b.NextXID = depth + 2
	d := mustBuild(t, a, b)
	got, err := Apply(a, d)
	if err != nil || sameDoc(got, b) != "" {
		t.Fatalf("Apply: %v", err)
	}
	var buf bytes.Buffer
	if err := EncodeXML(&buf, d); err != nil {
		t.Fatal(err)
	}
	ds, err := DecodeXML(&buf)
	if err != nil || !Equal(ds[0], d) {
		t.Fatalf("XML round trip: %v", err)
	}
	c, err := Compose(d, Invert(d))
	if err != nil || !c.Empty() {
		t.Fatalf("Compose(d, Invert(d)) = %v, %v", c, err)
	}
	back, err := Apply(got, Invert(d))
	if err != nil || sameDoc(back, a) != "" {
		t.Fatalf("Apply(Invert): %v", err)
	}
	// JSON too, though it nests two levels per level of content, twenty
	// times encoding/json's limit.
	buf.Reset()
	if err := EncodeJSON(&buf, d); err != nil {
		t.Fatal(err)
	}
	if dj, err := DecodeJSON(&buf); err != nil || !Equal(dj, d) {
		t.Fatalf("JSON round trip: %v", err)
	}
}

// TestHostileInput: inputs that would make a naive decoder allocate without
// bound are refused.
func TestHostileInput(t *testing.T) {
	for _, in := range []string{
		`<unit_delta><t><d par="1" pos="1" xm="(1-99999999999)"/></t></unit_delta>`,
		`<unit_delta><t fromXidMap="(1-99999999999)"></t></unit_delta>`,
	} {
		if _, err := DecodeXML(strings.NewReader(in)); err == nil || !strings.Contains(err.Error(), "longer than") && !strings.Contains(err.Error(), "lists more than 1025 XIDs") {
			t.Errorf("DecodeXML(%s) = %v", in, err)
		}
	}
	if _, err := DecodeJSON(strings.NewReader(`{"ops":[{"op":"d","par":1,"pos":1,"xm":"(1-99999999999)","move":true}]}`)); err == nil || !strings.Contains(err.Error(), "ops[0].xm: XID-map") {
		t.Errorf("DecodeJSON with a huge xm: %v", err)
	}
	// A position far beyond any document in a composition.
	d1 := one(Op{Kind: Insert, Parent: 1, Pos: 1 << 40, XIDs: xm(5), Content: content(tx("x", 5))})
	d2 := one(Op{Kind: AttrInsert, Node: 1, Name: "a", NewValue: "1"})
	if _, err := Compose(d1, d2); err == nil || !strings.Contains(err.Error(), "positions too large") {
		t.Errorf("Compose with a huge position: %v", err)
	}
}
