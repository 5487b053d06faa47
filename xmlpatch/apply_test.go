package xmlpatch

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// TestApply covers what the appendix does not: the document level,
// namespaces in selectors and content, predicates, id().
func TestApply(t *testing.T) {
	cases := []struct {
		name, doc, patch, want string
		prolog                 int // comments and PIs expected before the root
	}{
		{"comment before the root", `<doc/>`, `<diff><add sel="doc" pos="before"><!-- c --></add></diff>`, `<doc/>`, 1},
		{"pi after the root", `<doc/>`, `<diff><add sel="/doc" pos="after"><?pi x?></add></diff>`, `<doc/>`, 0},
		{"replace the root", `<doc><foo a="1">sample</foo></doc>`,
			`<diff><replace sel="doc"><cod><foo a="2">replacement</foo></cod></replace></diff>`, `<cod><foo a="2">replacement</foo></cod>`, 0},
		{"content prefix declared on the diff", `<doc/>`,
			`<diff xmlns:x="ns:test"><add sel="doc"><x:foo/></add></diff>`, `<doc><x:foo xmlns:x="ns:test"/></doc>`, 0},
		{"same namespace, another prefix", `<doc xmlns:b="urn:test"><foo a="1">sample</foo></doc>`,
			`<diff xmlns:a="urn:test"><replace sel="*/foo"><a:bar><a:foo a:size="2"/></a:bar></replace></diff>`,
			`<doc xmlns:b="urn:test"><b:bar><b:foo b:size="2"/></b:bar></doc>`, 0},
		{"unprefixed names are in the diff's default namespace", `<doc><bar/><x:bar xmlns:x="urn:t"/></doc>`,
			`<diff xmlns="urn:t"><add sel="/*/bar"><c/></add></diff>`, `<doc><bar/><x:bar xmlns:x="urn:t"><x:c/></x:bar></doc>`, 0},
		{"default namespace declared on the operation", `<r xmlns="urn:t"><a/></r>`,
			`<diff><add sel="r/a" xmlns="urn:t"><b/></add></diff>`, `<r xmlns="urn:t"><a><b/></a></r>`, 0},
		{"no-namespace content under a default namespace", `<doc xmlns="urn:t"><a/></doc>`,
			`<diff xmlns:t="urn:t"><add sel="/t:doc/t:a"><b/></add></diff>`, `<doc xmlns="urn:t"><a><b xmlns=""/></a></doc>`, 0},
		{"predicates", `<r><i k="1">a</i><i k="2"><n>x</n></i><i k="2"><n>y</n></i></r>`,
			`<diff><remove sel="r/i[@k='2'][n='y']"/><replace sel="/r/i[.='a']/text()">b</replace><add sel="r/i[2]" type="@z">1</add></diff>`,
			`<r><i k="1">b</i><i k="2" z="1"><n>x</n></i></r>`, 0},
		{"id() through xml:id", `<r><a xml:id="one"/><a/></r>`, `<diff><add sel="id('one')"><b/></add></diff>`, `<r><a xml:id="one"><b/></a><a/></r>`, 0},
		{"prepend", `<r><a/></r>`, `<diff><add sel="r" pos="prepend">t<b/></add></diff>`, `<r>t<b/><a/></r>`, 0},
		{"prefixed attribute", `<r xmlns:x="urn:x"><a/></r>`, `<diff xmlns:y="urn:x"><add sel="r/a" type="@y:k">v</add></diff>`,
			`<r xmlns:x="urn:x"><a x:k="v"/></r>`, 0},
		// Declaring p on <e> for the attribute would move <p:c> to urn:b.
		{"attribute prefix bound otherwise above", `<r xmlns:p="urn:a"><e><p:c/></e></r>`,
			`<diff xmlns:p="urn:b"><add sel="r/e" type="@p:k">v</add></diff>`,
			`<r xmlns:p="urn:a"><e xmlns:p1="urn:b" p1:k="v"><p:c/></e></r>`, 0},
		{"namespace used only under a redeclaration removed", `<r><a xmlns:p="urn:a"><b xmlns:p="urn:b"><p:c p:d="1"/></b></a></r>`,
			`<diff><remove sel="r/a/namespace::p"/></diff>`, `<r><a><b xmlns:p="urn:b"><p:c p:d="1"/></b></a></r>`, 0},
		{"unused namespace removed", `<r xmlns:p="urn:a"><a/></r>`, `<diff><remove sel="r/namespace::p"/></diff>`, `<r><a/></r>`, 0},
		{"own declaration shadowing an inherited one replaced", `<r xmlns:p="urn:a"><a xmlns:p="urn:b"><p:c/></a></r>`,
			`<diff><replace sel="r/a/namespace::p">urn:c</replace></diff>`, `<r xmlns:p="urn:a"><a xmlns:p="urn:c"><p:c/></a></r>`, 0},
		{"attribute prefix bound otherwise on the element", `<r><e xmlns:p="urn:a" xmlns:p1="urn:c"/></r>`,
			`<diff xmlns:p="urn:b"><add sel="r/e" type="@p:k">v</add></diff>`,
			`<r><e xmlns:p="urn:a" xmlns:p1="urn:c" xmlns:p2="urn:b" p2:k="v"/></r>`, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := applyXML(t, c.doc, c.patch)
			if err != nil {
				t.Fatal(err)
			}
			want := parseXML(t, c.want)
			if diff := tree.Diff(got.Root, want.Root, tree.Content); diff != "" {
				t.Errorf("%s", diff)
			}
			if len(got.Prolog) != c.prolog {
				t.Errorf("%d nodes before the root, want %d", len(got.Prolog), c.prolog)
			}
		})
	}
}

