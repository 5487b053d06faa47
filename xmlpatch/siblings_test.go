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
