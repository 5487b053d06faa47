package delta

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"maps"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// namespaceWellFormed reads an XML document as a namespace-aware parser
// does, and fails where one would: a prefix used and not bound, a
// reserved prefix declared or undeclared, two attributes with one
// expanded name.
func namespaceWellFormed(doc string) error {
	dec := xml.NewDecoder(strings.NewReader(doc))
	scopes := []map[string]string{{"xml": xmlNamespace}}
	lookup := func(p string) (string, bool) {
		for i := len(scopes) - 1; i >= 0; i-- {
			if uri, ok := scopes[i][p]; ok {
				return uri, uri != ""
			}
		}
		return "", false
	}
	for {
		t, err := dec.RawToken()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		switch t := t.(type) {
		case xml.StartElement:
			scope := map[string]string{}
			for _, a := range t.Attr {
				if a.Name.Space != "xmlns" {
					continue
				}
				switch p := a.Name.Local; {
				case p == "xmlns", a.Value == xmlnsNamespace:
					return fmt.Errorf("<%s>: xmlns:%s declared", t.Name.Local, p)
				case p == "xml" && a.Value != xmlNamespace, p != "xml" && a.Value == xmlNamespace:
					return fmt.Errorf("<%s>: xmlns:%s bound to %s", t.Name.Local, p, a.Value)
				case a.Value == "":
					return fmt.Errorf("<%s>: xmlns:%s undeclared", t.Name.Local, p)
				}
				scope[a.Name.Local] = a.Value
			}
			scopes = append(scopes, scope)
			if t.Name.Space != "" {
				if _, ok := lookup(t.Name.Space); !ok || t.Name.Space == "xmlns" {
					return fmt.Errorf("element %s:%s: prefix not bound", t.Name.Space, t.Name.Local)
				}
			}
			seen := map[string]bool{}
			for _, a := range t.Attr {
				uri := ""
				switch a.Name.Space {
				case "", "xmlns":
					uri = a.Name.Space
				default:
					var ok bool
					if uri, ok = lookup(a.Name.Space); !ok {
						return fmt.Errorf("attribute %s:%s of <%s>: prefix not bound", a.Name.Space, a.Name.Local, t.Name.Local)
					}
				}
				if key := uri + " " + a.Name.Local; seen[key] {
					return fmt.Errorf("<%s>: attribute {%s}%s twice", t.Name.Local, uri, a.Name.Local)
				} else {
					seen[key] = true
				}
			}
		case xml.EndElement:
			scopes = scopes[:len(scopes)-1]
		}
	}
}

// nsRoundTrip builds the delta from old to new, checks that its XML form
// is namespace-well-formed and reads back equal, with the same bindings,
// and that it applies; it returns the XML form.
func nsRoundTrip(t *testing.T, old, new *tree.Document) (*Delta, string) {
	t.Helper()
	d := mustBuild(t, old, new)
	x := encodeXML(t, d)
	if err := namespaceWellFormed(x); err != nil {
		t.Fatalf("not namespace-well-formed: %v\n%s", err, x)
	}
	ds, err := DecodeXML(strings.NewReader(x))
	if err != nil {
		t.Fatalf("%v\n%s", err, x)
	}
	if !Equal(d, ds[0]) || !maps.Equal(d.Namespaces, ds[0].Namespaces) {
		t.Fatalf("read back otherwise:\n%s", x)
	}
	for i := range d.Ops {
		if !maps.Equal(d.Ops[i].Namespaces, ds[0].Ops[i].Namespaces) {
			t.Errorf("operation %d: bindings %v read back as %v", i+1, d.Ops[i].Namespaces, ds[0].Ops[i].Namespaces)
		}
	}
	got, err := Apply(old, ds[0])
	if err != nil {
		t.Fatal(err)
	}
	if diff := tree.Diff(got.Root, new.Root, tree.ContentAndXIDs); diff != "" {
		t.Fatalf("applied: %s", diff)
	}
	return d, x
}

