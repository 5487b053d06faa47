package xmlpatch

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
)

// prologCases are changes to what stands before and after the root of a
// document with a DOCTYPE; want is "" for a change Export states, else
// what its refusal says. They seed FuzzExport too.
var prologCases = []struct{ name, old, new, want string }{
	{"comment before the DOCTYPE rewritten",
		`<!--a--><!DOCTYPE r><r>x</r>`, `<!--a2--><!DOCTYPE r><r>x</r>`, ""},
	{"processing instruction added after the DOCTYPE",
		`<!--a--><!DOCTYPE r><r>x</r>`, `<!--a--><!DOCTYPE r><?p v?><r>x</r>`, ""},
	{"comment after the DOCTYPE rewritten",
		`<!--a--><!DOCTYPE r><!--b--><r>x</r>`, `<!--a--><!DOCTYPE r><!--b2--><r>x</r>`, ""},
	{"comment before the DOCTYPE removed",
		`<!--a--><!--b--><!DOCTYPE r><r>x</r>`, `<!--b--><!DOCTYPE r><r>x</r>`, ""},
	{"every comment before the DOCTYPE removed",
		`<!--a--><!DOCTYPE r><!--b--><r>x</r>`, `<!DOCTYPE r><!--b--><r>x</r>`, ""},
	{"comment added after the one before the DOCTYPE",
		`<!--a--><!DOCTYPE r><r>x</r>`, `<!--a--><!--n--><!DOCTYPE r><r>x</r>`, ""},
	{"comment added before the one before the DOCTYPE",
		`<!--a--><!DOCTYPE r><r>x</r>`, `<!--n--><!--a--><!DOCTYPE r><r>x</r>`, ""},
	{"DOCTYPE moved before a comment",
		`<!--a--><!--b--><!DOCTYPE r><r>x</r>`, `<!--a--><!DOCTYPE r><!--b--><r>x</r>`, ""},
	{"DOCTYPE moved before every comment",
		`<!--a--><!DOCTYPE r><r>x</r>`, `<!DOCTYPE r><!--a--><r>x</r>`, ""},
	{"DOCTYPE moved past a comment, one preceding it",
		`<!--a--><!DOCTYPE r><!--b--><r>x</r>`, `<!--a--><!--b--><!DOCTYPE r><r>x</r>`, ""},
	{"comment before the DOCTYPE turned into a processing instruction",
		`<!--a--><!DOCTYPE r><r>x</r>`, `<?p v?><!DOCTYPE r><r>x</r>`, ""},
	{"processing instruction before the DOCTYPE retargeted",
		`<?p v?><!--a--><!DOCTYPE r><r>x</r>`, `<?q v?><!--a--><!DOCTYPE r><r>x</r>`, ""},
	{"everything around the root changed",
		`<!--a--><?p 1?><!DOCTYPE r><!--b--><r>x</r><!--e-->`, `<?q 2?><!DOCTYPE r><!--c--><!--d--><r>y</r><?z?>`, ""},
	{"after an XML declaration",
		`<?xml version="1.0"?><!--a--><!DOCTYPE r><r>x</r>`, `<?xml version="1.0"?><!--a2--><!--n--><!DOCTYPE r><?p v?><r>x</r>`, ""},
	{"comment before a declaration read as a comment rewritten",
		`<!--a--><!--?xml version="1.0"?--><!DOCTYPE r><r>x</r>`, `<!--a2--><!--?xml version="1.0"?--><!DOCTYPE r><r>x</r>`, ""},
	{"comment added after a declaration read as a comment, after the DOCTYPE",
		`<!DOCTYPE r><!--?xml version="1.0"?--><r>x</r>`, `<!DOCTYPE r><!--?xml version="1.0"?--><!--n--><r>x</r>`, ""},
	{"DOCTYPE moved before a comment and a declaration read as a comment",
		`<!--a--><!--?xml version="1.0"?--><!DOCTYPE r><r>x</r>`, `<!DOCTYPE r><!--a--><!--?xml version="1.0"?--><r>x</r>`, ""},
	{"epilog changed",
		`<!--a--><!DOCTYPE r><r>x</r><!--e-->`, `<!--a--><!DOCTYPE r><r>x</r><!--f--><?z?>`, ""},
	{"without a DOCTYPE",
		`<!--a--><!--b--><r>x</r><!--e-->`, `<!--a--><!--c--><r>x</r><!--e--><!--f-->`, ""},
	{"DOCTYPE moved past a comment, nothing preceding it",
		`<!DOCTYPE r><!--a--><r>x</r>`, `<!--a--><!DOCTYPE r><r>x</r>`,
		`an add of comment "a" before the DOCTYPE, which no comment or processing instruction precedes`},
	{"comment added before the DOCTYPE, nothing preceding it",
		`<!DOCTYPE r><r>x</r>`, `<!--n--><?p v?><!DOCTYPE r><r>x</r>`,
		`an add of comment "n" and 1 more before the DOCTYPE, which no comment or processing instruction precedes`},
	{"comment added before the DOCTYPE, an XML declaration preceding it",
		`<?xml version="1.0"?><!DOCTYPE r><r>x</r>`, `<?xml version="1.0"?><?p v?><!DOCTYPE r><r>x</r>`,
		`an add of processing instruction "p" before the DOCTYPE, which no comment or processing instruction precedes`},
	{"DOCTYPE changed",
		`<!--a--><!DOCTYPE r><r>x</r>`, `<!--a--><!DOCTYPE q><q>x</q>`, `the DOCTYPE changes`},
}

