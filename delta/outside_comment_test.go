package delta_test

import (
	"testing"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/treediff"
)

// TestOutsideCommentsShapedLikeDeclarations: read as XML, a comment
// before the root is the document's own whatever its text, also one
// shaped like an XML declaration (<!--?xml version="1.0"?-->) or a
// DOCTYPE, and so is one after the root and a processing instruction: a
// version that gains, loses or changes one differs outside the root, and
// Apply(a, Diff(a, b)) writes b, the inverse a, through both codecs. Read
// as HTML, <?xml ...?> is the comment the parser makes of a declaration
// (tree.IsXMLDeclarationComment), which a delta leaves out before the
// root: no change; after the root it is a comment like any other.
func TestOutsideCommentsShapedLikeDeclarations(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, new string
		html     bool
		changed  bool
	}{
		{"xml, comment shaped like a declaration added first",
			`<a><b>x</b></a>`, `<!--?xml version="1.0"?--><a><b>x</b></a>`, false, true},
		{"xml, comment shaped like a declaration removed",
			`<!--?xml version="1.0"?--><a><b>x</b></a>`, `<a><b>x</b></a>`, false, true},
		{"xml, comment shaped like a declaration changed",
			`<!--?xml version="1.0"?--><a><b>x</b></a>`, `<!--?xml version="1.1"?--><a><b>x</b></a>`, false, true},
		{"xml, comment shaped like a declaration after the declaration",
			`<?xml version="1.0"?><a><b>x</b></a>`, `<?xml version="1.0"?><!--?xml version="1.0"?--><a><b>x</b></a>`, false, true},
		{"xml, comment shaped like a declaration after another comment",
			`<!--x--><a><b>x</b></a>`, `<!--x--><!--?xml version="1.0"?--><a><b>x</b></a>`, false, true},
		{"xml, comment shaped like a declaration after the DOCTYPE",
			`<!DOCTYPE a><a><b>x</b></a>`, `<!DOCTYPE a><!--?xml version="1.0"?--><a><b>x</b></a>`, false, true},
		{"xml, comment shaped like a declaration, the body changed",
			`<!--?xml version="1.0"?--><a><b>x</b></a>`, `<!--?xml version="1.0"?--><a><b>y</b></a>`, false, false},
		{"xml, comment shaped like a declaration after the root",
			`<a><b>x</b></a>`, `<a><b>x</b></a><!--?xml version="1.0"?-->`, false, true},
		{"xml, comment shaped like a DOCTYPE added",
			`<a><b>x</b></a>`, `<!--!DOCTYPE a--><a><b>x</b></a>`, false, true},
		{"xml, processing instruction added",
			`<a><b>x</b></a>`, `<?xml-stylesheet href="a.css"?><a><b>x</b></a>`, false, true},
		{"xml, processing instruction shaped like a declaration in a comment",
			`<a><b>x</b></a>`, `<?pi ?xml version="1.0"??><a><b>x</b></a>`, false, true},
		{"html, declaration added first",
			`<html><body><p>x</p></body></html>`, `<?xml version="1.0"?><html><body><p>x</p></body></html>`, true, false},
		{"html, comment added first",
			`<html><body><p>x</p></body></html>`, `<!--x--><html><body><p>x</p></body></html>`, true, true},
		{"html, declaration added after the root, a comment there",
			`<html><body><p>x</p></body></html>`, `<html><body><p>x</p></body></html><?xml version="1.0"?>`, true, true},
	} {
		parse, write := parseWrite(tc.html)
		for _, c := range deltaCodecs {
			t.Run(tc.name+"/"+c.name, func(t *testing.T) {
				a, b := parse(t, tc.old), parse(t, tc.new)
				wantA, wantB := write(t, a), write(t, b)
				if got := delta.OutsideChanged(a, b); got != tc.changed {
					t.Errorf("OutsideChanged %v, want %v", got, tc.changed)
				}
				d, err := treediff.Diff(a, b, nil)
				if err != nil {
					t.Fatal(err)
				}
				if got := d.Outside != nil; got != tc.changed {
					t.Fatalf("a change outside the root: %v, want %v (%+v)", got, tc.changed, d.Outside)
				}
				d = throughCodec(t, c, d)
				got, err := delta.Apply(a, d)
				if err != nil {
					t.Fatalf("Apply: %v", err)
				}
				if g := write(t, got); g != wantB && !(tc.html && !tc.changed) {
					t.Errorf("Apply(a, Diff(a, b)):\n got %s\nwant %s", g, wantB)
				}
				back, err := delta.Apply(b, throughCodec(t, c, delta.Invert(d)))
				if err != nil {
					t.Fatalf("Apply of the inverse: %v", err)
				}
				if g := write(t, back); g != wantA && !(tc.html && !tc.changed) {
					t.Errorf("Apply(b, Invert(Diff(a, b))):\n got %s\nwant %s", g, wantA)
				}
			})
		}
	}
}

// TestStoredDeltaBesideDeclarationShapedComment: a delta written when
// deltas left a comment <!--?xml ...?--> out of a prolog read as XML too
// (its prolog holds none) still applies to the version it was made from,
// and its inverse to the next, keeping the comment where it stands.
func TestStoredDeltaBesideDeclarationShapedComment(t *testing.T) {
	const old = `<!--?xml version="1.0"?--><!-- x --><r>a</r>`
	const new = `<!--?xml version="1.0"?--><!-- y --><r>a</r>`
	stored := map[string]string{
		"xml": `<unit_delta><t fromXidMap="(1-2|3)" toXidMap="(1-2|3)"><outside>
<old><prolog><!-- x --></prolog></old>
<new><prolog><!-- y --></prolog></new>
</outside></t></unit_delta>`,
		"json": `{"ops":[],"fromXidMap":"(1-2|3)","toXidMap":"(1-2|3)","outside":{"old":{"prolog":[{"kind":"comment","value":" x "}]},"new":{"prolog":[{"kind":"comment","value":" y "}]}}}`,
	}
	parse, write := parseWrite(false)
	for _, c := range deltaCodecs {
		t.Run(c.name, func(t *testing.T) {
			a, b := parse(t, old), parse(t, new)
			a.AssignXIDs()
			b.AssignXIDs()
			d, err := c.decode([]byte(stored[c.name]))
			if err != nil {
				t.Fatal(err)
			}
			got, err := delta.Apply(a, d)
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if g, w := write(t, got), write(t, b); g != w {
				t.Errorf("Apply of the stored delta:\n got %s\nwant %s", g, w)
			}
			back, err := delta.Apply(b, delta.Invert(d))
			if err != nil {
				t.Fatalf("Apply of the inverse: %v", err)
			}
			if g, w := write(t, back), write(t, a); g != w {
				t.Errorf("Apply of the stored delta's inverse:\n got %s\nwant %s", g, w)
			}
		})
	}
}
