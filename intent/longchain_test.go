package intent

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/spec"
)

// TestEvaluateLongChain: an OR chain of thousands of change types, each
// of which fires, is evaluated, and its changes gathered, in work linear in
// its length: four times the change types take about four times the bytes
// (printing each AND and OR of the chain whole, as the results' types
// were, took sixteen times, gigabytes at 10 000 change types); and what a
// notice shows of it, each result's Type, is its label (spec.Label): the
// start of the expression, at most spec.MaxLabel bytes, then "...".
func TestEvaluateLongChain(t *testing.T) {
	old := parseDoc(t, `<html><body><p>a</p></body></html>`)
	new := parseDoc(t, `<html><body><p>a b</p></body></html>`)
	eval := func(n int) uint64 {
		terms := make([]string, n)
		for i := range terms {
			terms[i] = fmt.Sprintf("keywords {b, w%d}", i)
		}
		x := monitor(t, strings.Join(terms, " OR "))
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		r, err := NewPair(old, new, nil, nil).Evaluate(x)
		if err != nil {
			t.Fatal(err)
		}
		changes := r.AllChanges()
		runtime.ReadMemStats(&after)
		if !r.Matched || len(changes) != n {
			t.Fatalf("%d change types: matched %v with %d changes, want %d", n, r.Matched, len(changes), n)
		}
		for _, o := range []*Result{r, r.Operands[0], r.Operands[1]} {
			if text, cut := strings.CutSuffix(o.Type, "..."); len(text) > spec.MaxLabel || len(o.Type) > spec.MaxLabel && !cut {
				t.Errorf("%d change types: a result's type has %d bytes: %.80q...", n, len(o.Type), o.Type)
			}
		}
		if want := spec.Label(x); r.Type != want {
			t.Errorf("%d change types: type %.80q..., want %.80q...", n, r.Type, want)
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := eval(1500), eval(6000)
	if ratio := float64(large) / float64(small); ratio > 6 {
		t.Errorf("1500 change types took %d bytes, 6000 took %d: %.1f times as many, want about 4 (linear)", small, large, ratio)
	}
}
