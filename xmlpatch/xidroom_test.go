package xmlpatch

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// TestApplyNoXIDsLeft: a patch whose added nodes' fresh XIDs would reach
// the largest XID, 18446744073709551615 (a document that holds it, or
// whose NextXID leaves too few below it), fails naming the XIDs and
// leaves the document as it was, where it gave a node the largest XID
// (and the next ones 0 and the document's own), which every later diff
// refuses; fresh XIDs start above every XID the document holds, as a
// diff's do.
func TestApplyNoXIDsLeft(t *testing.T) {
	for _, c := range []struct {
		name    string
		xids    []tree.XID // of a, r
		next    tree.XID
		patch   string
		want    string // in the error, or the XID-map after
		failing bool
	}{
		{"next near the largest", []tree.XID{1, 2}, math.MaxUint64 - 2, `<add sel="r"><b>t</b></add>`,
			"the document's next XID 18446744073709551613 leaves too few below 18446744073709551615, the largest, for the 2 nodes the operation adds", true},
		{"next is the largest", []tree.XID{1, 2}, math.MaxUint64, `<add sel="r"><b/></add>`,
			"the document's next XID 18446744073709551615 leaves too few", true},
		{"the largest held", []tree.XID{1, math.MaxUint64}, 3, `<add sel="r"><b/></add>`,
			"the document holds XID 18446744073709551615, the largest, which leaves none to allocate next", true},
		{"a replace", []tree.XID{1, 2}, math.MaxUint64 - 1, `<replace sel="r/a"><c/></replace>`,
			"next XID 18446744073709551614 leaves too few", true},
		{"the last that fit", []tree.XID{1, 2}, math.MaxUint64 - 3, `<add sel="r"><b>t</b></add>`,
			"(1;18446744073709551612-18446744073709551613;2|18446744073709551614)", false},
		{"above a held XID past next", []tree.XID{7, 2}, 3, `<add sel="r"><b/></add>`,
			"(7-8;2|9)", false},
		{"a removal needs none", []tree.XID{1, 2}, math.MaxUint64 - 1, `<remove sel="r/a"/>`,
			"(2|18446744073709551614)", false},
		{"an add of nothing needs none, the largest held", []tree.XID{1, math.MaxUint64}, 3, `<add sel="r"></add>`,
			"(1;18446744073709551615|3)", false},
	} {
		doc := parseXML(t, `<r><a/></r>`)
		for i, n := range tree.PostOrderNodes(doc.Root) {
			n.XID = c.xids[i]
		}
		doc.NextXID = c.next
		before := doc.XIDMap().String()
		p, err := Decode(strings.NewReader(`<diff>` + c.patch + `</diff>`))
		if err != nil {
			t.Fatal(err)
		}
		err = Apply(doc, p)
		if !c.failing {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			} else if got := doc.XIDMap().String(); got != c.want {
				t.Errorf("%s: XID-map %s, want %s", c.name, got, c.want)
			}
			continue
		}
		var pe *Error
		if !errors.As(err, &pe) || pe.Op != 1 || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err = %v, want an *Error of operation 1 saying %q; XID-map %s", c.name, err, c.want, doc.XIDMap())
		}
		if got := doc.XIDMap().String(); got != before || len(doc.Root.Children) != 1 {
			t.Errorf("%s: the failed patch left XID-map %s, want %s", c.name, got, before)
		}
	}
}
