package delta

import (
	"strconv"
	"strings"
	"testing"
)

// fold composes ds one after another, the reference for ComposeAll.
func fold(t testing.TB, ds []*Delta) *Delta {
	t.Helper()
	composed := ds[0]
	for k, d := range ds[1:] {
		var err error
		if composed, err = Compose(composed, d); err != nil {
			t.Fatalf("fold, step %d: %v", k+2, err)
		}
	}
	return composed
}

func TestComposeAll(t *testing.T) {
	broke := 0 // chains broken on purpose
	for seed := range 60 {
		vs := versions(uint64(seed), 10+seed%40, 1+seed%6, 2+seed%9)
		ds, decoded := chainOf(t, vs)
		first, last := vs[0], vs[len(vs)-1]
		for _, chain := range [][]*Delta{ds, decoded} {
			got, err := ComposeAll(chain)
			if err != nil {
				t.Fatalf("seed %d: ComposeAll: %v", seed, err)
			}
			if !Equal(got, fold(t, chain)) {
				t.Errorf("seed %d: ComposeAll differs from composing one step after another", seed)
			}
			applied, err := Apply(first, got)
			if err != nil {
				t.Fatalf("seed %d: Apply(first, ComposeAll): %v", seed, err)
			}
			if diff := sameDoc(applied, last); diff != "" {
				t.Fatalf("seed %d: ComposeAll does not lead to the last version: %s", seed, diff)
			}
		}
		if len(ds) < 3 {
			continue
		}
		// A step repeated: the chain breaks there, and the error says so
		// whichever branch of the balanced composition meets it.
		for at := 1; at < len(ds); at++ {
			if _, err := Apply(vs[at], ds[at-1]); err == nil {
				continue // a step that can be repeated (none, or an update back and forth)
			}
			broken := append(append(append([]*Delta{}, ds[:at]...), ds[at-1]), ds[at:]...)
			_, err := ComposeAll(broken)
			if want := "delta " + strconv.Itoa(at+1) + ": "; err == nil || !strings.HasPrefix(err.Error(), want) {
				t.Fatalf("seed %d: step %d repeated: %v, want an error starting %q", seed, at, err, want)
			}
			broke++
		}
	}
	if broke < 50 {
		t.Errorf("only %d broken chains tried", broke)
	}
}

func TestComposeAllEdges(t *testing.T) {
	if _, err := ComposeAll(nil); err == nil {
		t.Error("ComposeAll of no delta: no error")
	}
	vs := versions(7, 20, 3, 2)
	d := mustBuild(t, vs[0], vs[1])
	got, err := ComposeAll([]*Delta{d})
	if err != nil || got != d {
		t.Errorf("ComposeAll of one delta: %v, %v; want the delta itself", got, err)
	}
	bad := &Delta{Ops: []Op{{Kind: Delete}}}
	if _, err := ComposeAll([]*Delta{bad}); err == nil || !strings.HasPrefix(err.Error(), "delta 1: ") {
		t.Errorf("ComposeAll of one invalid delta: %v, want an error naming delta 1", err)
	}
}
