package xmlpatch

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// TestExportManyRemoves exports the removal of many items of a long list
// in time linear in the list: the place of each removed node was found by
// a scan of its siblings (Node.Index), quadratic in the list (all of
// 300 000 items removed, 25 seconds), and the working copy took each
// removed item out at once and shifted the items after it (the first
// 150 000 of 300 000). No time is asserted (timing belongs in
// benchmarks): a quadratic regression takes minutes, past go test's
// -timeout.
func TestExportManyRemoves(t *testing.T) {
	for _, tc := range []struct {
		name          string
		removed, kept int
	}{
		{"all, then an element kept", 250_000, 0},
		{"the first half", 150_000, 150_000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b, k strings.Builder
			b.WriteString("<r>")
			k.WriteString("<r>")
			for i := range tc.removed + tc.kept {
				fmt.Fprintf(&b, "<i>%d</i>", i)
				if i >= tc.removed {
					fmt.Fprintf(&k, "<i>%d</i>", i)
				}
			}
			if tc.kept == 0 {
				b.WriteString("<keep/>")
				k.WriteString("<keep/>")
			}
			b.WriteString("</r>")
			k.WriteString("</r>")
			p := exportPatch(t, parseXML(t, b.String()), parseXML(t, k.String()))
			n := tc.removed
			if len(p.Ops) != n || p.Ops[0].Kind != Remove || p.Ops[0].Sel != fmt.Sprintf("/r/i[%d]", n) {
				t.Errorf("%d operations, the first %v %q; want %d, remove /r/i[%d]", len(p.Ops), p.Ops[0].Kind, p.Ops[0].Sel, n, n)
			}
		})
	}
}

// TestExportManyReplaced exports the replacement of every element of a
// long list of texts and elements (each renamed, so replaced whole) and
// applies the patch, in time linear in the list: Apply took each replaced
// element out of its parent's list and put the new one in, shifting the
// children after it twice and counting them as work, so that the patch of
// 100 000 replaces passed the work limit at its 25 657th operation. No
// time is asserted (timing belongs in benchmarks).
func TestExportManyReplaced(t *testing.T) {
	const n = 100_000
	var b, k strings.Builder
	b.WriteString("<r>")
	k.WriteString("<r>")
	for i := range n {
		fmt.Fprintf(&b, "t%d<b/>", i)
		fmt.Fprintf(&k, "t%d<i/>", i)
	}
	b.WriteString("</r>")
	k.WriteString("</r>")
	old, new := parseXML(t, b.String()), parseXML(t, k.String())
	p := exportPatch(t, old, new)
	if len(p.Ops) != n || p.Ops[0].Kind != Replace || p.Ops[0].Sel != "/r/b[1]" {
		t.Errorf("%d operations, the first %v %q; want %d, replace /r/b[1]", len(p.Ops), p.Ops[0].Kind, p.Ops[0].Sel, n)
	}
	got := old.Clone()
	if err := Apply(got, p); err != nil {
		t.Fatal(err)
	}
	if diff := tree.Diff(got.Root, new.Root, tree.Content); diff != "" {
		t.Errorf("the patched document differs from the new one:\n%s", diff)
	}
}
