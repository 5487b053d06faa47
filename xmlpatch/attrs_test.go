package xmlpatch

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
)

// manyAttrs returns <doc xmlns:p="urn:p"><r .../></doc> where r has n
// attributes: ai (every 100th p:ai instead) with the value value(i), or
// none where value returns "", and the new attributes bi for the i below
// added.
func manyAttrs(t *testing.T, n int, value func(i int) string, added int) *tree.Document {
	t.Helper()
	var b strings.Builder
	b.WriteString(`<doc xmlns:p="urn:p"><x/><r`)
	for i := range n {
		v := value(i)
		if v == "" {
			continue
		}
		if i%100 == 0 {
			fmt.Fprintf(&b, ` p:a%d="%s"`, i, v)
		} else {
			fmt.Fprintf(&b, ` a%d="%s"`, i, v)
		}
	}
	for i := range added {
		fmt.Fprintf(&b, ` b%d="%d"`, i, i)
	}
	b.WriteString(`/><x/></doc>`)
	return parseXML(t, b.String())
}

// TestAttributeChangesLinear changes, removes and adds attributes of one
// element with 20 000 of them: the export and the apply of the patch
// cost work linear in the attributes and the operations, where a scan of
// the element's attributes for each operation cost their product, and
// the patch Export writes applies within the default work limit and
// rebuilds the new version.
func TestAttributeChangesLinear(t *testing.T) {
	const n = 20000
	old := manyAttrs(t, n, func(i int) string { return fmt.Sprint(i) }, 0)
	new := manyAttrs(t, n, func(i int) string {
		switch i % 4 {
		case 1:
			return fmt.Sprint(i + 1)
		case 2:
			return ""
		}
		return fmt.Sprint(i)
	}, n/4)
	d, err := treediff.Diff(old, new, nil)
	if err != nil {
		t.Fatal(err)
	}
	target, err := delta.Apply(old, d)
	if err != nil {
		t.Fatal(err)
	}
	x := newExporter(old, d, target, true)
	p, err := x.run()
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Ops) < n/2 {
		t.Fatalf("%d operations, want one per attribute changed (%d or more)", len(p.Ops), n/2)
	}
	units := int64(n + len(p.Ops))
	if x.w.spent > 16*units {
		t.Errorf("export: work %d for %d attributes and %d operations, want at most %d", x.w.spent, n, len(p.Ops), 16*units)
	}
	back, err := Decode(strings.NewReader(encode(t, p)))
	if err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int64{0, 8 * units} {
		doc := old.Clone()
		back.WorkLimit = limit
		if err := Apply(doc, back); err != nil {
			t.Fatalf("apply with work limit %d: %v", limit, err)
		}
		if diff := tree.Diff(doc.Root, new.Root, tree.Content); diff != "" {
			t.Fatalf("work limit %d: Apply(old, Export(old, Diff(old, new))) != new: %s", limit, diff)
		}
	}
}

// TestApplyLargeElementAttributes applies, to an element with enough
// attributes for Apply to index them, removals between changes of its
// namespace declarations (which drop the index) and attribute operations
// that read the index again: each finds the attribute the element has at
// that point, and the removed ones are gone from the result.
func TestApplyLargeElementAttributes(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<r xmlns:p="urn:p" xmlns:q="urn:q"`)
	for i := range attrTableMin + 4 {
		fmt.Fprintf(&b, ` a%d="%d"`, i, i)
	}
	b.WriteString(` p:c="1"><e p:d="1"/></r>`)
	const patch = `<diff xmlns:x="urn:p" xmlns:y="urn:y">` +
		`<remove sel="r/@a3"/>` +
		`<replace sel="r/@a4">four</replace>` +
		`<remove sel="r/@x:c"/>` +
		`<add sel="r" type="@y:new">n</add>` + // declares a prefix: the index is dropped
		`<remove sel="r/@a5"/>` +
		`<replace sel="r/@a6">six</replace>` +
		`<remove sel="r/namespace::q"/>` + // shifts the attributes
		`<replace sel="r/@a7">seven</replace>` +
		`<remove sel="r/@a8"/>` +
		`<add sel="r" type="@a3">back</add>` +
		`<replace sel="r/@a3">again</replace>` +
		`<remove sel="r/@a19"/>` +
		`</diff>`
	got := applyBoth(t, b.String(), patch)
	var want strings.Builder
	want.WriteString(`<r xmlns:p="urn:p"`)
	for i := range attrTableMin + 4 {
		switch i {
		case 3, 5, 8, 19:
		case 4:
			want.WriteString(` a4="four"`)
		case 6:
			want.WriteString(` a6="six"`)
		case 7:
			want.WriteString(` a7="seven"`)
		default:
			fmt.Fprintf(&want, ` a%d="%d"`, i, i)
		}
	}
	want.WriteString(` xmlns:y="urn:y" y:new="n" a3="again"><e p:d="1"/></r>`)
	if got != want.String() {
		t.Errorf("got\n%s\nwant\n%s", got, want.String())
	}
}