// TestApplyTextNodes checks that Apply keeps to XPath's data model, which
// RFC 5261 works on: the texts an operation leaves side by side become one
// text node (section 4.5), and there is no empty one, so that text()[k]
// counts what any RFC 5261 tool counts. The result is compared node for
// node.
func TestApplyTextNodes(t *testing.T) {
	cases := []struct {
		name, doc, patch, want string
	}{
		{"remove joins the texts around", `<p>a<b/>c</p>`,
			`<diff><remove sel="p/b"/><replace sel="p/text()">X</replace></diff>`, `<p>X</p>`},
		{"text()[1] is the joined text", `<p>a<b/>c</p>`,
			`<diff><remove sel="p/b"/><replace sel="p/text()[1]">X</replace></diff>`, `<p>X</p>`},
		{"ws remove joins the texts around", "<p>a<b/> <c/>d</p>",
			`<diff><remove sel="p/c" ws="before"/><remove sel="p/b"/></diff>`, `<p>ad</p>`},
		{"an added text joins the one before", `<p>a</p>`,
			`<diff><add sel="p">b</add><replace sel="p/text()">X</replace></diff>`, `<p>X</p>`},
		{"an added text joins the one after", `<p><x/>a</p>`,
			`<diff><add sel="p/x" pos="after">b</add></diff>`, `<p><x/>ba</p>`},
		{"texts of the content are one", `<p/>`,
			`<diff><add sel="p">a<![CDATA[]]>b<q>c<![CDATA[]]>d</q></add></diff>`, `<p>ab<q>cd</q></p>`},
		{"an empty CDATA section adds nothing", `<p><x/>a</p>`,
			`<diff><add sel="p" pos="prepend"><![CDATA[]]></add><replace sel="p/text()[1]">X</replace></diff>`, `<p><x/>X</p>`},
		{"a text replaced by nothing is gone", `<p><x/>a<y/></p>`,
			`<diff><replace sel="p/text()"></replace></diff>`, `<p><x/><y/></p>`},
		{"an empty CDATA section beside the replacing element", `<p><x/></p>`,
			`<diff><replace sel="p/x"><![CDATA[]]><y/></replace></diff>`, `<p><y/></p>`},
		{"a replacing element's texts are one", `<p><x/></p>`,
			`<diff><replace sel="p/x"><y>a<![CDATA[]]>b</y></replace></diff>`, `<p><y>ab</y></p>`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := applyXML(t, c.doc, c.patch)
			if err != nil {
				t.Fatal(err)
			}
			if diff := tree.Diff(got.Root, parseXML(t, c.want).Root, tree.Content); diff != "" {
				t.Errorf("%s", diff)
			}
		})
	}
}