// withAttrs is an element node with attributes.
func withAttrs(name string, xid tree.XID, attrs []tree.Attr, kids ...node) node {
	return node{name: name, xid: xid, attrs: attrs, kids: kids}
}

func ns(kv ...string) []tree.Attr {
	var out []tree.Attr
	for i := 0; i+1 < len(kv); i += 2 {
		out = append(out, tree.Attr{Name: kv[i], Value: kv[i+1]})
	}
	return out
}

// TestNamespacesOfContents: the prefixes a feed's inserted item uses are
// declared on the <t>, bound as the item's ancestors bind them; one the
// item declares itself is not, and one bound nowhere (an HTML page's) is
// bound to a Vigil URN, which the decoder leaves out.
func TestNamespacesOfContents(t *testing.T) {
	root := func(items ...node) node {
		ch := withAttrs("channel", 6, ns("xmlns:m", "urn:m"), append([]node{el("title", 2, tx("T", 1))}, items...)...)
		return withAttrs("rss", 7, ns("xmlns:dc", "urn:dc"), ch)
	}
	item := el("item", 14,
		el("dc:creator", 9, tx("Bob", 8)),
		withAttrs("m:content", 10, ns("m:medium", "image")),
		withAttrs("x:note", 11, ns("xmlns:x", "urn:x")),
		el("fb:like", 12))
	d, x := nsRoundTrip(t, doc(root(), 8), doc(root(item), 15))
	want := map[string]string{"dc": "urn:dc", "m": "urn:m"}
	if !maps.Equal(d.Namespaces, want) {
		t.Fatalf("Namespaces %v, want %v", d.Namespaces, want)
	}
	if !strings.Contains(x, `xmlns:dc="urn:dc" xmlns:fb="urn:vigil:undeclared:fb" xmlns:m="urn:m">`) {
		t.Errorf("the <t> does not declare dc, fb and m, in order:\n%s", x)
	}
	var js bytes.Buffer
	if err := EncodeJSON(&js, d); err != nil {
		t.Fatal(err)
	}
	dj, err := DecodeJSON(&js)
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(dj.Namespaces, want) {
		t.Errorf("decoded JSON: Namespaces %v, want %v", dj.Namespaces, want)
	}
	// The inverse deletes what d inserts: the same bindings.
	if inv := Invert(d); !maps.Equal(inv.Namespaces, want) {
		t.Errorf("inverse: Namespaces %v, want %v", inv.Namespaces, want)
	}
	// Namespaces are how a delta is written, not what it does.
	other := *d
	other.Namespaces = nil
	if !Equal(d, &other) {
		t.Errorf("deltas that differ only in Namespaces are not Equal")
	}
}

// TestNamespacesRebound: a prefix bound to two URIs in two parts of the
// document is declared on the operation whose place binds it otherwise
// than the <t>: each content keeps its own namespace, and two attributes
// a:k and b:k, of two namespaces, do not become one.
func TestNamespacesRebound(t *testing.T) {
	r := func(s1, s2 []node) node {
		return el("r", 9,
			withAttrs("s1", 3, ns("xmlns:a", "http://u1"), append([]node{el("x", 1)}, s1...)...),
			withAttrs("s2", 8, ns("xmlns:a", "http://u2", "xmlns:b", "http://u1"), append([]node{el("y", 4)}, s2...)...))
	}
	old := doc(r(nil, nil), 10)
	new := doc(r([]node{el("a:e", 11, tx("1", 10))}, []node{withAttrs("z", 12, ns("a:k", "1", "b:k", "2"))}), 13)
	d, x := nsRoundTrip(t, old, new)
	var own []map[string]string
	for _, op := range d.Ops {
		if op.Namespaces != nil {
			own = append(own, op.Namespaces)
		}
	}
	if d.Namespaces["a"] == "" || len(own) != 1 || own[0]["a"] == d.Namespaces["a"] {
		t.Errorf("delta binds %v, operations %v; want a bound twice, once on an operation:\n%s", d.Namespaces, own, x)
	}
	var js bytes.Buffer
	if err := EncodeJSON(&js, d); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `"namespaces":{"a":"http://u`) {
		t.Errorf("the JSON form lacks an operation's bindings:\n%s", js.String())
	}
}

