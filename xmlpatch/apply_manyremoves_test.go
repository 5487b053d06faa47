package xmlpatch

import (
	"fmt"
	"strings"
	"testing"
)

// TestApplyManyRemoves applies the removal of every item of a list of
// 250 000, from the last to the first, as vigil diff --format xmlpatch
// writes it, in time linear in their number: the place of each removed
// element was found by a scan of its siblings, not by the sibling index
// the other edits use, quadratic in the list (300 000 items, 20 seconds).
// No time is asserted (timing belongs in benchmarks): a quadratic
// regression takes minutes, past go test's -timeout.
func TestApplyManyRemoves(t *testing.T) {
	const n = 250_000
	var doc, patch strings.Builder
	doc.WriteString("<r>")
	patch.WriteString("<diff>")
	for i := range n {
		fmt.Fprintf(&doc, "<i>%d</i>", i)
		fmt.Fprintf(&patch, `<remove sel="/r/i[%d]"/>`, n-i)
	}
	doc.WriteString("<keep/></r>")
	patch.WriteString("</diff>")
	p, err := Decode(strings.NewReader(patch.String()))
	if err != nil {
		t.Fatal(err)
	}
	d := parseXML(t, doc.String())
	if err := Apply(d, p); err != nil {
		t.Fatal(err)
	}
	if len(d.Root.Children) != 1 || d.Root.Children[0].Name != "keep" {
		t.Errorf("%d children left, want <keep/> alone", len(d.Root.Children))
	}
}

// TestApplyManyRemovesBeforeKept applies the removal of the first 150 000
// items of a list of 300 000, from the last removed to the first, in time
// linear in the list: each removal took the item out at once and shifted
// the 150 000 after it (some 180 GB moved). No time is asserted: a
// quadratic regression takes minutes, past go test's -timeout.
func TestApplyManyRemovesBeforeKept(t *testing.T) {
	const n, kept = 150_000, 150_000
	var doc, patch strings.Builder
	doc.WriteString("<r>")
	patch.WriteString("<diff>")
	for i := range n + kept {
		fmt.Fprintf(&doc, "<i>%d</i>", i)
	}
	for i := range n {
		fmt.Fprintf(&patch, `<remove sel="/r/i[%d]"/>`, n-i)
	}
	doc.WriteString("</r>")
	patch.WriteString("</diff>")
	p, err := Decode(strings.NewReader(patch.String()))
	if err != nil {
		t.Fatal(err)
	}
	d := parseXML(t, doc.String())
	if err := Apply(d, p); err != nil {
		t.Fatal(err)
	}
	if len(d.Root.Children) != kept || d.Root.Children[0].Children[0].Value != fmt.Sprint(n) {
		t.Errorf("%d children left, want %d from item %d", len(d.Root.Children), kept, n)
	}
}
