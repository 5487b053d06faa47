package delta_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
)

// declarationCases are pairs of versions whose prolog holds an XML
// declaration where a parser leaves one: the comment an HTML parser makes
// of <?xml ...?> (first, or after another comment, on either side of the
// DOCTYPE), or the processing instruction of an XML parser.
var declarationCases = []struct {
	name     string
	old, new string
	html     bool
}{
	{"html, declaration after a comment, body changed",
		`<!-- x --><!--?xml version="1.0"?--><!DOCTYPE html><html><body><p>a</p></body></html>`,
		`<!-- x --><!--?xml version="1.0"?--><!DOCTYPE html><html><body><p>b</p></body></html>`, true},
	{"html, declaration after a comment, the comment changed",
		`<!-- x --><!--?xml version="1.0"?--><!DOCTYPE html><html><body><p>a</p></body></html>`,
		`<!-- y --><!--?xml version="1.0"?--><!DOCTYPE html><html><body><p>b</p></body></html>`, true},
	{"html, declaration after a comment, a comment added before",
		`<!-- x --><!--?xml version="1.0"?--><!DOCTYPE html><html><body><p>a</p></body></html>`,
		`<!-- w --><!-- x --><!--?xml version="1.0"?--><!DOCTYPE html><html><body><p>a</p></body></html>`, true},
	{"html, declaration after a comment, a comment after it removed",
		`<!-- x --><!--?xml version="1.0"?--><!-- z --><!DOCTYPE html><html><body><p>a</p></body></html>`,
		`<!-- x --><!--?xml version="1.0"?--><!DOCTYPE html><html><body><p>a</p></body></html>`, true},
	{"html, DOCTYPE moved before the comment and the declaration",
		`<!-- x --><!--?xml version="1.0"?--><!DOCTYPE html><html><body><p>a</p></body></html>`,
		`<!DOCTYPE html><!-- x --><!--?xml version="1.0"?--><html><body><p>a</p></body></html>`, true},
	{"html, declaration after the DOCTYPE, the comment after it changed",
		`<!DOCTYPE html><!--?xml version="1.0"?--><!-- x --><html><body><p>a</p></body></html>`,
		`<!DOCTYPE html><!--?xml version="1.0"?--><!-- y --><html><body><p>a</p></body></html>`, true},
	{"html, declaration first, the comment changed",
		`<!--?xml version="1.0"?--><!-- x --><!DOCTYPE html><html><body><p>a</p></body></html>`,
		`<!--?xml version="1.0"?--><!-- y --><!DOCTYPE html><html><body><p>a</p></body></html>`, true},
	{"xml, declaration, the comment changed",
		`<?xml version="1.0"?><!-- x --><!DOCTYPE r><r>a</r>`,
		`<?xml version="1.0"?><!-- y --><!DOCTYPE r><r>b</r>`, false},
}

