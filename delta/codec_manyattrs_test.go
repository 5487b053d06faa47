package delta

import (
	"fmt"
	"strings"
	"testing"
)

// TestDecodeXMLManyAttributes decodes an inserted element with 100 000
// attributes in time linear in their number (each was compared with
// those before it: a minute), and still refuses one given twice, in a
// tag with few attributes or many, naming it where it is.
// No time is asserted (timing belongs in benchmarks): a quadratic
// regression takes minutes, past go test's -timeout.
func TestDecodeXMLManyAttributes(t *testing.T) {
	element := func(n int, again string) string {
		var b strings.Builder
		b.WriteString("<e")
		for k := range n {
			fmt.Fprintf(&b, ` a%d="%d"`, k, k)
		}
		if again != "" {
			fmt.Fprintf(&b, ` %s="again"`, again)
		}
		b.WriteString("/>")
		return b.String()
	}
	in := func(e string) string {
		return `<unit_delta><t><i par="1" pos="1" xm="(2)">` + e + `</i></t></unit_delta>`
	}
	const n = 100_000
	ds, err := DecodeXML(strings.NewReader(in(element(n, ""))))
	if err != nil {
		t.Fatal(err)
	}
	if got := len(ds[0].Ops[0].Content.Attrs); got != n {
		t.Errorf("%d attributes, want %d", got, n)
	}
	for _, tc := range []struct {
		n     int
		again string
	}{{3, "a1"}, {manyAttrs, "a0"}, {manyAttrs + 1, "a0"}, {1000, "a999"}, {1000, "a0"}} {
		e := element(tc.n, tc.again)
		want := fmt.Sprintf("line 1, column %d: operation 1: <e> has attribute %s twice", len(`<unit_delta><t><i par="1" pos="1" xm="(2)">`)+len(e)+1, tc.again)
		if _, err := DecodeXML(strings.NewReader(in(e))); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%d attributes and %s again: %v, want %q", tc.n, tc.again, err, want)
		}
	}
}
