package delta

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"maps"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

const (
	atomNS  = "http://www.w3.org/2005/Atom"
	xhtmlNS = "http://www.w3.org/1999/xhtml"
	svgNS   = "http://www.w3.org/2000/svg"
)

// defaultNamespaces returns the namespace each element of d is in by its
// default namespace declarations (xmlns attributes), by XID.
func defaultNamespaces(d *tree.Document) map[tree.XID]string {
	out := map[tree.XID]string{}
	var walk func(n *tree.Node, in string)
	walk = func(n *tree.Node, in string) {
		if n.Kind != tree.Element {
			return
		}
		for _, a := range n.Attrs {
			if a.Name == "xmlns" {
				in = a.Value
			}
		}
		out[n.XID] = in
		for _, c := range n.Children {
			walk(c, in)
		}
	}
	walk(d.Root, "")
	return out
}

// checkContentNamespaces reads the XML form x of d, built from old to new,
// as a namespace-aware parser does (encoding/xml's Token, which resolves
// xml.Name.Space), and checks that the delta's own elements are in no
// namespace and that each element of a content written by name without a
// prefix is in the namespace it has in its document: old for a delete, new
// for an insert.
func checkContentNamespaces(t *testing.T, x string, d *Delta, old, new *tree.Document) {
	t.Helper()
	if err := namespaceWellFormed(x); err != nil {
		t.Fatalf("not namespace-well-formed: %v\n%s", err, x)
	}
	type seen struct{ space, local string }
	var contents [][]seen // the elements read in each operation, in order
	dec := xml.NewDecoder(strings.NewReader(x))
	depth := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("%v\n%s", err, x)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			depth++
			switch {
			case depth <= 3: // unit_delta, t, an operation
				if tok.Name.Space != "" {
					t.Errorf("<%s> is in namespace %s:\n%s", tok.Name.Local, tok.Name.Space, x)
				}
				if depth == 3 {
					contents = append(contents, nil)
				}
			case tok.Name.Space != xyNamespace:
				contents[len(contents)-1] = append(contents[len(contents)-1], seen{tok.Name.Space, tok.Name.Local})
			}
		case xml.EndElement:
			depth--
		}
	}
	if len(contents) != len(d.Ops) {
		t.Fatalf("read %d operations, want %d:\n%s", len(contents), len(d.Ops), x)
	}
	oldNS, newNS := defaultNamespaces(old), defaultNamespaces(new)
	for i := range d.Ops {
		op := &d.Ops[i]
		var want []*tree.Node
		if op.Content != nil {
			tree.Walk(op.Content, func(n *tree.Node) bool {
				if n.Kind == tree.Element && elementAsName(n.Name) {
					want = append(want, n)
				}
				return n.Kind == tree.Element
			})
		}
		got := contents[i]
		if len(got) != len(want) {
			t.Fatalf("operation %d (%s): read %d elements, want %d:\n%s", i+1, op, len(got), len(want), x)
		}
		in := newNS
		if op.Kind == Delete {
			in = oldNS
		}
		for k, n := range want {
			if strings.Contains(n.Name, ":") {
				continue // a prefixed name: see TestNamespacesOfContents
			}
			if got[k].local != n.Name || got[k].space != in[n.XID] {
				t.Errorf("operation %d (%s): <%s> (XID %d) read in namespace %q, want %q:\n%s", i+1, op, n.Name, n.XID, got[k].space, in[n.XID], x)
			}
		}
	}
}

