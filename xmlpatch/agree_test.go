package xmlpatch

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/simulate"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
)

// agree exports the delta d of old as a patch and applies it with Apply,
// as Export returned it and as written and read back, and compares both
// results with delta.Apply(old, d): Export checks the patch against its
// own simulation of the operations, which Apply must agree with. It
// returns Export's error.
//
// delta.Apply keeps an empty text, or two texts side by side, where the
// delta puts them; a patch works on XPath's data model, which has
// neither, and so does any parser that reads the document written. So
// the results are compared as XPath's data model has delta.Apply's (its
// empty texts dropped, adjacent ones joined), node by node and as
// written, byte for byte: the only difference left from what
// delta.Apply's document writes is an element that holds nothing but an
// empty text, written <a></a>, which any parser reads as <a/>.
func agree(t *testing.T, old *tree.Document, d *delta.Delta) error {
	t.Helper()
	want, err := delta.Apply(old, d)
	if err != nil {
		t.Fatalf("delta.Apply: %v", err)
	}
	want.Root = normalizeTexts([]*tree.Node{want.Root})[0]
	p, err := Export(old, d)
	if err != nil {
		return err
	}
	x := encode(t, p)
	back, err := Decode(strings.NewReader(x))
	if err != nil {
		t.Fatalf("decode: %v\n%s", err, x)
	}
	for _, c := range []struct {
		name string
		p    *Patch
	}{{"in memory", p}, {"decoded", back}} {
		got := old.Clone()
		if err := Apply(got, c.p); err != nil {
			t.Fatalf("%s: apply: %v\n%s", c.name, err, x)
		}
		if diff := tree.Diff(got.Root, want.Root, tree.Content); diff != "" {
			t.Fatalf("%s: Apply(old, Export(old, d)) != delta.Apply(old, d): %s\n%s", c.name, diff, x)
		}
		if g, w := written(got), written(want); g != w {
			t.Fatalf("%s: Apply(old, Export(old, d)) writes\n%s\ndelta.Apply(old, d)\n%s\n%s", c.name, g, w, x)
		}
		if !tree.SameLeaves(around(got.Prolog, tree.IsXMLDeclaration), around(want.Prolog, tree.IsXMLDeclaration)) || !tree.SameLeaves(got.Epilog, want.Epilog) {
			t.Fatalf("%s: what stands around the root differs from delta.Apply's\n%s", c.name, x)
		}
		if !sameParts(got, want, tree.IsXMLDeclaration) {
			t.Fatalf("%s: the DOCTYPE stands elsewhere among the comments before the root than delta.Apply puts it\n%s", c.name, x)
		}
		if got.Doctype != want.Doctype {
			t.Fatalf("%s: DOCTYPE %q, delta.Apply's %q", c.name, got.Doctype, want.Doctype)
		}
	}
	return nil
}

// TestExportAgreesWithApplyCorpus runs agree on every pair of consecutive
// versions of every real history, with both algorithms and both
// white-space policies.
func TestExportAgreesWithApplyCorpus(t *testing.T) {
	eachCorpusStep(t, func(t *testing.T, old, new *tree.Document, alg treediff.Algorithm) {
		d, err := treediff.Diff(old, new, &treediff.Options{Algorithm: alg})
		if err != nil {
			t.Fatal(err)
		}
		if err := agree(t, old, d); err != nil {
			if why := inexpressible(old, new); !errors.Is(err, ErrInexpressible) || why == "" {
				t.Fatalf("export: %v", err)
			}
		}
	})
}

// TestExportAgreesWithApplyGenerated runs agree on simulated histories of
// every shape, several steps long, at several change rates: each step
// diffs the version before it, which carries the XIDs the step before
// gave it.
func TestExportAgreesWithApplyGenerated(t *testing.T) {
	size, steps := 20000, 3
	if testing.Short() {
		size, steps = 3000, 2
	}
	for _, shape := range simulate.Shapes {
		for _, rate := range []float64{0.01, 0.1, 0.3} {
			for seed := uint64(1); seed <= 2; seed++ {
				for _, alg := range []treediff.Algorithm{treediff.Vigil, treediff.XyDiff} {
					t.Run(fmt.Sprintf("%s/%s/%g/%d", alg, shape, rate, seed), func(t *testing.T) {
						v, err := simulate.Generate(shape, size, seed)
						if err != nil {
							t.Fatal(err)
						}
						old := v.Clone()
						clearXIDs(old)
						for step := range steps {
							if v, _, err = simulate.Change(v, simulate.Spread(rate), seed*10+uint64(step)); err != nil {
								t.Fatal(err)
							}
							next := v.Clone()
							clearXIDs(next)
							d, err := treediff.Diff(old, next, &treediff.Options{Algorithm: alg})
							if err != nil {
								t.Fatal(err)
							}
							if err := agree(t, old, d); err != nil {
								t.Fatalf("step %d: export: %v", step+1, err)
							}
							if old, err = delta.Apply(old, d); err != nil {
								t.Fatal(err)
							}
						}
					})
				}
			}
		}
	}
}

// written returns d as markup.WriteXML writes it, or the error.
func written(d *tree.Document) string {
	var b strings.Builder
	if err := markup.WriteXML(&b, d, nil); err != nil {
		return "error: " + err.Error()
	}
	return b.String()
}
