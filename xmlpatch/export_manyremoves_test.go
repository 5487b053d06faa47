package xmlpatch

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/treediff"
)

// TestExportManyRemoves exports the removal of every item of a list of
// 250 000 in time linear in their number: the place of each removed node
// was found by a scan of its siblings (Node.Index), quadratic in the list
// (100 000 items, 3 seconds; 300 000, 25).
// No time is asserted (timing belongs in benchmarks): a quadratic
// regression takes minutes, past go test's -timeout.
func TestExportManyRemoves(t *testing.T) {
	const n = 250_000
	var b strings.Builder
	b.WriteString("<r>")
	for i := range n {
		fmt.Fprintf(&b, "<i>%d</i>", i)
	}
	b.WriteString("<keep/></r>")
	old, new := parseXML(t, b.String()), parseXML(t, "<r><keep/></r>")
	d, err := treediff.Diff(old, new, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Export(old, d)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Ops) != n || p.Ops[0].Kind != Remove || p.Ops[0].Sel != fmt.Sprintf("/r/i[%d]", n) {
		t.Errorf("%d operations, the first %v %q; want %d, remove /r/i[%d]", len(p.Ops), p.Ops[0].Kind, p.Ops[0].Sel, n, n)
	}
}

// TestExportManyRemovesBeforeKept exports the removal of the first
// 150 000 items of a list of 300 000 in time linear in the list: the
// working copy took each removed item out at once and shifted the
// 150 000 after it. No time is asserted: a quadratic regression takes
// minutes, past go test's -timeout.
func TestExportManyRemovesBeforeKept(t *testing.T) {
	const n, kept = 150_000, 150_000
	var b, k strings.Builder
	b.WriteString("<r>")
	k.WriteString("<r>")
	for i := range n + kept {
		fmt.Fprintf(&b, "<i>%d</i>", i)
		if i >= n {
			fmt.Fprintf(&k, "<i>%d</i>", i)
		}
	}
	b.WriteString("</r>")
	k.WriteString("</r>")
	old, new := parseXML(t, b.String()), parseXML(t, k.String())
	d, err := treediff.Diff(old, new, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Export(old, d)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Ops) != n || p.Ops[0].Kind != Remove || p.Ops[0].Sel != fmt.Sprintf("/r/i[%d]", n) {
		t.Errorf("%d operations, the first %v %q; want %d, remove /r/i[%d]", len(p.Ops), p.Ops[0].Kind, p.Ops[0].Sel, n, n)
	}
}
