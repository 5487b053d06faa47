package xmlpatch

import (
	"fmt"
	"strings"
	"testing"
)

// TestApplyManyRemoves applies the removal of many items of a long list,
// from the last removed to the first, as vigil diff --format xmlpatch
// writes it, in time linear in the list: the place of each removed element
// was found by a scan of its siblings (all 300 000 items removed, 20
// seconds), and each removal took the item out at once and shifted the
// items after it (the first 150 000 of 300 000 removed, some 180 GB moved).
// No time is asserted (timing belongs in benchmarks): a quadratic
// regression takes minutes, past go test's -timeout.
func TestApplyManyRemoves(t *testing.T) {
	for _, tc := range []struct {
		name            string
		removed, kept   int
		keepLast, first string // the element kept last, the first item's text left
	}{
		{"all, then an element kept", 250_000, 0, "keep", ""},
		{"the first half", 150_000, 150_000, "i", "150000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var doc, patch strings.Builder
			doc.WriteString("<r>")
			patch.WriteString("<diff>")
			for i := range tc.removed + tc.kept {
				fmt.Fprintf(&doc, "<i>%d</i>", i)
			}
			for i := range tc.removed {
				fmt.Fprintf(&patch, `<remove sel="/r/i[%d]"/>`, tc.removed-i)
			}
			if tc.kept == 0 {
				doc.WriteString("<keep/>")
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
			kids := d.Root.Children
			want := max(tc.kept, 1)
			if len(kids) != want || kids[len(kids)-1].Name != tc.keepLast ||
				tc.first != "" && kids[0].Children[0].Value != tc.first {
				t.Errorf("%d children left, want %d, the last <%s>, the first holding %q", len(kids), want, tc.keepLast, tc.first)
			}
		})
	}
}
