package delta

import (
	"bytes"
	"strings"
	"testing"
)

// TestApplyAll applies chains of random deltas at once, from decoded files
// (whose consecutive maps share their XIDs, so the index is kept from step
// to step) and from the deltas as built (whose maps do not): the last
// version, and the input left as it was. A chain with a step that does not
// fit is refused with the step's number, the input still as it was.
func TestApplyAll(t *testing.T) {
	for seed := range 60 {
		vs := versions(uint64(seed), 10+seed%40, 1+seed%6, 2+seed%7)
		var ds []*Delta
		for i := 1; i < len(vs); i++ {
			ds = append(ds, mustBuild(t, vs[i-1], vs[i]))
		}
		var buf bytes.Buffer
		if err := EncodeXML(&buf, ds...); err != nil {
			t.Fatal(err)
		}
		decoded, err := DecodeXML(&buf)
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(decoded); i++ {
			if !sameArray(decoded[i].FromXIDMap.XIDs, decoded[i-1].ToXIDMap.XIDs) {
				t.Fatalf("seed %d: step %d's source map is not shared with the previous target map", seed, i+1)
			}
		}
		first, last := vs[0], vs[len(vs)-1]
		before := first.Clone()
		for _, chain := range [][]*Delta{ds, decoded} {
			got, err := ApplyAll(first, chain)
			if err != nil {
				t.Fatalf("seed %d: ApplyAll: %v", seed, err)
			}
			if diff := sameDoc(got, last); diff != "" {
				t.Fatalf("seed %d: ApplyAll gives another last version: %s", seed, diff)
			}
			if diff := sameDoc(first, before); diff != "" {
				t.Fatalf("seed %d: ApplyAll changed its input: %s", seed, diff)
			}
		}
		if len(ds) < 2 {
			continue
		}
		// The first step twice: the second time it does not fit.
		broken := append([]*Delta{decoded[0]}, decoded...)
		if _, err := ApplyAll(first, broken); err == nil || !strings.HasPrefix(err.Error(), "delta 2: ") {
			t.Errorf("seed %d: a step that does not fit: %v, want an error naming delta 2", seed, err)
		}
		if diff := sameDoc(first, before); diff != "" {
			t.Fatalf("seed %d: a refused ApplyAll changed its input: %s", seed, diff)
		}
	}
}