// TestDefaultNamespaces: the elements a delta inserts or deletes are read
// by a namespace-aware parser in the default namespace they have in their
// document, declared on the content's root (with addedXmlns="yes" on the
// operation, which the decoder reads as not the node's own attribute),
// while the delta's own elements stay in no namespace; the delta reads
// back the same, with the same bindings, and applies.
func TestDefaultNamespaces(t *testing.T) {
	atom := ns("xmlns", atomNS)
	feed := func(next tree.XID, entries ...node) *tree.Document {
		return doc(withAttrs("feed", 30, atom, append([]node{el("title", 2, tx("News", 1))}, entries...)...), next)
	}
	entry := func(xid tree.XID, title string) node {
		return el("entry", xid, el("title", xid-1, tx(title, xid-2)))
	}
	// An entry whose content is XHTML, its own default namespace, and
	// holds an element in no namespace (xmlns="").
	rich := el("entry", 49,
		el("title", 41, tx("Rich", 40)),
		withAttrs("content", 48, ns("type", "xhtml"),
			withAttrs("div", 47, ns("xmlns", xhtmlNS),
				el("p", 43, tx("x", 42)),
				withAttrs("data", 46, ns("xmlns", ""), el("v", 45, tx("1", 44))))))
	xhtml := func(next tree.XID, kids ...node) *tree.Document {
		return doc(withAttrs("html", 9, ns("xmlns", xhtmlNS), el("body", 8, append([]node{el("p", 2, tx("a", 1))}, kids...)...)), next)
	}
	// A part of the page in no namespace, undeclared by its root.
	plainPart := func(next tree.XID, kids ...node) *tree.Document {
		return doc(withAttrs("html", 9, ns("xmlns", xhtmlNS), withAttrs("div", 8, ns("xmlns", ""), append([]node{el("p", 2, tx("a", 1))}, kids...)...)), next)
	}
	for _, tc := range []struct {
		name     string
		old, new *tree.Document
		// added lists, per operation, the default namespace the encoder
		// declares on its content ("-" for none).
		added []string
	}{
		{"atom entry inserted and entry deleted", feed(60, entry(5, "Old")), feed(60, entry(12, "New")), []string{atomNS, atomNS}},
		{"atom entry with XHTML content inserted", feed(60), feed(60, rich), []string{atomNS}},
		{"content root declares its own namespace", xhtml(20), xhtml(20, withAttrs("svg", 12, ns("xmlns", svgNS, "width", "1"), el("circle", 11))), []string{"-"}},
		{"element in no namespace under a defaulted parent", feed(60), feed(60, withAttrs("x", 13, ns("xmlns", ""), el("y", 12, tx("t", 11)))), []string{"-"}},
		{"under an undeclaring ancestor", plainPart(20), plainPart(20, el("q", 12, tx("b", 11))), []string{"-"}},
		{"XHTML page", xhtml(20), xhtml(20, el("p", 12, tx("b", 11))), []string{xhtmlNS}},
		{"text inserted: nothing to declare", xhtml(20), doc(withAttrs("html", 9, ns("xmlns", xhtmlNS), el("body", 8, el("p", 2, tx("a", 1)), tx("b", 11))), 20), []string{"-"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, x := nsRoundTrip(t, tc.old, tc.new)
			checkContentNamespaces(t, x, d, tc.old, tc.new)
			if len(d.Ops) != len(tc.added) {
				t.Fatalf("%d operations, want %d:\n%s", len(d.Ops), len(tc.added), x)
			}
			markers := 0
			for i := range d.Ops {
				uri, ok := d.Ops[i].Namespaces[""]
				if want := tc.added[i]; want == "-" && ok || want != "-" && uri != want {
					t.Errorf("operation %d: default namespace %q, %v; want %q", i+1, uri, ok, want)
				}
				if ok {
					markers++
				}
			}
			if got := strings.Count(x, ` addedXmlns="yes"`); got != markers {
				t.Errorf("%d markers, want %d:\n%s", got, markers, x)
			}
			if _, ok := d.Namespaces[""]; ok {
				t.Errorf("the delta binds the default namespace on its <t>:\n%s", x)
			}
			// The JSON form carries the operations' default namespaces too.
			var js bytes.Buffer
			if err := EncodeJSON(&js, d); err != nil {
				t.Fatal(err)
			}
			dj, err := DecodeJSON(&js)
			if err != nil {
				t.Fatalf("%v\n%s", err, js.String())
			}
			for i := range d.Ops {
				if !maps.Equal(d.Ops[i].Namespaces, dj.Ops[i].Namespaces) {
					t.Errorf("JSON: operation %d: bindings %v read back as %v", i+1, d.Ops[i].Namespaces, dj.Ops[i].Namespaces)
				}
			}
			// The inverse deletes what d inserts, where d inserts it.
			inv := Invert(d)
			checkContentNamespaces(t, encodeXML(t, inv), inv, tc.new, tc.old)
		})
	}
}

