package delta

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// surrounded returns a small document with an XML declaration, a DOCTYPE,
// and the given comments before and after its root.
func surrounded(doctype string, before, after []string) *tree.Document {
	d := doc(el("r", 2, tx("x", 1)), 3)
	d.Doctype = doctype
	d.Prolog = []*tree.Node{d.NewNode(tree.ProcInst, "xml", `version="1.0"`)}
	for _, c := range before {
		d.Prolog = append(d.Prolog, d.NewNode(tree.Comment, "", c))
	}
	for _, c := range after {
		d.Epilog = append(d.Epilog, d.NewNode(tree.ProcInst, "pi", c))
	}
	return d
}

// TestOutside builds, applies, inverts, encodes and composes changes
// outside the root element: the DOCTYPE, comments before the root and
// processing instructions after it; the XML declaration stays the
// document's own.
func TestOutside(t *testing.T) {
	a := surrounded("r", []string{"licence v1"}, nil)
	b := surrounded(`r SYSTEM "r.dtd"`, []string{"licence v2 -- with dashes", "second"}, []string{"x"})
	c := surrounded("r", []string{"licence v1"}, nil)
	d := mustBuild(t, a, b)
	if d.Outside == nil || d.Empty() || !d.Stats().Outside || d.Cost(1) != 1 {
		t.Fatalf("Build: %+v", d.Outside)
	}
	if same := mustBuild(t, a, a.Clone()); same.Outside != nil || !same.Empty() {
		t.Fatalf("Build of equal surroundings: %+v", same.Outside)
	}
	got, err := Apply(a, d)
	if err != nil {
		t.Fatal(err)
	}
	if got.Doctype != b.Doctype || len(got.Prolog) != 3 || got.Prolog[0].Name != "xml" || got.Prolog[2].Value != "second" || len(got.Epilog) != 1 {
		t.Fatalf("Apply: doctype %q, prolog %d nodes, epilog %d nodes", got.Doctype, len(got.Prolog), len(got.Epilog))
	}
	back, err := Apply(got, Invert(d))
	if err != nil {
		t.Fatal(err)
	}
	if !surroundingsOfDocument(back).equal(surroundingsOfDocument(a)) {
		t.Fatal("Apply of the inverse does not give the first surroundings back")
	}
	// A document with other surroundings is refused, and left as it was.
	other := surrounded("r", []string{"something else"}, nil)
	if _, err := Apply(other, d); !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "outside the root element") {
		t.Errorf("Apply to other surroundings: %v", err)
	}
	if other.Prolog[1].Value != "something else" {
		t.Error("a refused Apply changed the document")
	}
	// Both codecs carry it.
	var x, j bytes.Buffer
	if err := EncodeXML(&x, d); err != nil {
		t.Fatal(err)
	}
	if err := EncodeJSON(&j, d); err != nil {
		t.Fatal(err)
	}
	fromXML, err := DecodeXML(&x)
	if err != nil || len(fromXML) != 1 || !Equal(fromXML[0], d) {
		t.Errorf("XML round trip: %v\n%s", err, x.String())
	}
	fromJSON, err := DecodeJSON(&j)
	if err != nil || !Equal(fromJSON, d) {
		t.Errorf("JSON round trip: %v\n%s", err, j.String())
	}
	// Composed: there and back is no change outside; a second delta that
	// does not start where the first ends is refused.
	there, back2 := d, mustBuild(t, b, c)
	composed, err := Compose(there, back2)
	if err != nil || composed.Outside != nil {
		t.Errorf("Compose there and back: %+v, %v", composed, err)
	}
	if _, err := Compose(there, there); !errors.Is(err, ErrNotComposable) || !strings.Contains(err.Error(), "outside the root") {
		t.Errorf("Compose of a delta with itself: %v", err)
	}
	if _, err := ComposeAll([]*Delta{there, back2, back2}); err == nil || !strings.HasPrefix(err.Error(), "delta 3 does not follow delta 2: ") || !strings.Contains(err.Error(), "outside the root") {
		t.Errorf("ComposeAll of a chain that breaks outside the root: %v, want delta 3 refused", err)
	}
}

// TestOutsideConflictMessages: a document or a first delta whose
// surroundings are not those a delta expects says what it has instead, in
// a sentence.
func TestOutsideConflictMessages(t *testing.T) {
	a := surrounded("r", []string{"licence v1"}, nil)
	b := surrounded("r", []string{"licence v2"}, nil)
	for _, tc := range []struct {
		name string
		doc  *tree.Document
		want string
	}{
		{"another DOCTYPE", surrounded("q", []string{"licence v1"}, nil), `outside the root element, the document has DOCTYPE "q", not "r"`},
		{"another comment", surrounded("r", []string{"licence v0"}, nil), `outside the root element, the document has comment "licence v0" as node 1 before the root, not comment "licence v1"`},
		{"another count", surrounded("r", nil, nil), `outside the root element, the document has 0 comments and processing instructions before the root, not 1`},
	} {
		if _, err := Apply(tc.doc, mustBuild(t, a, b)); err == nil || !strings.HasSuffix(err.Error(), tc.want) {
			t.Errorf("%s: %v, want it to end in %q", tc.name, err, tc.want)
		}
	}
	d := mustBuild(t, a, b)
	if _, err := Compose(d, d); err == nil || !strings.HasSuffix(err.Error(), `its source has comment "licence v1" as node 1 before the root, not comment "licence v2", where the previous delta leaves them`) {
		t.Errorf("Compose of a delta with itself: %v", err)
	}
}