// TestNamespacesReservedNames: names an HTML parser keeps and the
// namespace rules forbid are written in the xy: escape forms: an element
// with the xmlns prefix, an empty or reserved declaration, an escaped
// element's own declaration of xy.
func TestNamespacesReservedNames(t *testing.T) {
	old := doc(el("r", 8), 9)
	new := doc(el("r", 8,
		withAttrs("p", 2, ns("xmlns:og", "")),
		withAttrs("p", 3, ns("xmlns:xml", "urn:u")),
		withAttrs("p", 4, ns("xmlns:xmlns", "urn:u", "xmlns:q", xmlNamespace)),
		el("xmlns:foo", 5),
		withAttrs("xy:comment", 6, ns("xmlns:xy", "http://x")),
		withAttrs("a<b", 7, ns("xmlns:xy", xyNamespace, "k", "v")),
	), 9)
	old.NextXID = 9
	nsRoundTrip(t, old, new)

	// A prefix whose only declaration is one of those: bound nowhere, as
	// if undeclared (a delta of it used to declare xmlns:og="" and be
	// refused when read back).
	page := func(kids ...node) *tree.Document {
		return doc(withAttrs("html", 3, ns("xmlns:og", ""), el("body", 2, append([]node{el("p", 1)}, kids...)...)), 6)
	}
	_, x := nsRoundTrip(t, page(), page(el("og:x", 5, tx("hi", 4))))
	if !strings.Contains(x, `xmlns:og="urn:vigil:undeclared:og"`) {
		t.Errorf("og is not bound as undeclared:\n%s", x)
	}
}

// TestComposeNamespaces: a composed delta binds the prefixes its contents
// use though the middle version it is built from lacks their declarations:
// the first delta inserted <a xmlns:p><p:b/></a>, the second moved p:b out
// and deleted a.
func TestComposeNamespaces(t *testing.T) {
	const u = "http://u"
	v1 := doc(withAttrs("r", 2, ns("xmlns:p", u), el("c", 1)), 3)
	v2 := doc(withAttrs("r", 2, ns("xmlns:p", u), el("c", 1), withAttrs("a", 5, ns("xmlns:p", u), el("p:b", 4, tx("t", 3)))), 6)
	v3 := doc(withAttrs("r", 2, ns("xmlns:p", u), el("c", 1, el("p:b", 4, tx("t", 3)))), 6)
	d, err := Compose(mustBuild(t, v1, v2), mustBuild(t, v2, v3))
	if err != nil {
		t.Fatal(err)
	}
	if d.Namespaces["p"] != u {
		t.Errorf("composed: Namespaces %v, want p bound to %s", d.Namespaces, u)
	}
}

// TestComposeNamespacesDeclarationDeleted: the second delta deletes the
// declaration of p from an element the first inserted, so the composed
// content binds p where it is placed, as the first delta says the place
// binds it, and not as the deleted declaration did.
func TestComposeNamespacesDeclarationDeleted(t *testing.T) {
	const u1, u2 = "http://u1", "http://u2"
	r := func(next tree.XID, kids ...node) *tree.Document {
		return doc(withAttrs("r", 2, ns("xmlns:p", u1), append([]node{el("c", 1)}, kids...)...), next)
	}
	v1 := r(3)
	v2 := r(6, withAttrs("a", 4, ns("xmlns:p", u2), el("p:b", 3)), el("p:d", 5))
	v3 := r(6, el("a", 4, el("p:b", 3)), el("p:d", 5))
	d, err := Compose(mustBuild(t, v1, v2), mustBuild(t, v2, v3))
	if err != nil {
		t.Fatal(err)
	}
	want := mustBuild(t, v1, v3)
	if got, want := encodeXML(t, d), encodeXML(t, want); got != want {
		t.Errorf("composed:\n%s\nwant, as built:\n%s", got, want)
	}
}

