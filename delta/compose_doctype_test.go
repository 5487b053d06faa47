package delta_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
)

// deltaCodec writes and reads a delta in one of the package's formats.
type deltaCodec struct {
	name   string
	encode func(*delta.Delta) ([]byte, error)
	decode func([]byte) (*delta.Delta, error)
}

var deltaCodecs = []deltaCodec{
	{"xml", func(d *delta.Delta) ([]byte, error) {
		var b bytes.Buffer
		err := delta.EncodeXML(&b, d)
		return b.Bytes(), err
	}, func(data []byte) (*delta.Delta, error) {
		ds, err := delta.DecodeXML(bytes.NewReader(data))
		if err != nil {
			return nil, err
		}
		if len(ds) != 1 {
			return nil, fmt.Errorf("%d deltas, want 1", len(ds))
		}
		return ds[0], nil
	}},
	{"json", func(d *delta.Delta) ([]byte, error) {
		var b bytes.Buffer
		err := delta.EncodeJSON(&b, d)
		return b.Bytes(), err
	}, func(data []byte) (*delta.Delta, error) { return delta.DecodeJSON(bytes.NewReader(data)) }},
}

// throughCodec returns d as the codec writes and reads it back.
func throughCodec(t *testing.T, c deltaCodec, d *delta.Delta) *delta.Delta {
	t.Helper()
	data, err := c.encode(d)
	if err != nil {
		t.Fatalf("%s encode: %v", c.name, err)
	}
	back, err := c.decode(data)
	if err != nil {
		t.Fatalf("%s decode: %v\n%s", c.name, err, data)
	}
	return back
}

func writeXML(t *testing.T, d *tree.Document) string {
	t.Helper()
	var b bytes.Buffer
	if err := markup.WriteXML(&b, d, nil); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestComposeDoctypePlace composes deltas that move the DOCTYPE among the
// comments before the root, add a comment before it or remove it: the
// composition leads from the first version to the last, and its inverse
// back, byte for byte as the documents are written, with the deltas and
// the composition carried through both codecs; ComposeAll agrees.
func TestComposeDoctypePlace(t *testing.T) {
	const decl = `<?xml version="1.0"?>`
	for _, tc := range []struct{ name, a, b, c string }{
		{"moved past a comment, then back",
			`<!DOCTYPE r><!--c--><r>x</r>`, `<!--c--><!DOCTYPE r><r>x</r>`, `<!DOCTYPE r><!--c--><r>x</r>`},
		{"moved past a comment, then a comment added before it",
			`<!DOCTYPE r><!--c--><r>x</r>`, `<!--c--><!DOCTYPE r><r>x</r>`, `<!--n--><!--c--><!DOCTYPE r><r>x</r>`},
		{"moved past a comment, then removed",
			`<!DOCTYPE r><!--c--><r>x</r>`, `<!--c--><!DOCTYPE r><r>x</r>`, `<!--c--><r>x</r>`},
		{"moved past a comment, then past the next",
			`<!DOCTYPE r><!--c1--><!--c2--><r>x</r>`, `<!--c1--><!DOCTYPE r><!--c2--><r>x</r>`, `<!--c1--><!--c2--><!DOCTYPE r><r>x</r>`},
		{"moved back past a comment, then the comment changed",
			`<!--c--><!DOCTYPE r><r>x</r>`, `<!DOCTYPE r><!--c--><r>x</r>`, `<!DOCTYPE r><!--d--><r>x</r>`},
		{"moved past a processing instruction, and the root's text changed",
			`<!DOCTYPE r><?p v?><r>x</r><!--e-->`, `<?p v?><!DOCTYPE r><r>y</r><!--e-->`, `<!--n--><?p v?><!DOCTYPE r><r>z</r>`},
		{"added with a comment before it, then moved past another",
			`<!--c--><r>x</r>`, `<!--c--><!DOCTYPE r><!--d--><r>x</r>`, `<!--c--><!--d--><!DOCTYPE r><r>x</r>`},
	} {
		for _, withDecl := range []bool{false, true} {
			a, b, c := tc.a, tc.b, tc.c
			name := tc.name
			if withDecl {
				a, b, c, name = decl+a, decl+b, decl+c, name+", after an XML declaration"
			}
			for _, codec := range deltaCodecs {
				t.Run(name+"/"+codec.name, func(t *testing.T) {
					docs := make([]*tree.Document, 3)
					for i, s := range []string{a, b, c} {
						d, _, err := markup.ParseBytes([]byte(s), nil)
						if err != nil {
							t.Fatalf("parse %s: %v", s, err)
						}
						docs[i] = d
					}
					d1, err := treediff.Diff(docs[0], docs[1], nil)
					if err != nil {
						t.Fatal(err)
					}
					d2, err := treediff.Diff(docs[1], docs[2], nil)
					if err != nil {
						t.Fatal(err)
					}
					d1, d2 = throughCodec(t, codec, d1), throughCodec(t, codec, d2)
					composed, err := delta.Compose(d1, d2)
					if err != nil {
						t.Fatalf("Compose: %v", err)
					}
					if all, err := delta.ComposeAll([]*delta.Delta{d1, d2}); err != nil || !delta.Equal(all, composed) {
						t.Errorf("ComposeAll: %v, and not Compose's delta", err)
					}
					composed = throughCodec(t, codec, composed)
					want := map[bool]string{false: writeXML(t, docs[2]), true: writeXML(t, docs[0])}
					got, err := delta.Apply(docs[0], composed)
					if err != nil {
						t.Fatalf("Apply(a, Compose(d1, d2)): %v", err)
					}
					if s := writeXML(t, got); s != want[false] {
						t.Errorf("Apply(a, Compose(d1, d2)):\n got %q\nwant %q", s, want[false])
					}
					back, err := delta.Apply(docs[2], throughCodec(t, codec, delta.Invert(composed)))
					if err != nil {
						t.Fatalf("Apply(c, Invert(Compose(d1, d2))): %v", err)
					}
					if s := writeXML(t, back); s != want[true] {
						t.Errorf("Apply(c, Invert(Compose(d1, d2))):\n got %q\nwant %q", s, want[true])
					}
				})
			}
		}
	}
}
