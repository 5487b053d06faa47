package delta

import (
	"bytes"
	"maps"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// nsDocs returns two versions of a feed whose second inserts an item that
// uses prefixes its ancestors declare (dc, on the root; m, on the channel),
// one it declares itself (x), and one bound nowhere (fb).
func nsDocs() (*tree.Document, *tree.Document) {
	root := func(items ...node) node {
		ch := node{name: "channel", xid: 6, attrs: []tree.Attr{{Name: "xmlns:m", Value: "urn:m"}}, kids: append([]node{el("title", 2, tx("T", 1))}, items...)}
		return node{name: "rss", xid: 7, attrs: []tree.Attr{{Name: "xmlns:dc", Value: "urn:dc"}}, kids: []node{ch}}
	}
	old := doc(root(), 8)
	item := node{name: "item", xid: 14, kids: []node{
		el("dc:creator", 9, tx("Bob", 8)),
		{name: "m:content", xid: 10, attrs: []tree.Attr{{Name: "m:medium", Value: "image"}}},
		{name: "x:note", xid: 11, attrs: []tree.Attr{{Name: "xmlns:x", Value: "urn:x"}}},
		el("fb:like", 12),
	}}
	return old, doc(root(item), 15)
}

func TestNamespacesOfContents(t *testing.T) {
	old, new := nsDocs()
	d := mustBuild(t, old, new)
	want := map[string]string{"dc": "urn:dc", "m": "urn:m"}
	if !maps.Equal(d.Namespaces, want) {
		t.Fatalf("Namespaces %v, want %v", d.Namespaces, want)
	}
	x := encodeXML(t, d)
	if !strings.Contains(x, `xmlns:dc="urn:dc" xmlns:fb="urn:vigil:undeclared:fb" xmlns:m="urn:m">`) {
		t.Errorf("the <t> does not declare dc, fb and m, in order:\n%s", x)
	}
	if strings.Contains(x, `xmlns:x="urn:vigil`) {
		t.Errorf("the content's own x is declared again:\n%s", x)
	}
	ds, err := DecodeXML(strings.NewReader(x))
	if err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(ds[0].Namespaces, want) {
		t.Errorf("decoded XML: Namespaces %v, want %v (fb's URN left out)", ds[0].Namespaces, want)
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

func TestNamespacesRefused(t *testing.T) {
	for _, tc := range []struct{ js, msg string }{
		{`{"namespaces":{"a:b":"urn:x"},"ops":[]}`, `namespace prefix "a:b" is not an XML name without a colon`},
		{`{"namespaces":{"xmlns":"urn:x"},"ops":[]}`, `namespace prefix "xmlns" cannot be declared`},
		{`{"namespaces":{"dc":""},"ops":[]}`, `namespace prefix "dc" is bound to no URI`},
		{`{"namespaces":{"dc":1},"ops":[]}`, `namespaces.dc`},
	} {
		_, err := DecodeJSON(strings.NewReader(tc.js))
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: err = %v, want %q", tc.js, err, tc.msg)
		}
	}
	if _, err := DecodeXML(strings.NewReader(`<unit_delta><t xmlns:dc=""></t></unit_delta>`)); err == nil || !strings.Contains(err.Error(), `"dc" is bound to no URI`) {
		t.Errorf("XML: err = %v", err)
	}
}