// TestOutsideMalformed refuses what cannot stand outside the root.
func TestOutsideMalformed(t *testing.T) {
	for name, o := range map[string]*Outside{
		"element":             {New: Surroundings{Prolog: []*tree.Node{{Kind: tree.Element, Name: "a"}}}},
		"text":                {Old: Surroundings{Epilog: []*tree.Node{{Kind: tree.Text, Value: "a"}}}},
		"xml":                 {New: Surroundings{Prolog: []*tree.Node{{Kind: tree.ProcInst, Name: "xml"}}}},
		"xml epilog":          {Old: Surroundings{Epilog: []*tree.Node{{Kind: tree.ProcInst, Name: "xml"}}}},
		"nil":                 {New: Surroundings{Prolog: []*tree.Node{nil}}},
		"pi without a target": {Old: Surroundings{Prolog: []*tree.Node{{Kind: tree.ProcInst, Value: "v"}}}},
		"named comment":       {New: Surroundings{Epilog: []*tree.Node{{Kind: tree.Comment, Name: "x", Value: "v"}}}},
		"comment with attrs":  {New: Surroundings{Epilog: []*tree.Node{{Kind: tree.Comment, Value: "v", Attrs: []tree.Attr{{Name: "a", Value: "b"}}}}}},
	} {
		if err := (&Delta{Outside: o}).Validate(); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, in := range []string{
		`<unit_delta><t><outside><old/></outside></t></unit_delta>`,
		`<unit_delta><t><outside><old/><new><prolog>text</prolog></new></outside></t></unit_delta>`,
		`<unit_delta><t><outside><old/><new><body/></new></outside></t></unit_delta>`,
		`<unit_delta><t><outside><old/><new/></outside><outside><old/><new/></outside></t></unit_delta>`,
	} {
		var de *DecodeError
		if _, err := DecodeXML(strings.NewReader(in)); !errors.As(err, &de) || de.Line == 0 {
			t.Errorf("%s: %v, want a DecodeError with a line", in, err)
		}
	}
	for _, in := range []string{
		`{"ops":[],"outside":{"old":{}}}`,
		`{"ops":[],"outside":{"old":{},"new":{"prolog":[null]}}}`,
		`{"ops":[],"outside":{"old":{},"new":{"prolog":[{"kind":"element","name":"a"}]}}}`,
		`{"ops":[],"outside":{"old":{},"new":{},"odd":1}}`,
		// What XML cannot write back: a JSON delta reads as its XML form.
		`{"ops":[],"outside":{"old":{"prolog":[{"kind":"pi","name":"","value":"v"}]},"new":{}}}`,
		`{"ops":[],"outside":{"old":{},"new":{"epilog":[{"kind":"comment","name":"x","value":"v"}]}}}`,
	} {
		var de *DecodeError
		if _, err := DecodeJSON(strings.NewReader(in)); !errors.As(err, &de) || de.Line == 0 && de.Path == "" {
			t.Errorf("%s: %v, want a DecodeError with a place", in, err)
		}
	}
}

// TestOutsideXHTMLReadEitherWay: the XML declaration, and white space in the
// DOCTYPE, are not a change outside the root; an outside with nothing
// changed decodes as none.
func TestOutsideXHTMLReadEitherWay(t *testing.T) {
	asXML := &tree.Document{Doctype: "html PUBLIC \"-//W3C//DTD XHTML 1.0 Strict//EN\"\n  \"x.dtd\""}
	asXML.Prolog = []*tree.Node{asXML.NewNode(tree.ProcInst, "xml", `version="1.0"`)}
	asHTML := &tree.Document{Doctype: `html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "x.dtd"`, HTML: true}
	asHTML.Prolog = []*tree.Node{asHTML.NewNode(tree.Comment, "", `?xml version="1.0"?`)}
	a, b := surroundingsOfDocument(asXML), surroundingsOfDocument(asHTML)
	if o := outsideChange(a, b); o != nil {
		t.Errorf("XHTML read as XML, then as HTML: a change outside the root: %+v", o)
	}
	// Read as HTML, a declaration after a comment is a comment too: left
	// out wherever it stands, and kept by Apply where it stands, after
	// the comment.
	html1 := &tree.Document{Root: &tree.Node{Kind: tree.Element, Name: "html", XID: 1}, HTML: true}
	html1.Prolog = []*tree.Node{{Kind: tree.Comment, Value: "a"}, {Kind: tree.Comment, Value: `?xml version="1.0"?`}}
	html2 := html1.Clone()
	html2.Prolog[0].Value = "b"
	d := mustBuild(t, html1, html2)
	if d.Outside == nil || len(d.Outside.Old.Prolog) != 1 {
		t.Fatalf("outside of a prolog with a declaration second: %+v", d.Outside)
	}
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	got, err := Apply(html1, d)
	if err != nil || len(got.Prolog) != 2 || got.Prolog[0].Value != "b" || !tree.IsXMLDeclarationComment(got.Prolog[1]) {
		t.Fatalf("Apply: %v, prolog %v", err, got.Prolog)
	}
	for _, in := range []string{
		`<unit_delta><t><outside><old><prolog><!--a--></prolog></old><new><prolog><!--a--></prolog></new></outside></t></unit_delta>`,
	} {
		ds, err := DecodeXML(strings.NewReader(in))
		if err != nil || ds[0].Outside != nil || !ds[0].Empty() {
			t.Errorf("%s: %v, %+v", in, err, ds)
		}
	}
	d, err = DecodeJSON(strings.NewReader(`{"ops":[],"outside":{"old":{"doctype":"html"},"new":{"doctype":" html "}}}`))
	if err != nil || d.Outside != nil {
		t.Errorf("JSON outside with nothing changed: %v, %+v", err, d)
	}
}

// TestOutsideDoctypePlace: a DOCTYPE that moves past a comment before the
// root is a change outside the root, which both codecs carry, Apply and
// its inverse make, and Compose keeps.
func TestOutsideDoctypePlace(t *testing.T) {
	a := surrounded("r", []string{"a"}, nil)
	a.DoctypeAfter = 1 // <?xml?><!--a--><!DOCTYPE r>
	b := surrounded("r", []string{"a", "b"}, nil)
	b.DoctypeAfter = 0 // <?xml?><!DOCTYPE r><!--a--><!--b-->
	moved := surrounded("r", []string{"a"}, nil)
	if !OutsideChanged(a, moved) {
		t.Fatal("OutsideChanged: a DOCTYPE moved past a comment is no change")
	}
	d := mustBuild(t, a, b)
	if d.Outside == nil || d.Outside.Old.DoctypeAfter != 1 || d.Outside.New.DoctypeAfter != 0 {
		t.Fatalf("Build: %+v", d.Outside)
	}
	for _, tc := range []struct {
		name   string
		encode func(*Delta) ([]byte, error)
		decode func([]byte) (*Delta, error)
	}{
		{"xml", func(d *Delta) ([]byte, error) {
			var buf bytes.Buffer
			err := EncodeXML(&buf, d)
			return buf.Bytes(), err
		}, func(b []byte) (*Delta, error) {
			ds, err := DecodeXML(bytes.NewReader(b))
			if err != nil || len(ds) != 1 {
				return nil, fmt.Errorf("%d deltas: %w", len(ds), err)
			}
			return ds[0], nil
		}},
		{"json", func(d *Delta) ([]byte, error) {
			var buf bytes.Buffer
			err := EncodeJSON(&buf, d)
			return buf.Bytes(), err
		}, func(b []byte) (*Delta, error) { return DecodeJSON(bytes.NewReader(b)) }},
	} {
		enc, err := tc.encode(d)
		if err != nil {
			t.Fatalf("%s: encode: %v", tc.name, err)
		}
		back, err := tc.decode(enc)
		if err != nil {
			t.Fatalf("%s: decode: %v\n%s", tc.name, err, enc)
		}
		if !sameOutside(back.Outside, d.Outside) || back.Outside.Old.DoctypeAfter != 1 {
			t.Errorf("%s: round trip: %+v\n%s", tc.name, back.Outside, enc)
		}
	}
	got, err := Apply(a, d)
	if err != nil {
		t.Fatal(err)
	}
	if got.DoctypeAfter != 0 || len(got.Prolog) != 3 {
		t.Fatalf("Apply: DoctypeAfter %d, prolog %d nodes", got.DoctypeAfter, len(got.Prolog))
	}
	back, err := Apply(got, Invert(d))
	if err != nil {
		t.Fatal(err)
	}
	if back.DoctypeAfter != 1 || len(back.Prolog) != 2 {
		t.Fatalf("Apply of the inverse: DoctypeAfter %d, prolog %d nodes", back.DoctypeAfter, len(back.Prolog))
	}
	if _, err := Apply(moved, d); !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "DOCTYPE") {
		t.Errorf("Apply to a document with the DOCTYPE elsewhere: %v", err)
	}
}
