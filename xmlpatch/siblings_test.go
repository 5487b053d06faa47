package xmlpatch

import (
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/simulate"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
)

// withoutSiblingIndex runs f with the sibling index off: every step
// counts the siblings afresh, the reference the index must agree with.
func withoutSiblingIndex(f func()) {
	noSiblingIndex = true
	defer func() { noSiblingIndex = false }()
	f()
}

// wide is a parent whose children mix names, namespaces (p and q bound
// to one namespace, a default namespace declared on some children), and
// texts, comments and processing instructions between them.
const wide = `<r xmlns:p="urn:p" xmlns:q="urn:p">` +
	`<a i="1"/><p:a i="2"/>t1<q:a i="3"/><a i="4" xmlns="urn:d"/><!--c1--><b i="5"/>` +
	`<a i="6"/><?pi one?><p:b i="7"/>t2<a i="8"/><q:a i="9"/><?pi two?><?other x?><b i="10"/>` +
	`<a i="11"/><!--c2--><p:a i="12"/>t3<a xmlns="urn:p" i="13"/><a i="14"/></r>`

// TestApplySiblingIndex applies operations that add, remove and replace
// children of one parent before later selectors into the same parent
// count their siblings: a stale index locates the wrong node.
func TestApplySiblingIndex(t *testing.T) {
	const patch = `<diff xmlns:x="urn:p" xmlns:d="urn:d">` +
		`<remove sel="r/a[1]"/>` +
		`<replace sel="r/a[1]/@i">new6</replace>` +
		`<add sel="r/x:a[2]" pos="before"><a i="n1"/></add>` +
		`<remove sel="r/x:a[1]"/>` +
		`<replace sel="r/a[2]/@i">new6b</replace>` +
		`<add sel="r/b[1]" pos="after"><x:b i="n2"/></add>` +
		`<replace sel="r/x:b[2]/@i">new7</replace>` +
		`<replace sel="r/d:a"><b i="n3"/></replace>` +
		`<remove sel="r/b[3]"/>` +
		`<remove sel="r/text()[1]"/>` +
		`<replace sel="r/text()[1]">T2</replace>` +
		`<remove sel="r/processing-instruction('pi')[1]"/>` +
		`<replace sel="r/processing-instruction()[2]"><?other moved?></replace>` +
		`<remove sel="r/comment()[1]"/>` +
		`<replace sel="r/comment()[1]"><!--C2--></replace>` +
		`<add sel="r" type="namespace::z">urn:d</add>` +
		`<add sel="r/x:a[4]" pos="after"><e/></add>` +
		`<replace sel="r/namespace::q">urn:q</replace>` + // q:a leave x:a
		`<remove sel="r/x:a[1]"/>` +
		`<remove sel="r/a[4]"/>` +
		`</diff>`
	got := applyBoth(t, wide, patch)
	const want = `<r xmlns:p="urn:p" xmlns:q="urn:q" xmlns:z="urn:d"><a i="n1"/><q:a i="3"/><b i="n3"/><b i="5"/><q:b i="n2"/>` +
		`<a i="new6b"/><p:b i="new7"/>T2<a i="8"/><q:a i="9"/><?pi two?><?other moved?><!--C2-->t3<a xmlns="urn:p" i="13"/><e/><a i="14"/></r>`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// applyBoth applies patch to doc with and without the sibling index,
// checks that both agree, and returns the result.
func applyBoth(t *testing.T, doc, patch string) string {
	t.Helper()
	run := func() string {
		d, err := applyXML(t, doc, patch)
		if err != nil {
			return "error: " + err.Error()
		}
		var b strings.Builder
		if err := markup.WriteNodeXML(&b, d.Root, nil); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	got := run()
	var ref string
	withoutSiblingIndex(func() { ref = run() })
	if got != ref {
		t.Fatalf("with the sibling index\n%s\nwithout\n%s", got, ref)
	}
	return got
}

// TestExportSiblingIndex exports changes to wide parents, where removes,
// adds and renames come before later selectors into the same parent:
// the patch must be the one counting afresh gives, and rebuild the new
// version.
func TestExportSiblingIndex(t *testing.T) {
	pairs := map[string][2]string{
		"mixed": {wide, `<r xmlns:p="urn:p" xmlns:q="urn:p">` +
			`<p:a i="2"/>t1<a i="new"/><q:a i="3"/><a i="4" xmlns="urn:d"/><b i="5"/><p:a i="n"/>` +
			`<c i="6"/><?pi one?>t2<a i="8"/><q:a i="9"/><?pi two?><?pi three?><?other x?><b i="10"/>` +
			`<a i="11" j="1"/><!--c2--><!--c3--><p:a i="12"/>t3<p:a i="13"/><a i="14"/><b/></r>`},
		"renames": {wide, strings.NewReplacer(`<a i="6"/>`, `<b i="6"/>`, `<b i="10"/>`, `<a i="10"/>`, `<q:a i="3"/>`, `<a i="3"/>`).Replace(wide)},
	}
	for name, pair := range pairs {
		t.Run(name, func(t *testing.T) {
			exportBoth(t, parseXML(t, pair[0]), parseXML(t, pair[1]))
		})
	}
	for _, rate := range []float64{0.1, 0.3} {
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprintf("records/%g/%d", rate, seed), func(t *testing.T) {
				a, err := simulate.Generate(simulate.Records, 20000, seed)
				if err != nil {
					t.Fatal(err)
				}
				b, _, err := simulate.Change(a, simulate.Spread(rate), seed*10)
				if err != nil {
					t.Fatal(err)
				}
				clearXIDs(a)
				clearXIDs(b)
				exportBoth(t, a, b)
			})
		}
	}
}