// TestApplyErrors checks each error condition, the operation and the
// selector the error names, and that a failed patch leaves the document
// as it was (the first operation of each patch succeeds).
func TestApplyErrors(t *testing.T) {
	const first = `<add sel="doc" type="@first">1</add>`
	cases := []struct {
		name, doc, op string
		cond          Condition
		msg           string
	}{
		{"no such parent", `<doc/>`, `<add sel="doc3"><foo/></add>`, UnlocatedNode, "no element matches step 1 (doc3)"},
		{"two matches", `<doc><a/><a/></doc>`, `<remove sel="doc/a"/>`, UnlocatedNode, "2 elements match"},
		{"text beside the root", `<doc/>`, `<add sel="doc" pos="before">hello</add>`, InvalidRootElementOperation, "only comments"},
		{"empty namespace URI", `<doc/>`, `<add sel="doc" type="namespace::pref"></add>`, InvalidNamespaceURI, "empty namespace URI"},
		{"the xmlns namespace", `<doc/>`, `<add sel="doc" type="namespace::pref">http://www.w3.org/2000/xmlns/</add>`, InvalidNamespaceURI, "cannot be bound"},
		{"the xml namespace to another prefix", `<doc xmlns:pref="urn:test"/>`, `<replace sel="doc/namespace::pref">http://www.w3.org/XML/1998/namespace</replace>`, InvalidNamespaceURI, "cannot be bound"},
		{"namespace not declared there", `<doc xmlns:pref="urn:test"><foo/></doc>`, `<replace sel="doc/namespace::bogus">urn:x</replace>`, UnlocatedNode, "no node matches namespace::bogus"},
		{"attribute replaced by an element", `<doc><foo a="1"/></doc>`, `<replace sel="doc/foo/@a"><one/></replace>`, InvalidNodeTypes, "text only"},
		{"element replaced by a PI", `<doc><foo/></doc>`, `<replace sel="doc/foo"><?x?></replace>`, InvalidNodeTypes, "a node of its kind"},
		{"element replaced by two", `<doc><foo/></doc>`, `<replace sel="doc/foo"><a/><b/></replace>`, InvalidNodeTypes, "one node, not several"},
		{"no white space after", `<doc> <foo/></doc>`, `<remove sel="doc/foo" ws="after"/>`, InvalidWhitespaceDirective, "after the node"},
		{"no white space before", `<doc><foo/> </doc>`, `<remove sel="doc/foo" ws="before"/>`, InvalidWhitespaceDirective, "before the node"},
		{"root removed", `<doc/>`, `<remove sel="doc"/>`, InvalidRootElementOperation, "cannot be removed"},
		{"ws on an attribute", `<doc><foo a="1"/></doc>`, `<remove sel="doc/foo/@a" ws="both"/>`, InvalidPatchDirective, "ws on the removal of an attribute"},
		{"ws on a text", `<doc>hello</doc>`, `<remove sel="doc/text()[1]" ws="both"/>`, InvalidPatchDirective, "ws on the removal of a text node"},
		{"attribute added twice", `<doc><foo a="1"/></doc>`, `<add sel="doc/foo" type="@a">2</add>`, InvalidPatchDirective, "already has attribute a"},
		{"position 0", `<doc><a/></doc>`, `<remove sel="doc/a[0]"/>`, UnlocatedNode, "no element matches step 2 (a)"},
		{"position past any count", `<doc><a/></doc>`, `<remove sel="doc/a[99999999999999999999]"/>`, UnlocatedNode, "no element matches step 2 (a)"},
		{"text position 0", `<doc>t</doc>`, `<remove sel="doc/text()[0]"/>`, UnlocatedNode, "no node matches text()"},
		{"bad selector", `<doc/>`, `<remove sel="doc//foo"/>`, InvalidAttributeValue, "sel: column 5: want a name"},
		{"bad selector after é", `<doc/>`, `<remove sel="dé//foo"/>`, InvalidAttributeValue, "sel: column 4: want a name"}, // columns count characters
		{"selector outside the subset", `<doc/>`, `<remove sel="doc/foo[last()]"/>`, InvalidAttributeValue, "sel: column 13: want = in a predicate"},
		{"undeclared prefix", `<doc/>`, `<remove sel="doc/x:foo"/>`, InvalidNamespacePrefix, "prefix x is not declared"},
		{"bad pos", `<doc/>`, `<add sel="doc" pos="inside"><a/></add>`, InvalidAttributeValue, `pos="inside"`},
		{"bad ws", `<doc><a/></doc>`, `<remove sel="doc/a" ws="around"/>`, InvalidAttributeValue, `ws="around"`},
		{"bad type", `<doc/>`, `<add sel="doc" type="a">1</add>`, InvalidAttributeValue, `type="a"`},
		{"children of a text", `<doc>t</doc>`, `<add sel="doc/text()[1]"><a/></add>`, InvalidNodeTypes, "children cannot be added to a text node"},
		// The namespace axis holds the namespaces in scope, inherited ones
		// too; an operation changes a declaration where it is made.
		{"inherited namespace replaced", `<doc xmlns:pref="urn:test"><foo/></doc>`, `<replace sel="doc/foo/namespace::pref">urn:x</replace>`, InvalidNamespaceURI, "foo inherits prefix pref"},
		{"inherited namespace removed", `<doc xmlns:pref="urn:test"><foo/></doc>`, `<remove sel="doc/foo/namespace::pref"/>`, InvalidNamespaceURI, "foo inherits prefix pref"},
		{"the xml namespace removed", `<doc/>`, `<remove sel="doc/namespace::xml"/>`, InvalidNamespaceURI, "doc inherits prefix xml"},
		{"inherited by two", `<doc xmlns:pref="urn:test"><a/><b/></doc>`, `<remove sel="doc/*/namespace::pref"/>`, UnlocatedNode, "2 nodes match"},
		{"undeclared below", `<doc xmlns:pref="urn:test"><a xmlns:pref=""><b/></a></doc>`, `<remove sel="doc/a/b/namespace::pref"/>`, UnlocatedNode, "no node matches namespace::pref"},
		// A declaration still in use cannot go (RFC 5261, section 4.5).
		{"namespace used by the element", `<doc><pref:foo xmlns:pref="urn:test"/></doc>`, `<remove sel="doc/*/namespace::pref"/>`, InvalidNamespacePrefix, "pref:foo uses prefix pref"},
		{"namespace used by an attribute", `<doc xmlns:pref="urn:test" pref:a="1"/>`, `<remove sel="doc/namespace::pref"/>`, InvalidNamespacePrefix, "attribute pref:a of doc uses prefix pref"},
		{"namespace used by a descendant", `<doc xmlns:pref="urn:test"><a><pref:b/></a></doc>`, `<remove sel="doc/namespace::pref"/>`, InvalidNamespacePrefix, "pref:b uses prefix pref"},
		{"namespace used by a descendant's attribute", `<doc xmlns:pref="urn:test"><a><b pref:c="1"/></a></doc>`, `<remove sel="doc/namespace::pref"/>`, InvalidNamespacePrefix, "attribute pref:c of b uses prefix pref"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := parseXML(t, c.doc)
			before := doc.Clone()
			p, err := Decode(strings.NewReader("<diff>\n" + first + "\n" + c.op + "\n</diff>"))
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			err = Apply(doc, p)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v, want an *Error", err)
			}
			if !errors.Is(err, c.cond) || e.Op != 2 || e.Sel != p.Ops[1].Sel || e.Line != 3 || e.Column != 1 || !strings.Contains(e.Msg, c.msg) {
				t.Errorf("error %q, want operation 2 at line 3, column 1, %s, %q", err, c.cond, c.msg)
			}
			if diff := tree.Diff(doc.Root, before.Root, tree.ContentAndXIDs); diff != "" || len(doc.Prolog) != len(before.Prolog) {
				t.Errorf("a failed patch changed the document: %s", diff)
			}
		})
	}
}

