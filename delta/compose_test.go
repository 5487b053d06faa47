package delta

import (
	"errors"
	"strings"
	"testing"

	_ "github.com/vigil-web/vigil/tree"
)

// TestPropertyCompose checks Apply(a, Compose(Build(a,b), Build(b,c))) = c
// on generated chains, and reports how often the pure Compose succeeds.
func TestPropertyCompose(t *testing.T) {
	seeds := 500
	if testing.Short() {
		seeds = 60
	}
	ok, refused := 0, 0
	for seed := 0; seed < seeds; seed++ {
		vs := versions(uint64(seed)+5000, 5+seed%70, 1+seed%15, 3)
		a, b, c := vs[0], vs[1], vs[2]
		d1, d2 := mustBuild(t, a, b), mustBuild(t, b, c)
		d, err := Compose(d1, d2)
		if err != nil {
			if !errors.Is(err, ErrNotComposable) && !strings.Contains(err.Error(), "cannot compose without the documents") {
				t.Fatalf("seed %d: Compose: %v", seed, err)
			}
			refused++
			t.Logf("seed %d: Compose refused: %v", seed, err)
			continue
		}
		ok++
		got, err := Apply(a, d)
		if err != nil {
			t.Fatalf("seed %d: Apply(a, Compose): %v\nd1:\n%s\nd2:\n%s\ncomposed:\n%s", seed, err, opStrings(d1), opStrings(d2), opStrings(d))
		}
		if diff := sameDoc(got, c); diff != "" {
			t.Fatalf("seed %d: Apply(a, Compose(d1, d2)) != c: %s\nd1:\n%s\nd2:\n%s\ncomposed:\n%s", seed, diff, opStrings(d1), opStrings(d2), opStrings(d))
		}
		back, err := Apply(c, Invert(d))
		if err != nil || sameDoc(back, a) != "" {
			t.Fatalf("seed %d: Apply(c, Invert(Compose)): %v", seed, err)
		}
		dw, err := ComposeWith(a, d1, d2)
		if err != nil {
			t.Fatalf("seed %d: ComposeWith: %v", seed, err)
		}
		if got, err := Apply(a, dw); err != nil || sameDoc(got, c) != "" {
			t.Fatalf("seed %d: ComposeWith: %v", seed, err)
		}
	}
	t.Logf("pure Compose: %d of %d composed, %d refused", ok, seeds, refused)
	if refused > 0 {
		t.Errorf("pure Compose refused %d of %d generated pairs", refused, seeds)
	}
}
