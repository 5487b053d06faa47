package delta

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
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
			if c, f := got.Cost(1), fold(t, chain).Cost(1); c > f {
				t.Errorf("seed %d: ComposeAll's delta costs %d, composing one step after another %d", seed, c, f)
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

// valuesDoc is a small document whose attribute v on x, attribute w on y,
// text under x and name of y are given.
func valuesDoc(v, w, text, yName string) *tree.Document {
	d := doc(el("r", 5, el("x", 2, tx(text, 1)), el(yName, 4, tx("u", 3))), 6)
	d.Root.Children[0].SetAttr("v", v)
	d.Root.Children[1].SetAttr("w", w)
	return d
}

// TestComposeAllRefusesDisagreement composes chains whose deltas each fit
// the same XID-maps but do not follow each other: one finds a value the
// one before did not leave, even where a later delta undoes the change
// (which a balanced composition alone would no longer see). Each is
// refused, naming the delta; the same chain in order composes.
func TestComposeAllRefusesDisagreement(t *testing.T) {
	type vals struct{ v, w, text, y string }
	d := func(a, b vals) *Delta {
		return mustBuild(t, valuesDoc(a.v, a.w, a.text, a.y), valuesDoc(b.v, b.w, b.text, b.y))
	}
	base := vals{"a", "0", "t", "y"}
	with := func(f func(*vals)) vals { x := base; f(&x); return x }
	cases := []struct {
		name  string
		chain []*Delta
		bad   int // the delta that does not follow, 1-based; 0 if the chain is fine
	}{
		{"attribute, undone later", []*Delta{
			d(base, with(func(x *vals) { x.w = "1" })),
			d(with(func(x *vals) { x.w = "1" }), with(func(x *vals) { x.w, x.v = "1", "b" })),
			d(with(func(x *vals) { x.w, x.v = "1", "c" }), with(func(x *vals) { x.w, x.v = "1", "d" })),
			d(with(func(x *vals) { x.w, x.v = "1", "d" }), with(func(x *vals) { x.w, x.v = "1", "c" })),
		}, 3},
		{"attribute, a change and its undoing before", []*Delta{
			d(base, with(func(x *vals) { x.w = "1" })),
			d(with(func(x *vals) { x.w = "1" }), with(func(x *vals) { x.w, x.v = "1", "b" })),
			d(with(func(x *vals) { x.w, x.v = "1", "b" }), with(func(x *vals) { x.w, x.v = "1", "a" })),
			d(with(func(x *vals) { x.w, x.v = "1", "c" }), with(func(x *vals) { x.w, x.v = "1", "d" })),
		}, 4},
		{"text", []*Delta{
			d(base, with(func(x *vals) { x.text = "t2" })),
			d(with(func(x *vals) { x.text = "t3" }), with(func(x *vals) { x.text = "t4" })),
			d(with(func(x *vals) { x.text = "t4" }), with(func(x *vals) { x.text = "t3" })),
		}, 2},
		{"name", []*Delta{
			d(base, with(func(x *vals) { x.y = "z" })),
			d(with(func(x *vals) { x.y = "q" }), with(func(x *vals) { x.y = "s" })),
			d(with(func(x *vals) { x.y = "s" }), with(func(x *vals) { x.y = "q" })),
		}, 2},
		{"in order", []*Delta{
			d(base, with(func(x *vals) { x.w = "1" })),
			d(with(func(x *vals) { x.w = "1" }), with(func(x *vals) { x.w, x.v = "1", "b" })),
			d(with(func(x *vals) { x.w, x.v = "1", "b" }), with(func(x *vals) { x.w, x.v = "1", "a" })),
			d(with(func(x *vals) { x.w, x.v = "1", "a" }), with(func(x *vals) { x.w, x.text = "2", "u2" })),
		}, 0},
	}
	for _, c := range cases {
		got, err := ComposeAll(c.chain)
		if c.bad == 0 {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			} else if _, err := Apply(valuesDoc(base.v, base.w, base.text, base.y), got); err != nil {
				t.Errorf("%s: the composed delta does not apply: %v", c.name, err)
			}
			continue
		}
		want := "delta " + strconv.Itoa(c.bad) + ": "
		if err == nil || !strings.HasPrefix(err.Error(), want) || !errors.Is(err, ErrNotComposable) {
			t.Errorf("%s: %v, want a refusal starting %q", c.name, err, want)
		}
	}
}

// TestComposeAllErrorsNameTheDelta: ComposeAll's errors name the delta of
// the chain that does not follow, without the "compose: " of Compose's,
// which said it twice: "delta 2: compose: deltas cannot be composed: ..."
// (and vigil compose three times). Compose's errors begin "compose: ".
func TestComposeAllErrorsNameTheDelta(t *testing.T) {
	// No fingerprints: the second delta's old value is not the value the
	// first leaves.
	const unfit = `<unit_delta><t fromXidMap="(1-6|7)" toXidMap="(1-6|7)">
<d par="3" pos="1" xm="(2)" update="yes">x</d><i par="3" pos="1" xm="(2)" update="yes">y</i>
</t></unit_delta>`
	ds, err := DecodeXML(strings.NewReader(unfit + unfit))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ComposeAll(ds); err == nil || !strings.HasPrefix(err.Error(), "delta 2: deltas cannot be composed: ") || !errors.Is(err, ErrNotComposable) {
		t.Errorf("ComposeAll: %v; want delta 2: deltas cannot be composed: ...", err)
	}
	if _, err := ComposeAll(nil); err == nil || strings.Contains(err.Error(), "compose: ") {
		t.Errorf("ComposeAll of none: %v", err)
	}
	if _, err := Compose(ds[0], ds[1]); err == nil || !strings.HasPrefix(err.Error(), "compose: deltas cannot be composed: ") {
		t.Errorf("Compose: %v; want compose: deltas cannot be composed: ...", err)
	}
}
