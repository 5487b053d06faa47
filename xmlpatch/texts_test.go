package xmlpatch

import (
	"runtime"
	"strings"
	"testing"
)

// TestApplyJoinsTextsLinearly checks that the texts Apply joins are
// joined in memory linear in their length, not copied whole at each
// join: a patch that adds text beside a long text again and again, that
// removes the elements between many texts one by one, or whose content
// holds many texts split by empty CDATA sections, allocated the square of
// the text's length (seconds of copying for a patch of a few kilobytes).
func TestApplyJoinsTextsLinearly(t *testing.T) {
	const removes, pieces = 5000, 20000
	cases := []struct {
		name, doc, patch string
		want             string // the root's text after the patch
	}{{
		"adds beside a long text",
		"<r>" + strings.Repeat("a", 1<<20) + "</r>",
		"<diff>" + strings.Repeat(`<add sel="r">x</add>`, 500) + "</diff>",
		strings.Repeat("a", 1<<20) + strings.Repeat("x", 500),
	}, {
		"removes between texts",
		"<r>" + strings.Repeat(strings.Repeat("t", 100)+"<b/>", removes) + "</r>",
		"<diff>" + strings.Repeat(`<remove sel="r/b[1]"/>`, removes) + "</diff>",
		strings.Repeat("t", 100*removes),
	}, {
		"content of texts split by empty CDATA sections",
		"<r/>",
		`<diff><add sel="r">` + strings.Repeat("abcd<![CDATA[]]>", pieces) + "</add></diff>",
		strings.Repeat("abcd", pieces),
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := parseXML(t, c.doc)
			p, err := Decode(strings.NewReader(c.patch))
			if err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			err = Apply(doc, p)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(clip(err.Error(), 200))
			}
			if len(doc.Root.Children) != 1 || doc.Root.Children[0].Value != c.want {
				t.Fatalf("the root holds %d children, not the one text joined", len(doc.Root.Children))
			}
			// The input is at most 1 MB; a join that copies the whole text
			// each time allocates hundreds of megabytes.
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32<<20 {
				t.Errorf("Apply allocated %d MB", alloc>>20)
			}
		})
	}
}