// TestExportPrologWithDoctype: a change before the root of a document
// whose DOCTYPE comments precede is exported where an RFC 5261 selector
// can address it, and the patch, applied by Apply as Export returns it
// and as written and read back, gives the document delta.Apply gives,
// byte for byte as written, the DOCTYPE's place included, and that is
// the new version (a declaration an HTML parser read as a comment where
// it stood). What no
// selector can address is refused as inexpressible, with an error that
// names the operation.
func TestExportPrologWithDoctype(t *testing.T) {
	for _, c := range prologCases {
		for _, alg := range []treediff.Algorithm{treediff.Vigil, treediff.XyDiff} {
			t.Run(c.name+"/"+string(alg), func(t *testing.T) {
				old, new := parseXML(t, c.old), parseXML(t, c.new)
				d, err := treediff.Diff(old, new, &treediff.Options{Algorithm: alg})
				if err != nil {
					t.Fatal(err)
				}
				p, err := Export(old, d)
				if c.want != "" {
					if !errors.Is(err, ErrInexpressible) || !strings.Contains(err.Error(), c.want) {
						t.Fatalf("Export: %v, want ErrInexpressible saying %q", err, c.want)
					}
					return
				}
				if err != nil {
					t.Fatalf("Export: %v", err)
				}
				want, err := delta.Apply(old, d)
				if err != nil {
					t.Fatal(err)
				}
				if g, w := writeDoc(t, want), writeDoc(t, new); g != w {
					t.Fatalf("delta.Apply(old, d):\n got %q\nwant %q (new)", g, w)
				}
				x := encode(t, p)
				back, err := Decode(strings.NewReader(x))
				if err != nil {
					t.Fatalf("decode: %v\n%s", err, x)
				}
				for _, q := range []*Patch{p, back} {
					got := old.Clone()
					if err := Apply(got, q); err != nil {
						t.Fatalf("Apply: %v\n%s", err, x)
					}
					if g, w := writeDoc(t, got), writeDoc(t, want); g != w {
						t.Fatalf("Apply(old, Export(old, d)):\n got %q\nwant %q (delta.Apply)\n%s", g, w, x)
					}
				}
				if err := agree(t, old, d); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}

func writeDoc(t *testing.T, d *tree.Document) string {
	t.Helper()
	var b bytes.Buffer
	if err := markup.WriteXML(&b, d, nil); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestExportPrologEvery exports every change between small prologs of a
// document with a DOCTYPE (each side of it empty, or holding comments and
// a processing instruction): Export refuses exactly the changes that add
// before a DOCTYPE nothing preceded, and Apply agrees with delta.Apply on
// the others, the DOCTYPE's place included.
func TestExportPrologEvery(t *testing.T) {
	sides := []string{``, `<!--a-->`, `<?p v?>`, `<!--a--><!--b-->`, `<!--b--><!--a-->`, `<!--a--><?p v?>`}
	var docs []string
	for _, before := range sides {
		for _, after := range sides {
			docs = append(docs, before+`<!DOCTYPE r>`+after+`<r>x</r>`)
		}
	}
	for _, o := range docs {
		for _, n := range docs {
			old, new := parseXML(t, o), parseXML(t, n)
			d, err := treediff.Diff(old, new, nil)
			if err != nil {
				t.Fatal(err)
			}
			refuse := len(parts(old)[beforeTheDoctype]) == 0 && len(parts(new)[beforeTheDoctype]) > 0
			err = agree(t, old, d)
			switch {
			case refuse && !errors.Is(err, ErrInexpressible):
				t.Errorf("%s to %s: %v, want ErrInexpressible", o, n, err)
			case !refuse && err != nil:
				t.Errorf("%s to %s: %v", o, n, err)
			}
		}
	}
}

// TestExportDeclarationCommentBothWays: where a declaration read as a
// comment (<!--?xml ...?-->, an HTML parser's reading, here an XML one's,
// for which it is a comment of the author's) stands after another comment
// or the DOCTYPE, the patch of a delta, and
// of its inverse, carried through either delta codec first, rebuilds the
// other version byte for byte, the declaration in its place, through the
// patch written and read back.
func TestExportDeclarationCommentBothWays(t *testing.T) {
	codecs := []struct {
		name    string
		through func(*delta.Delta) (*delta.Delta, error)
	}{
		{"xml", func(d *delta.Delta) (*delta.Delta, error) {
			var b bytes.Buffer
			if err := delta.EncodeXML(&b, d); err != nil {
				return nil, err
			}
			ds, err := delta.DecodeXML(&b)
			if err != nil || len(ds) != 1 {
				return nil, fmt.Errorf("%d deltas: %v", len(ds), err)
			}
			return ds[0], nil
		}},
		{"json", func(d *delta.Delta) (*delta.Delta, error) {
			var b bytes.Buffer
			if err := delta.EncodeJSON(&b, d); err != nil {
				return nil, err
			}
			return delta.DecodeJSON(&b)
		}},
	}
	for _, c := range []struct{ name, a, b string }{
		{"comment before it rewritten",
			`<!--a--><!--?xml version="1.0"?--><!DOCTYPE r><r>x</r>`, `<!--a2--><!--?xml version="1.0"?--><!DOCTYPE r><r>y</r>`},
		{"comment after it added, after the DOCTYPE",
			`<!DOCTYPE r><!--?xml version="1.0"?--><r>x</r>`, `<!DOCTYPE r><!--?xml version="1.0"?--><!--n--><r>x</r>`},
		{"comments around it changed",
			`<!--a--><!--?xml version="1.0"?--><!--b--><!DOCTYPE r><r>x</r>`, `<!--a--><!--?xml version="1.0"?--><!--b2--><!--c--><!DOCTYPE r><r>x</r>`},
	} {
		for _, codec := range codecs {
			t.Run(c.name+"/"+codec.name, func(t *testing.T) {
				a, b := parseXML(t, c.a), parseXML(t, c.b)
				d, err := treediff.Diff(a, b, nil)
				if err != nil {
					t.Fatal(err)
				}
				for _, way := range []struct {
					name     string
					from, to *tree.Document
					d        *delta.Delta
				}{{"forward", a, b, d}, {"inverse", b, a, delta.Invert(d)}} {
					dd, err := codec.through(way.d)
					if err != nil {
						t.Fatalf("%s: delta codec: %v", way.name, err)
					}
					p, err := Export(way.from, dd)
					if err != nil {
						t.Fatalf("%s: Export: %v", way.name, err)
					}
					x := encode(t, p)
					back, err := Decode(strings.NewReader(x))
					if err != nil {
						t.Fatalf("%s: decode: %v\n%s", way.name, err, x)
					}
					got := way.from.Clone()
					if err := Apply(got, back); err != nil {
						t.Fatalf("%s: Apply: %v\n%s", way.name, err, x)
					}
					if g, w := writeDoc(t, got), writeDoc(t, way.to); g != w {
						t.Errorf("%s: patched:\n got %q\nwant %q\n%s", way.name, g, w, x)
					}
				}
			})
		}
	}
}
