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
