package delta

import (
	"math/rand/v2"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// sameDoc reports the first difference between two documents, content and
// XIDs, or "".
func sameDoc(a, b *tree.Document) string {
	return tree.Diff(a.Root, b.Root, tree.ContentAndXIDs)
}

// versions returns a chain of random versions for seed.
func versions(seed uint64, size, changes, n int) []*tree.Document {
	r := rand.New(rand.NewPCG(seed, seed*7919+1))
	vs := []*tree.Document{genDoc(r, size)}
	for len(vs) < n {
		vs = append(vs, mutate(r, vs[len(vs)-1], 1+r.IntN(changes)))
	}
	return vs
}

func mustBuild(t testing.TB, a, b *tree.Document) *Delta {
	t.Helper()
	d, err := Build(a, b)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	return d
}

func TestPropertyApplyInvert(t *testing.T) {
	seeds := 400
	if testing.Short() {
		seeds = 50
	}
	for seed := 0; seed < seeds; seed++ {
		vs := versions(uint64(seed), 5+seed%60, 1+seed%12, 2)
		a, b := vs[0], vs[1]
		before := a.Clone()
		d := mustBuild(t, a, b)
		if err := d.Validate(); err != nil {
			t.Fatalf("seed %d: Build's delta is malformed: %v\n%s", seed, err, opStrings(d))
		}
		got, err := Apply(a, d)
		if err != nil {
			t.Fatalf("seed %d: Apply: %v\n%s", seed, err, opStrings(d))
		}
		if diff := sameDoc(got, b); diff != "" {
			t.Fatalf("seed %d: Apply(a, Build(a,b)) != b: %s\n%s", seed, diff, opStrings(d))
		}
		if got.NextXID != b.NextXID {
			t.Errorf("seed %d: NextXID %d, want %d", seed, got.NextXID, b.NextXID)
		}
		if diff := sameDoc(a, before); diff != "" {
			t.Fatalf("seed %d: Apply changed its input: %s", seed, diff)
		}
		inv := Invert(d)
		back, err := Apply(b, inv)
		if err != nil {
			t.Fatalf("seed %d: Apply(b, Invert): %v\n%s", seed, err, opStrings(inv))
		}
		if diff := sameDoc(back, a); diff != "" {
			t.Fatalf("seed %d: Apply(b, Invert(Build(a,b))) != a: %s", seed, diff)
		}
		if !Equal(Invert(inv), d) {
			t.Fatalf("seed %d: Invert(Invert(d)) != d:\n%s\nwant\n%s", seed, opStrings(Invert(inv)), opStrings(d))
		}
		// A canonical delta still applies.
		c := *d
		Canonicalize(&c)
		if got, err := Apply(a, &c); err != nil || sameDoc(got, b) != "" {
			t.Fatalf("seed %d: canonical delta: %v", seed, err)
		}
	}
}
