package intent

import (
	"slices"
	"testing"

	"github.com/vigil-web/vigil/spec"
)

// TestSignatureLabels: a signature is its labels, not their joined string:
// the texts under r-a-b > c and r-a > b-c (custom element names) are not
// one leaf updated but one deleted and one inserted, as under any two
// different paths, and a change names its signature joined by "-".
func TestSignatureLabels(t *testing.T) {
	any := &spec.ChangeType{Kind: spec.AnyChange}
	r := evalType(t, `<r><a-b><c>old</c></a-b></r>`, `<r><a><b-c>new</b-c></a></r>`, any, nil)
	want := []string{"delete(old,1)", "insert(new,1)"}
	if got := briefs(r.Changes); !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	r = evalType(t, `<r><a-b><c>old</c></a-b></r>`, `<r><a-b><c>new</c></a-b></r>`, any, nil)
	if len(r.Changes) != 1 || r.Changes[0].Signature != "r-a-b-c" || brief(r.Changes[0]) != "update(old->new,1,1)" {
		t.Errorf("got %+v", r.Changes)
	}
}
