package delta

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestJSONNamespacesErrors: an error in a "namespaces" field names the
// field (ops[0].namespaces, and a prefix as ops[0].namespaces[""]), the
// operation it belongs to, and the line and column of the field, whether
// the JSON is wrong there or the binding cannot be written (a default
// namespace where the content cannot declare it, an operation with no
// content to bind names in).
func TestJSONNamespacesErrors(t *testing.T) {
	const elem = `"content":{"kind":"element","name":"x"}`
	insert := func(rest string) string {
		return `{"ops":[{"op":"i","par":1,"pos":1,"xm":"(2)",` + rest + `}]}`
	}
	const op1 = `operation 1 (i par=1 pos=1 xm=(2)): `
	for _, tc := range []struct{ in, want string }{
		{insert(`"content":{"kind":"element","name":"x","attrs":[["xmlns","u"]]},"namespaces":{"":"u"}`),
			`ops[0].namespaces: ` + op1 + `the default namespace is bound where the content's root has an xmlns attribute of its own`},
		{insert(`"content":{"kind":"text","value":"t"},"namespaces":{"":"u"}`),
			`ops[0].namespaces: ` + op1 + `the default namespace binds an element content's root, and the operation has none`},
		{insert(elem + `,"namespaces":{"":""}`), `ops[0].namespaces: ` + op1 + `the default namespace is bound to no URI`},
		{insert(elem + `,"namespaces":{"":"http://www.w3.org/2000/xmlns/"}`), `ops[0].namespaces: ` + op1 + `the default namespace cannot be bound to`},
		{insert(elem + `,"namespaces":{"a:b":"u"}`), `ops[0].namespaces: ` + op1 + `namespace prefix "a:b" is not an XML name without a colon`},
		{insert(elem + `,"namespaces":{"":1}`), `ops[0].namespaces[""]: a JSON number 1 where a string is wanted`},
		{insert(elem + `,"namespaces":{"":"u","":"v"}`), `ops[0].namespaces[""]: given twice`},
		{insert(elem + `,"namespaces":["u"]`), `ops[0].namespaces: a JSON array where an object is wanted`},
		{`{"ops":[{"op":"au","xid":1,"a":"k","ov":"1","nv":"2","namespaces":{"":"u"}}]}`,
			`ops[0].namespaces: operation 1 (au xid=1 a=k ov="1" nv="2"): only a d or an i has a content whose names an operation binds`},
		{`{"ops":[{"op":"rn","xid":1,"ov":"a","nv":"b","namespaces":{"p":"u"}}]}`,
			`ops[0].namespaces: operation 1 (rn xid=1 ov="a" nv="b"): only a d or an i has a content`},
		{`{"ops":[{"op":"d","par":1,"pos":1,"xm":"(2)","move":true,"namespaces":{"":"u"}},{"op":"i","par":3,"pos":1,"xm":"(2)","move":true}]}`,
			`ops[0].namespaces: operation 1 (d par=1 pos=1 xm=(2) move): the default namespace binds an element content's root, and the operation has none`},
		{`{"namespaces":{"":"u"},"ops":[]}`, `namespaces: the default namespace is not bound on the delta`},
		{`{"namespaces":{"x":""},"ops":[]}`, `namespaces: namespace prefix "x" is bound to no URI`},
	} {
		_, err := DecodeJSON(strings.NewReader(tc.in))
		var de *DecodeError
		if !errors.As(err, &de) || !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: err = %v, want a *DecodeError wrapping ErrMalformed", tc.in, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\n err = %v\nwant %q", tc.in, err, tc.want)
		}
		if de.Line != 1 || de.Column < strings.Index(tc.in, `"namespaces"`)+1 {
			t.Errorf("%s: at line %d, column %d; want line 1, at the namespaces field (column %d) or in it", tc.in, de.Line, de.Column, strings.Index(tc.in, `"namespaces"`)+1)
		}
	}
	// Validate refuses bindings on an attribute operation too, which the
	// encoders would drop.
	bad := &Delta{Ops: []Op{{Kind: AttrUpdate, Node: 1, Name: "k", OldValue: "1", NewValue: "2", Namespaces: map[string]string{"": "u"}}}}
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "only a d or an i has a content") {
		t.Errorf("Validate of bindings on an au: %v", err)
	}
	// In the XML form a declaration on an attribute operation is XML's
	// scoping, and binds nothing.
	ds, err := DecodeXML(strings.NewReader(`<unit_delta><t><au xid="8" a="k" ov="1" nv="2" xmlns:p="urn:p"/></t></unit_delta>`))
	if err != nil || ds[0].Ops[0].Namespaces != nil {
		t.Errorf("XML au with a declaration: %v", err)
	}
	// A binding the decoder accepts reads back.
	d, err := DecodeJSON(strings.NewReader(insert(elem + `,"namespaces":{"":"u","p":"v"}`)))
	if err != nil || fmt.Sprint(d.Ops[0].Namespaces) != "map[:u p:v]" {
		t.Errorf("accepted: %v, %v", d, err)
	}
}
