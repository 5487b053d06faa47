package xmlpatch

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// manyEmptiedDoc returns a list of n texts, each before an element, and
// then an element, and a patch that replaces each text by an empty value
// (which removes it), from the first: n times <replace
// sel="/r/text()[1]"/>.
func manyEmptiedDoc(n int) (doc, patch string) {
	var d, p strings.Builder
	d.WriteString("<r>")
	p.WriteString("<diff>")
	for i := range n {
		fmt.Fprintf(&d, "t%d<b>%d</b>", i, i)
		p.WriteString(`<replace sel="/r/text()[1]"/>`)
	}
	d.WriteString("<keep/></r>")
	p.WriteString("</diff>")
	return d.String(), p.String()
}

// TestApplyManyEmptied applies runs of replaces of a text by an empty
// value, which removes the text, along a long list, with removes and other
// replaces among them, and checks the result against the patch applied
// one operation at a time and without the sibling index: a run of them
// leaves the texts in their lists, pending, as a run of removes does,
// where each took its text out at once and shifted the children after it.
func TestApplyManyEmptied(t *testing.T) {
	const n = 400
	list := func(item string) string {
		var b strings.Builder
		b.WriteString("<r>")
		for i := range n {
			fmt.Fprintf(&b, item, i)
		}
		b.WriteString("t<keep/></r>")
		return b.String()
	}
	ops := func(op func(i int) string) string {
		var b strings.Builder
		b.WriteString("<diff>")
		for i := range n {
			b.WriteString(op(i))
		}
		b.WriteString("</diff>")
		return b.String()
	}
	emptied, _ := manyEmptiedDoc(n)
	for name, tc := range map[string]struct{ doc, patch string }{
		"from the first": {emptied, ops(func(int) string { return `<replace sel="/r/text()[1]"/>` })},
		"from the last": {emptied, ops(func(i int) string {
			return fmt.Sprintf(`<replace sel="/r/text()[%d]"></replace>`, n-i)
		})},
		"every other, from the second": {list("t%d<b/>"), ops(func(i int) string {
			if i >= n/2 {
				return ""
			}
			return fmt.Sprintf(`<replace sel="/r/text()[%d]"/>`, i+2)
		})},
		"texts joined by removes between": {list("t%d<b/>"), ops(func(i int) string {
			if i%2 == 0 {
				return `<remove sel="/r/b[1]"/>`
			}
			return `<replace sel="/r/text()[1]"/>`
		})},
		"texts joined around them": {list("<b/>t%d<i/>"), ops(func(i int) string {
			if i%2 == 0 {
				return `<replace sel="/r/text()[1]"/><remove sel="/r/b[2]"/>`
			}
			return `<remove sel="/r/i[1]"/><replace sel="/r/text()[2]"/>`
		})},
		"with other replaces and removes": {list("t%d<b/><i>x</i>"), ops(func(i int) string {
			switch i % 4 {
			case 0:
				return `<replace sel="/r/text()[1]"/>`
			case 1:
				return `<replace sel="/r/text()[2]">v</replace>`
			case 2:
				return `<replace sel="/r/b[2]"><c/></replace><remove sel="/r/i[.='x'][1]/text()"/>`
			}
			return `<replace sel="/r/i[.='x'][2]/text()[1]"/><replace sel="/r/text()[2]"/>`
		})},
	} {
		t.Run(name, func(t *testing.T) {
			p, err := Decode(strings.NewReader(tc.patch))
			if err != nil {
				t.Fatal(err)
			}
			got := parseXML(t, tc.doc)
			if err := Apply(got, p); err != nil {
				t.Fatal(err)
			}
			one := parseXML(t, tc.doc)
			for i := range p.Ops {
				if err := Apply(one, &Patch{Ops: p.Ops[i : i+1]}); err != nil {
					t.Fatalf("operation %d alone: %v", i+1, err)
				}
			}
			noIndex := parseXML(t, tc.doc)
			noSiblingIndex = true
			// Its selectors scan the lists, which costs more work.
			err = Apply(noIndex, &Patch{Ops: p.Ops, WorkLimit: 1 << 40})
			noSiblingIndex = false
			if err != nil {
				t.Fatalf("without the sibling index: %v", err)
			}
			if g, w := shape(got.Root), shape(one.Root); g != w {
				t.Errorf("applied whole:\n%s\none operation at a time:\n%s", g, w)
			}
			if g, w := shape(got.Root), shape(noIndex.Root); g != w {
				t.Errorf("applied whole:\n%s\nwithout the sibling index:\n%s", g, w)
			}
			if g := shape(got.Root); g == shape(parseXML(t, tc.doc).Root) {
				t.Errorf("the patch changed nothing: %s", g)
			}
		})
	}
}

// TestApplyManyEmptiedLong replaces each of 100 000 texts of a list by an
// empty value, from the first, in work linear in the list, and checks the
// document left: the elements alone. The work is held to 32 units an
// operation (no time is asserted): each replace took its text out at
// once and counted the children it shifted, some 1 200 units an
// operation.
func TestApplyManyEmptiedLong(t *testing.T) {
	const n = 100_000
	doc, patch := manyEmptiedDoc(n)
	p, err := Decode(strings.NewReader(patch))
	if err != nil {
		t.Fatal(err)
	}
	p.WorkLimit = 32 * n
	d := parseXML(t, doc)
	if err := Apply(d, p); err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	want.WriteString("<r>")
	for i := range n {
		fmt.Fprintf(&want, "<b>%d</b>", i)
	}
	want.WriteString("<keep/></r>")
	if g, w := shape(d.Root), shape(parseXML(t, want.String()).Root); g != w {
		t.Errorf("got %.200s…, want %.200s…", g, w)
	}
}

// shape writes n and its subtree a node a line, its kind, name and value,
// so that two texts side by side differ from one that holds both.
func shape(n *tree.Node) string {
	var b strings.Builder
	var walk func(n *tree.Node, depth int)
	walk = func(n *tree.Node, depth int) {
		fmt.Fprintf(&b, "%*s%d %s %q\n", 2*depth, "", n.Kind, n.Name, n.Value)
		for _, c := range n.Children {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	return b.String()
}