// TestComposeNamespacesRebound: a composed delta keeps the bindings of an
// operation whose place binds a prefix otherwise than the delta (the
// documents of TestNamespacesRebound, then one more element).
func TestComposeNamespacesRebound(t *testing.T) {
	r := func(s1, s2 []node, more ...node) node {
		return el("r", 9, append([]node{
			withAttrs("s1", 3, ns("xmlns:a", "http://u1"), append([]node{el("x", 1)}, s1...)...),
			withAttrs("s2", 8, ns("xmlns:a", "http://u2", "xmlns:b", "http://u1"), append([]node{el("y", 4)}, s2...)...),
		}, more...)...)
	}
	s1 := []node{el("a:e", 11, tx("1", 10))}
	z := withAttrs("z", 12, ns("a:k", "1", "b:k", "2"))
	compose := func(name string, v1, v2, v3 *tree.Document) {
		t.Helper()
		d, err := Compose(mustBuild(t, v1, v2), mustBuild(t, v2, v3))
		if err != nil {
			t.Fatal(err)
		}
		x := encodeXML(t, d)
		if err := namespaceWellFormed(x); err != nil {
			t.Errorf("%s: %v\n%s", name, err, x)
		}
	}
	compose("one more element", doc(r(nil, nil), 10), doc(r(s1, []node{z}), 13), doc(r(s1, []node{z}, el("w", 13)), 14))
	// The content of one composed operation from two: q inserted by the
	// first delta, z into it by the second (or, undone, deleted so).
	q := func(kids ...node) []node { return []node{el("q", 14, kids...)} }
	compose("an insert into an insert", doc(r(nil, nil), 10), doc(r(s1, q()), 15), doc(r(s1, q(z)), 15))
	compose("a delete from a delete", doc(r(s1, q(z)), 15), doc(r(s1, q()), 15), doc(r(s1, nil), 15))
}

func TestNamespacesRefused(t *testing.T) {
	for _, tc := range []struct{ js, msg string }{
		{`{"namespaces":{"a:b":"urn:x"},"ops":[]}`, `namespace prefix "a:b" is not an XML name without a colon`},
		{`{"namespaces":{"xmlns":"urn:x"},"ops":[]}`, `namespace prefix "xmlns" cannot be declared`},
		{`{"namespaces":{"dc":""},"ops":[]}`, `namespace prefix "dc" is bound to no URI`},
		{`{"namespaces":{"dc":"a\u0000b"},"ops":[]}`, `line 1, column 23: character U+0000`}, // refused as it is read
		{`{"namespaces":{"dc":1},"ops":[]}`, `namespaces.dc`},
		{`{"ops":[{"op":"i","par":1,"pos":1,"xm":"(2)","content":{"kind":"element","name":"a:x"},"namespaces":{"a":""}}]}`, `operation 1`},
	} {
		_, err := DecodeJSON(strings.NewReader(tc.js))
		if err == nil || !strings.Contains(err.Error(), tc.msg) || !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: err = %v, want %q", tc.js, err, tc.msg)
		}
	}
	if _, err := DecodeXML(strings.NewReader(`<unit_delta><t xmlns:dc=""></t></unit_delta>`)); err == nil || !strings.Contains(err.Error(), `"dc" is bound to no URI`) {
		t.Errorf("XML: err = %v", err)
	}
	// XML's own declaration of xml is legal, and no binding.
	ds, err := DecodeXML(strings.NewReader(`<unit_delta><t xmlns:xml="` + xmlNamespace + `"></t></unit_delta>`))
	if err != nil || ds[0].Namespaces != nil {
		t.Errorf("xmlns:xml: %v, %v", err, err)
	}
}