// TestDefaultNamespaceOwnAttribute: a content root's own xmlns attribute
// is written and read back as its own, the decoder strips only the
// declaration the operation marks as added.
func TestDefaultNamespaceOwnAttribute(t *testing.T) {
	in := `<unit_delta><t>` +
		`<i par="8" pos="2" xm="(11;12)" addedXmlns="yes"><p xmlns="` + xhtmlNS + `" class="c"><q/></p></i>` +
		`<i par="8" pos="3" xm="(13;14)"><svg xmlns="` + svgNS + `"><g/></svg></i>` +
		`</t></unit_delta>`
	ds, err := DecodeXML(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	ops := ds[0].Ops
	if got := ops[0].Content.Attrs; len(got) != 1 || got[0].Name != "class" || ops[0].Namespaces[""] != xhtmlNS {
		t.Errorf("marked: attributes %v, bindings %v", got, ops[0].Namespaces)
	}
	if got := ops[1].Content.Attrs; len(got) != 1 || got[0] != (tree.Attr{Name: "xmlns", Value: svgNS}) || ops[1].Namespaces != nil {
		t.Errorf("own: attributes %v, bindings %v", got, ops[1].Namespaces)
	}
	var b bytes.Buffer
	if err := EncodeXML(&b, ds[0]); err != nil {
		t.Fatal(err)
	}
	want := `<i par="8" pos="2" xm="(11-12)" addedXmlns="yes"><p xmlns="` + xhtmlNS + `" class="c"><q/></p></i>` + "\n" +
		`<i par="8" pos="3" xm="(13-14)"><svg xmlns="` + svgNS + `"><g/></svg></i>`
	if !strings.Contains(b.String(), want) {
		t.Errorf("written back:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestDefaultNamespaceRefused: a marker without the declaration it marks,
// and a default namespace the delta cannot declare where it should.
func TestDefaultNamespaceRefused(t *testing.T) {
	for _, tc := range []struct{ in, msg string }{
		{`<unit_delta><t><i par="8" pos="2" xm="(11)" addedXmlns="yes"><p/></i></t></unit_delta>`, `addedXmlns: the content's root has no xmlns attribute`},
		{`<unit_delta><t><i par="8" pos="2" xm="(11)" addedXmlns="yes">text</i></t></unit_delta>`, `addedXmlns: the content's root has no xmlns attribute`},
		{`<unit_delta><t><d par="8" pos="2" xm="(11)" addedXmlns="yes"/><i par="9" pos="1" xm="(11)" move="yes"/></t></unit_delta>`, `addedXmlns: the content's root has no xmlns attribute`},
		{`<unit_delta><t><i par="8" pos="2" xm="(11)" addedXmlns="maybe"><p xmlns="u"/></i></t></unit_delta>`, `want yes or no`},
		{`<unit_delta><t><au xid="8" a="k" ov="1" nv="2" addedXmlns="yes"/></t></unit_delta>`, `<au> attribute addedXmlns: only a d or i has a content to declare a default namespace on`},
		{`<unit_delta><t><rn xid="8" ov="a" nv="b" addedXmlns="yes"/></t></unit_delta>`, `<rn> attribute addedXmlns: only a d or i has a content`},
		{`<unit_delta><t><ai xid="8" a="k" v="1" addedXmlns="yes"/></t></unit_delta>`, `<ai> attribute addedXmlns: only a d or i has a content`},
		{`<unit_delta><t><i par="8" pos="2" xm="(11)" addedXmlns="yes"><p xmlns=""/></i></t></unit_delta>`, `the default namespace is bound to no URI`},
		{`<unit_delta><t><i par="8" pos="2" xm="(11)" addedXmlns="yes"><p xmlns="u"><xy:attr xmlns:xy="urn:vigil:xydelta" name="xmlns">v</xy:attr></p></i></t></unit_delta>`, `content's root has an xmlns attribute of its own`},
		{`{"ops":[{"op":"i","par":1,"pos":1,"xm":"(2)","content":{"kind":"element","name":"x","attrs":[["xmlns","u"]]},"namespaces":{"":"u"}}]}`, `content's root has an xmlns attribute of its own`},
		{`{"ops":[{"op":"i","par":1,"pos":1,"xm":"(2)","content":{"kind":"text","value":"t"},"namespaces":{"":"u"}}]}`, `the default namespace binds an element content's root`},
		{`{"ops":[{"op":"i","par":1,"pos":1,"xm":"(2)","content":{"kind":"element","name":"x"},"namespaces":{"":"` + xmlnsNamespace + `"}}]}`, `cannot be bound to`},
		{`{"namespaces":{"":"u"},"ops":[]}`, `the default namespace is not bound on the delta`},
	} {
		var err error
		if strings.HasPrefix(tc.in, "{") {
			_, err = DecodeJSON(strings.NewReader(tc.in))
		} else {
			_, err = DecodeXML(strings.NewReader(tc.in))
		}
		if err == nil || !strings.Contains(err.Error(), tc.msg) || !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: err = %v, want %q", tc.in, err, tc.msg)
		}
	}
}

// TestDefaultNamespaceHTML: a delta of an HTML page without xmlns
// attributes is written as before: no declaration, no marker.
func TestDefaultNamespaceHTML(t *testing.T) {
	page := func(kids ...node) *tree.Document {
		return doc(el("html", 9, el("body", 8, append([]node{el("p", 2, tx("a", 1))}, kids...)...)), 20)
	}
	d, x := nsRoundTrip(t, page(el("div", 5, tx("gone", 4))), page(el("p", 12, tx("b", 11))))
	want := "<unit_delta>\n<t fromXidMap=\"(1-2;4-5;8-9|20)\" toXidMap=\"(1-2;11-12;8-9|20)\">\n" +
		"<d par=\"8\" pos=\"2\" xm=\"(4-5)\"><div>gone</div></d>\n" +
		"<i par=\"8\" pos=\"2\" xm=\"(11-12)\"><p>b</p></i>\n</t>\n</unit_delta>\n"
	if x != want {
		t.Errorf("written:\n%s\nwant:\n%s", x, want)
	}
	for i := range d.Ops {
		if d.Ops[i].Namespaces != nil {
			t.Errorf("operation %d binds %v", i+1, d.Ops[i].Namespaces)
		}
	}
}

// TestComposeDefaultNamespaces: a composed delta declares the default
// namespace of its contents' places, which the middle version Compose
// rebuilds does not hold (the feed element is known by its XID only).
func TestComposeDefaultNamespaces(t *testing.T) {
	feed := func(next tree.XID, entries ...node) *tree.Document {
		return doc(withAttrs("feed", 30, ns("xmlns", atomNS), append([]node{el("title", 2, tx("News", 1))}, entries...)...), next)
	}
	entry := func(xid tree.XID, title string) node {
		return el("entry", xid, el("title", xid-1, tx(title, xid-2)))
	}
	v1 := feed(60, entry(5, "One"))
	v2 := feed(60, entry(5, "One"), entry(8, "Two"))
	v3 := feed(60, entry(8, "Two"), entry(11, "Three"))
	// The second delta inserts into what the first inserted.
	v3b := feed(60, entry(5, "One"), el("entry", 8, el("title", 7, tx("Two", 6)), el("link", 12)))
	for _, v := range []*tree.Document{v3, v3b} {
		composeDefaults(t, v1, v2, v)
	}
}

// composeDefaults composes the deltas from v1 to v2 and from v2 to v3 and
// checks that each content of the result is read in its namespace, the
// Atom feed's.
func composeDefaults(t *testing.T, v1, v2, v3 *tree.Document) {
	t.Helper()
	d, err := Compose(mustBuild(t, v1, v2), mustBuild(t, v2, v3))
	if err != nil {
		t.Fatal(err)
	}
	x := encodeXML(t, d)
	checkContentNamespaces(t, x, d, v1, v3)
	ds, err := DecodeXML(strings.NewReader(x))
	if err != nil || !Equal(ds[0], d) {
		t.Fatalf("read back: %v\n%s", err, x)
	}
	for i := range d.Ops {
		if op := &d.Ops[i]; op.Content != nil && op.Namespaces[""] != atomNS {
			t.Errorf("operation %d (%s): bindings %v, want the Atom namespace:\n%s", i+1, op, op.Namespaces, x)
		}
	}
}

// TestComposeChangedDefaultNamespace: when the other delta changes the
// default namespace declared by the parent of a content's place (an xmlns
// attribute operation on it), the composed delta declares the namespace of
// the version the content is in: the last for an insert, the first for a
// delete, not the middle one's.
func TestComposeChangedDefaultNamespace(t *testing.T) {
	const other = "urn:other"
	feed := func(uri string, entries ...node) *tree.Document {
		attrs := ns("xmlns", uri)
		if uri == "" {
			attrs = ns("version", "1")
		}
		return doc(withAttrs("feed", 30, attrs, append([]node{el("title", 2, tx("News", 1))}, entries...)...), 60)
	}
	entry := func(xid tree.XID, title string) node {
		return el("entry", xid, el("title", xid-1, tx(title, xid-2)))
	}
	for _, tc := range []struct {
		name       string
		v1, v2, v3 *tree.Document
	}{
		{"inserted, then its parent's namespace changed",
			feed(atomNS, entry(5, "One")), feed(atomNS, entry(5, "One"), entry(8, "Two")), feed(other, entry(5, "One"), entry(8, "Two"))},
		{"inserted, then its parent's declaration added",
			feed("", entry(5, "One")), feed("", entry(5, "One"), entry(8, "Two")), feed(other, entry(5, "One"), entry(8, "Two"))},
		{"parent's namespace changed, then deleted",
			feed(atomNS, entry(5, "One"), entry(8, "Two")), feed(other, entry(5, "One"), entry(8, "Two")), feed(other, entry(5, "One"))},
		{"parent's declaration removed, then deleted",
			feed(atomNS, entry(5, "One"), entry(8, "Two")), feed("", entry(5, "One"), entry(8, "Two")), feed("", entry(5, "One"))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Compose(mustBuild(t, tc.v1, tc.v2), mustBuild(t, tc.v2, tc.v3))
			if err != nil {
				t.Fatal(err)
			}
			x := encodeXML(t, d)
			checkContentNamespaces(t, x, d, tc.v1, tc.v3)
			ds, err := DecodeXML(strings.NewReader(x))
			if err != nil || !Equal(ds[0], d) {
				t.Fatalf("read back: %v\n%s", err, x)
			}
		})
	}
}
