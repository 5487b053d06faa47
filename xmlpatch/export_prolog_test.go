package xmlpatch

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
// byte for byte as written, the DOCTYPE's place included. What no
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
