package xmlpatch

import (
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// applyXML applies a patch document to a document, both as text.
func applyXML(t *testing.T, doc, patch string) (*tree.Document, error) {
	t.Helper()
	d := parseXML(t, doc)
	p, err := Decode(strings.NewReader(patch))
	if err != nil {
		t.Fatalf("decode: %v", err)
	}
	if err := Apply(d, p); err != nil {
		return nil, err
	}
	return d, nil
}

// TestRFCExamples runs the examples of RFC 5261, appendix A, with the
// results the RFC gives.
func TestRFCExamples(t *testing.T) {
	const (
		decl   = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"
		sample = decl + "<doc>\n  <note>This is a sample document</note>\n</doc>"
		child  = decl + "<doc>\n  <foo id=\"ert4773\">This is a new child</foo>\n</doc>"
		foo    = decl + "<doc>\n  <foo a=\"1\">This is a new child</foo>\n</doc>"
	)
	diff := func(ops string) string { return decl + "<diff>\n  " + ops + "\n</diff>\n" }
	cases := []struct {
		name, doc, patch, want string
	}{
		{"A.1 adding an element", sample,
			diff(`<add sel="doc"><foo id="ert4773">This is a new child</foo></add>`),
			"<doc>\n  <note>This is a sample document</note>\n<foo id=\"ert4773\">This is a new child</foo></doc>"},
		{"A.2 adding an attribute", child,
			diff(`<add sel="doc/foo[@id='ert4773']" type="@user">Bob</add>`),
			"<doc>\n  <foo id=\"ert4773\" user=\"Bob\">This is a new child</foo>\n</doc>"},
		{"A.3 adding a prefixed namespace declaration", child,
			diff(`<add sel="doc" type="namespace::pref">urn:ns:xxx</add>`),
			"<doc xmlns:pref=\"urn:ns:xxx\">\n  <foo id=\"ert4773\">This is a new child</foo>\n</doc>"},
		{"A.4 adding a comment node with the pos attribute", child,
			diff(`<add sel="doc/foo[@id='ert4773']" pos="before"><!-- comment --></add>`),
			"<doc>\n  <!-- comment --><foo id=\"ert4773\">This is a new child</foo>\n</doc>"},
		{"A.5 adding multiple nodes", sample,
			diff("<add sel=\"doc\">\n    <foo id=\"ert4773\">This is a new child</foo></add>"),
			"<doc>\n  <note>This is a sample document</note>\n\n    <foo id=\"ert4773\">This is a new child</foo></doc>"},
		{"A.6 replacing an element", foo,
			diff(`<replace sel="doc/foo[@a='1']"><bar a="2"/></replace>`),
			"<doc>\n  <bar a=\"2\"/>\n</doc>"},
		{"A.7 replacing an attribute value", decl + "<doc a=\"test\">\n  <foo a=\"1\">This is a new child</foo>\n</doc>",
			diff(`<replace sel="doc/@a">new value</replace>`),
			"<doc a=\"new value\">\n  <foo a=\"1\">This is a new child</foo>\n</doc>"},
		{"A.8 replacing a namespace declaration URI", decl + "<doc xmlns:pref=\"urn:test\">\n  <foo a=\"1\">This is a new child</foo>\n</doc>",
			diff(`<replace sel="doc/namespace::pref">urn:new:xxx</replace>`),
			"<doc xmlns:pref=\"urn:new:xxx\">\n  <foo a=\"1\">This is a new child</foo>\n</doc>"},
		{"A.9 replacing a comment node", decl + "<doc>\n  <!-- comment -->\n</doc>",
			diff(`<replace sel="doc/comment()[1]"><!-- This is the new content --></replace>`),
			"<doc>\n  <!-- This is the new content -->\n</doc>"},
		{"A.10 replacing a processing instruction node", decl + "<doc>\n  <?test foo=\"bar\"?>\n</doc>",
			diff(`<replace sel='doc/processing-instruction("test")'><?test bar="foobar"?></replace>`),
			"<doc>\n  <?test bar=\"foobar\"?>\n</doc>"},
		{"A.11 replacing a text node", foo,
			diff(`<replace sel="doc/foo/text()[1]">This is the new text content</replace>`),
			"<doc>\n  <foo a=\"1\">This is the new text content</foo>\n</doc>"},
		{"A.12 removing an element", foo,
			diff(`<remove sel="doc/foo[@a='1']" ws="after"/>`),
			"<doc>\n  </doc>"},
		{"A.13 removing an attribute", decl + "<doc a=\"foo\">\n  <foo a=\"1\">This is a new child</foo>\n</doc>",
			diff(`<remove sel="doc/@a"/>`),
			"<doc>\n  <foo a=\"1\">This is a new child</foo>\n</doc>"},
		{"A.14 removing a prefixed namespace declaration", decl + "<doc>\n  <foo a=\"1\" xmlns:pref=\"urn:test\">This is a new child</foo>\n</doc>",
			diff(`<remove sel="doc/foo/namespace::pref"/>`),
			"<doc>\n  <foo a=\"1\">This is a new child</foo>\n</doc>"},
		{"A.15 removing a comment node", decl + "<doc>\n  <!-- comment --><foo a=\"1\">This is a new child</foo>\n</doc>",
			diff(`<remove sel="doc/comment()[1]"/>`),
			"<doc>\n  <foo a=\"1\">This is a new child</foo>\n</doc>"},
		{"A.16 removing a processing instruction node", decl + "<doc>\n  <?test?><foo a=\"1\">This is a new child</foo>\n</doc>",
			diff(`<remove sel='doc/processing-instruction("test")'/>`),
			"<doc>\n  <foo a=\"1\">This is a new child</foo>\n</doc>"},
		{"A.17 removing a text node", foo,
			diff(`<remove sel="doc/foo/text()[1]"/>`),
			"<doc>\n  <foo a=\"1\"/>\n</doc>"},
		{"A.18 several patches with namespace mangling",
			decl + `<doc xmlns="urn:ietf:params:xml:ns:xxx"
     xmlns:z="urn:ietf:params:xml:ns:yyy">
  <note>This is a sample document</note>
  <elem a="foo">
    <child/>
  </elem>
  <elem a="bar">
    <z:child/>
  </elem>
</doc>`,
			decl + `<p:diff xmlns="urn:ietf:params:xml:ns:xxx"
        xmlns:y="urn:ietf:params:xml:ns:yyy"
        xmlns:p="urn:ietf:params:xml:ns:diff">

  <p:add sel="doc/elem[@a='foo']">  <!-- This is a new child -->
    <child id="ert4773">
      <y:node/>
    </child>
  </p:add>

  <p:replace sel="doc/note/text()">Patched doc</p:replace>

  <p:remove sel="*/elem[@a='bar']/y:child" ws="both"/>

  <p:add sel="*/elem[@a='bar']" type="@b">new attr</p:add>

</p:diff>`,
			`<doc xmlns="urn:ietf:params:xml:ns:xxx"
     xmlns:z="urn:ietf:params:xml:ns:yyy">
  <note>Patched doc</note>
  <elem a="foo">
    <child/>
    <!-- This is a new child -->
    <child id="ert4773">
      <z:node/>
    </child>
  </elem>
  <elem a="bar" b="new attr"/>
</doc>`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := applyXML(t, c.doc, c.patch)
			if err != nil {
				t.Fatal(err)
			}
			want := parseXML(t, c.want)
			if diff := tree.Diff(got.Root, want.Root, tree.Content); diff != "" {
				t.Errorf("result differs from the RFC's: %s", diff)
			}
		})
	}
}