// parseWrite reads a version as HTML or XML, and writes a document back
// the same way.
func parseWrite(html bool) (func(*testing.T, string) *tree.Document, func(*testing.T, *tree.Document) string) {
	parse := func(t *testing.T, s string) *tree.Document {
		t.Helper()
		var d *tree.Document
		var err error
		if html {
			d, err = markup.ParseHTMLBytes([]byte(s), nil)
		} else {
			d, err = markup.ParseXMLBytes([]byte(s), nil)
		}
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	write := func(t *testing.T, d *tree.Document) string {
		t.Helper()
		var b bytes.Buffer
		var err error
		if html {
			err = markup.WriteHTML(&b, d, nil)
		} else {
			err = markup.WriteXML(&b, d, nil)
		}
		if err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	return parse, write
}

// TestApplyKeepsDeclarationPlace: Apply(a, Diff(a, b)) writes b byte for
// byte, and the inverse a, when an XML declaration stands in the prolog,
// also after a comment (where an HTML parser leaves what it reads of
// <?xml ...?>), through both codecs.
func TestApplyKeepsDeclarationPlace(t *testing.T) {
	for _, tc := range declarationCases {
		parse, write := parseWrite(tc.html)
		for _, c := range deltaCodecs {
			t.Run(tc.name+"/"+c.name, func(t *testing.T) {
				a, b := parse(t, tc.old), parse(t, tc.new)
				wantA, wantB := write(t, a), write(t, b)
				d, err := treediff.Diff(a, b, nil)
				if err != nil {
					t.Fatal(err)
				}
				d = throughCodec(t, c, d)
				got, err := delta.Apply(a, d)
				if err != nil {
					t.Fatalf("Apply: %v", err)
				}
				if g := write(t, got); g != wantB {
					t.Errorf("Apply(a, Diff(a, b)):\n got %s\nwant %s", g, wantB)
				}
				back, err := delta.Apply(b, throughCodec(t, c, delta.Invert(d)))
				if err != nil {
					t.Fatalf("Apply of the inverse: %v", err)
				}
				if g := write(t, back); g != wantA {
					t.Errorf("Apply(b, Invert(Diff(a, b))):\n got %s\nwant %s", g, wantA)
				}
			})
		}
	}
}

// TestApplyStoredDeltaKeepsDeclarationPlace: a delta written before Apply
// kept a declaration's place (which the delta never held) decodes as the
// delta a diff gives now, in both codecs, and applies to a prolog with the
// declaration after a comment, leaving it there.
func TestApplyStoredDeltaKeepsDeclarationPlace(t *testing.T) {
	tc := declarationCases[1] // the comment before the declaration changed
	stored := map[string]string{
		"xml": `<unit_delta>
<t fromXidMap="(1-5|6)" toXidMap="(1-5|6)">
<d par="3" pos="1" xm="(2)" update="yes">a</d>
<i par="3" pos="1" xm="(2)" update="yes">b</i>
<outside>
<old doctype="html" doctype-after="1"><prolog><!-- x --></prolog></old>
<new doctype="html" doctype-after="1"><prolog><!-- y --></prolog></new>
</outside>
</t>
</unit_delta>
`,
		"json": `{"from":"","to":"","fromXidMap":"(1-5|6)","toXidMap":"(1-5|6)","ops":[
{"op":"d","par":3,"pos":1,"xm":"(2)","update":true,"content":{"kind":"text","value":"a"}},
{"op":"i","par":3,"pos":1,"xm":"(2)","update":true,"content":{"kind":"text","value":"b"}}],"outside":{"old":{"doctype":"html","doctypeAfter":1,"prolog":[{"kind":"comment","value":" x "}],"epilog":[]},"new":{"doctype":"html","doctypeAfter":1,"prolog":[{"kind":"comment","value":" y "}],"epilog":[]}}}`,
	}
	parse, write := parseWrite(true)
	for _, c := range deltaCodecs {
		t.Run(c.name, func(t *testing.T) {
			a, b := parse(t, tc.old), parse(t, tc.new)
			d, err := c.decode([]byte(stored[c.name]))
			if err != nil {
				t.Fatal(err)
			}
			now, err := treediff.Diff(a, b, nil)
			if err != nil {
				t.Fatal(err)
			}
			if !delta.Equal(d, now) {
				t.Errorf("the stored delta decodes otherwise than a diff gives now:\n%s", stored[c.name])
			}
			got, err := delta.Apply(a, d)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := write(t, got), write(t, b); g != w || !strings.HasPrefix(g, `<!-- y --><!--?xml version="1.0"?--><!DOCTYPE html>`) {
				t.Errorf("Apply of the stored delta:\n got %s\nwant %s", g, w)
			}
		})
	}
}

// TestHandEditedDeclarationOutside: a delta whose prolog holds the
// comment an HTML parser makes of an XML declaration, which a diff of
// versions read as HTML never writes there (one of versions read as XML
// does: there it is a comment), is either undone by its inverse
// (Apply(Apply(a, d), Invert(d)) writes a) or refused, naming the
// declaration, when it is applied to a document read as HTML: never
// applied one way only. In the epilog, where a diff does write one, it
// goes both ways; so does it in a document read as XML.
func TestHandEditedDeclarationOutside(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		xml, json string
		refused   bool // Apply refuses the delta, which no inverse would undo
		asXML     bool // the document is read as XML
	}{
		{"declaration added before the root",
			`<!DOCTYPE html><html><body><p>a</p></body></html>`,
			`<unit_delta><t fromXidMap="(1-5|6)" toXidMap="(1-5|6)"><outside><old doctype="html"/><new doctype="html"><prolog><!--?xml version="1.0"?--></prolog></new></outside></t></unit_delta>`,
			`{"ops":[],"outside":{"old":{"doctype":"html","prolog":[],"epilog":[]},"new":{"doctype":"html","prolog":[{"kind":"comment","value":"?xml version=\"1.0\"?"}],"epilog":[]}}}`,
			true, false},
		{"declaration added after a changed comment",
			`<!-- x --><!DOCTYPE html><html><body><p>a</p></body></html>`,
			`<unit_delta><t fromXidMap="(1-5|6)" toXidMap="(1-5|6)"><outside><old doctype="html" doctype-after="1"><prolog><!-- x --></prolog></old><new doctype="html" doctype-after="2"><prolog><!-- y --></prolog><prolog><!--?xml version="1.0"?--></prolog></new></outside></t></unit_delta>`,
			`{"ops":[],"outside":{"old":{"doctype":"html","doctypeAfter":1,"prolog":[{"kind":"comment","value":" x "}],"epilog":[]},"new":{"doctype":"html","doctypeAfter":2,"prolog":[{"kind":"comment","value":" y "},{"kind":"comment","value":"?xml version=\"1.0\"?"}],"epilog":[]}}}`,
			true, false},
		{"declaration added after the root",
			`<!DOCTYPE html><html><body><p>a</p></body></html>`,
			`<unit_delta><t fromXidMap="(1-5|6)" toXidMap="(1-5|6)"><outside><old doctype="html"/><new doctype="html"><epilog><!--?xml version="1.0"?--></epilog></new></outside></t></unit_delta>`,
			`{"ops":[],"outside":{"old":{"doctype":"html","prolog":[],"epilog":[]},"new":{"doctype":"html","prolog":[],"epilog":[{"kind":"comment","value":"?xml version=\"1.0\"?"}]}}}`,
			false, false},
		{"read as XML, declaration-shaped comment added before the root",
			`<!DOCTYPE html><html><head></head><body><p>a</p></body></html>`,
			`<unit_delta><t fromXidMap="(1-5|6)" toXidMap="(1-5|6)"><outside><old doctype="html"/><new doctype="html"><prolog><!--?xml version="1.0"?--></prolog></new></outside></t></unit_delta>`,
			`{"ops":[],"outside":{"old":{"doctype":"html","prolog":[],"epilog":[]},"new":{"doctype":"html","prolog":[{"kind":"comment","value":"?xml version=\"1.0\"?"}],"epilog":[]}}}`,
			false, true},
		{"read as XML, declaration-shaped comment added after a changed comment",
			`<!-- x --><!DOCTYPE html><html><head></head><body><p>a</p></body></html>`,
			`<unit_delta><t fromXidMap="(1-5|6)" toXidMap="(1-5|6)"><outside><old doctype="html" doctype-after="1"><prolog><!-- x --></prolog></old><new doctype="html" doctype-after="2"><prolog><!-- y --></prolog><prolog><!--?xml version="1.0"?--></prolog></new></outside></t></unit_delta>`,
			`{"ops":[],"outside":{"old":{"doctype":"html","doctypeAfter":1,"prolog":[{"kind":"comment","value":" x "}],"epilog":[]},"new":{"doctype":"html","doctypeAfter":2,"prolog":[{"kind":"comment","value":" y "},{"kind":"comment","value":"?xml version=\"1.0\"?"}],"epilog":[]}}}`,
			false, true},
	} {
		parse, write := parseWrite(!tc.asXML)
		for _, c := range deltaCodecs {
			t.Run(tc.name+"/"+c.name, func(t *testing.T) {
				in := tc.xml
				if c.name == "json" {
					in = tc.json
				}
				a := parse(t, tc.doc)
				a.AssignXIDs()
				wantA := write(t, a)
				refused := func(what string, err error) {
					t.Helper()
					if !tc.refused {
						t.Fatalf("%s: %v", what, err)
					}
					if !errors.Is(err, delta.ErrConflict) || !strings.Contains(err.Error(), "XML declaration") {
						t.Fatalf("%s: %v, want ErrConflict naming the XML declaration", what, err)
					}
				}
				d, err := c.decode([]byte(in))
				if err != nil {
					refused("decode", err)
					return
				}
				b, err := delta.Apply(a, d)
				if err != nil {
					refused("Apply", err)
					return
				}
				if tc.refused {
					t.Errorf("Apply accepted the delta, writing %s", write(t, b))
				}
				back, err := delta.Apply(b, throughCodec(t, c, delta.Invert(d)))
				if err != nil {
					t.Fatalf("Apply of the inverse: %v", err)
				}
				if g := write(t, back); g != wantA {
					t.Errorf("Apply(Apply(a, d), Invert(d)):\n got %s\nwant %s", g, wantA)
				}
			})
		}
	}
}