// exportBoth checks that the export of the change from old to new is the
// same with and without the sibling index, and round trips.
func exportBoth(t *testing.T, old, new *tree.Document) {
	t.Helper()
	d, err := treediff.Diff(old, new, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Export(old, d)
	if err != nil {
		t.Fatal(err)
	}
	var ref *Patch
	withoutSiblingIndex(func() { ref, err = Export(old, d) })
	if err != nil {
		t.Fatal(err)
	}
	if got, want := encode(t, p), encode(t, ref); got != want {
		t.Fatalf("with the sibling index\n%s\nwithout\n%s", got, want)
	}
	roundTrip(t, old, new, nil)
}

// TestStaleSiblingIndexIsAnError: the sibling index's checks of its own
// invariants, which no patch or delta is known to break, end the
// operation with an internal error that Apply and Export return, not a
// panic that would crash the daemon.
func TestStaleSiblingIndexIsAnError(t *testing.T) {
	tests := map[string]func(sb *siblings, ci *childIndex, parent, stranger *tree.Node){
		"a node not among its parent's children": func(sb *siblings, ci *childIndex, parent, stranger *tree.Node) {
			ci.lookup(stranger)
		},
		"a child removed without telling the index": func(sb *siblings, ci *childIndex, parent, stranger *tree.Node) {
			parent.RemoveChild(len(parent.Children) - 1)
			ci.nth(groupKey{kind: tree.Element, group: groupAll}, 3)
		},
		// The index does not hold it: its position is scanned for.
		"the position of a node not among its parent's children": func(sb *siblings, ci *childIndex, parent, stranger *tree.Node) {
			sb.indexOf(stranger)
		},
		"the removal of a node not among its parent's children": func(sb *siblings, ci *childIndex, parent, stranger *tree.Node) {
			sb.remove(&tree.Node{Kind: tree.Element, Name: "b", Parent: parent.Children[0]})
		},
	}
	for name, breakIt := range tests {
		t.Run(name, func(t *testing.T) {
			doc, err := markup.ParseXMLBytes([]byte(`<r><a/><a/><a/></r>`), nil)
			if err != nil {
				t.Fatal(err)
			}
			sb := newSiblings(nil)
			ci := sb.of(doc.Root, nil)
			stranger := &tree.Node{Kind: tree.Element, Name: "a", Parent: doc.Root}
			err = func() (err error) {
				defer recoverInternal(&err)
				breakIt(sb, ci, doc.Root, stranger)
				return nil
			}()
			if err == nil || !strings.Contains(err.Error(), "xml patch: internal error: ") {
				t.Fatalf("err = %v, want an internal error", err)
			}
		})
	}
}

// TestApplyRunsOfRemoves applies runs of removes, which leave the nodes
// they remove in their parents' lists until the run ends: from the end
// and from the start of a list, with the white space beside them, removes
// that join the texts on either side, runs that other operations or
// selectors reading string values part, and a run that fails midway. The
// result, or the error, must be the one removing each node at once gives,
// and a patch that fails must leave the document as it was.
func TestApplyRunsOfRemoves(t *testing.T) {
	items := "<r>" + strings.Repeat("\n <i/>", 5) + "\n <k/>\n</r>"
	texts := `<r>a<x/>b<x/>c<x/>d<y/>e</r>`
	tests := []struct {
		name, doc, patch, want string
	}{
		{"from the end, white space before", items,
			`<remove sel="r/i[5]" ws="before"/><remove sel="r/i[4]" ws="before"/><remove sel="r/i[3]" ws="both"/><remove sel="r/i[1]" ws="before"/>`,
			"<r>\n <i/><k/>\n</r>"},
		{"from the start, white space after", items,
			`<remove sel="r/i[1]" ws="after"/><remove sel="r/i[1]" ws="after"/><remove sel="r/i[1]"/><remove sel="r/text()[2]"/><remove sel="r/i[1]" ws="before"/>`,
			"<r><i/>\n <k/>\n</r>"},
		{"texts joined", texts,
			`<remove sel="r/x[2]"/><remove sel="r/x[1]"/><remove sel="r/text()[2]"/><remove sel="r/y"/><remove sel="r/x"/>`,
			`<r>abce</r>`},
		{"texts joined from the start", texts,
			`<remove sel="r/x[1]"/><remove sel="r/x[1]"/><remove sel="r/text()[1]"/><remove sel="r/x"/><remove sel="r/text()[1]"/>`,
			`<r><y/>e</r>`},
		{"parted by other operations", items,
			`<remove sel="r/i[5]"/><add sel="r/i[4]" pos="after"><n x="1"/></add><remove sel="r/i[4]" ws="before"/><replace sel="r/text()[2]">T</replace>` +
				`<remove sel="r/i[2]"/><remove sel="r/i[2][.='']"/><remove sel="r/text()[3]"/><remove sel="r/n[@x='1']"/>`,
			"<r>\n <i/>T\n <k/>\n</r>"},
		{"a declaration its last use removed in the run", `<r xmlns:p="urn:p"><i/><i/><p:i/><i/></r>`,
			`<remove sel="r/i[3]"/><remove sel="r/p:i"/><remove sel="r/namespace::p"/><remove sel="r/i[1]"/>`,
			`<r><i/></r>`},
		{"parted by a namespace", `<r xmlns:p="urn:p"><i/><i/><p:i/><i/></r>`,
			`<remove sel="r/i[3]"/><remove sel="r/namespace::p"/><remove sel="r/i[1]"/><remove sel="r/p:i"/><remove sel="r/namespace::p"/>`,
			`error: line 1, column 45: operation 2 (<remove sel="r/namespace::p">): invalid-namespace-prefix: p:i uses prefix p: the declaration on r cannot be removed`},
		{"failing midway", items,
			`<remove sel="r/i[5]" ws="before"/><remove sel="r/i[4]"/><remove sel="r/i[3]" ws="after"/><remove sel="r/i[2]" ws="both"/><remove sel="r/i[1]" ws="after"/>`,
			`error: line 1, column 144: operation 5 (<remove sel="r/i[1]">): invalid-whitespace-directive: no white-space text node after the node`},
	}
	for _, c := range tests {
		t.Run(c.name, func(t *testing.T) {
			patch := `<diff xmlns:p="urn:p">` + c.patch + `</diff>`
			if got := applyBoth(t, c.doc, patch); got != c.want {
				t.Errorf("got\n%q\nwant\n%q", got, c.want)
			}
			d := parseXML(t, c.doc)
			before := d.Clone()
			p, err := Decode(strings.NewReader(patch))
			if err != nil {
				t.Fatal(err)
			}
			if err := Apply(d, p); err != nil {
				if diff := tree.Diff(d.Root, before.Root, tree.ContentAndXIDs); diff != "" {
					t.Errorf("a refused patch changed the document: %s", diff)
				}
			}
		})
	}
}