// TestApplyXIDs checks that added nodes get fresh XIDs in a document that
// has them.
func TestApplyXIDs(t *testing.T) {
	doc := parseXML(t, `<r><a/></r>`)
	doc.AssignXIDs()
	p, err := Decode(strings.NewReader(`<diff><add sel="r"><b>t</b></add></diff>`))
	if err != nil {
		t.Fatal(err)
	}
	if err := Apply(doc, p); err != nil {
		t.Fatal(err)
	}
	if got := doc.XIDMap().String(); got != "(1;3-4;2|5)" {
		t.Errorf("XID-map %s, want (1;3-4;2|5)", got)
	}
}

// TestApplyManyDeclarations checks that the namespaces a patch declares
// cost once, not once an operation: 4,000 declarations and as many
// operations on a one-element document (a patch of 200 KB) took seconds,
// quadratic in the patch's size.
// No time is asserted (timing belongs in benchmarks): a quadratic
// regression takes minutes, past go test's -timeout.
func TestApplyManyDeclarations(t *testing.T) {
	const n = 4000
	var b strings.Builder
	b.WriteString("<diff")
	for i := range n {
		fmt.Fprintf(&b, ` xmlns:p%d="urn:%d"`, i, i)
	}
	b.WriteString(">")
	for i := range n {
		fmt.Fprintf(&b, `<replace sel="r/@a">%d</replace>`, i)
	}
	b.WriteString("</diff>")
	p, err := Decode(strings.NewReader(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	doc := parseXML(t, `<r a=""/>`)
	if err := Apply(doc, p); err != nil {
		t.Fatal(err)
	}
	if v, _ := doc.Root.Attr("a"); v != fmt.Sprint(n-1) {
		t.Errorf("a=%q, want %d", v, n-1)
	}
}
