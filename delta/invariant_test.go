package delta

import (
	"strings"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// TestBrokenInvariantIsAnError: the checks Apply makes at its end, which
// no delta Validate accepts can fail, return an internal error instead of
// panicking, so that a bug surfaces as an error and not as a crash of the
// daemon.
func TestBrokenInvariantIsAnError(t *testing.T) {
	tests := map[string]func(a *applier){
		"a moved subtree left parked": func(a *applier) {
			a.parked[99] = &tree.Node{Kind: tree.Element, Name: "lost", XID: 99}
		},
		"a node cut off the root without a cyclic move": func(a *applier) {
			// The index counts one node more than the walk reaches.
			a.byXID.set(99, &tree.Node{Kind: tree.Element, Name: "lost", XID: 99})
		},
	}
	for name, breakIt := range tests {
		t.Run(name, func(t *testing.T) {
			doc := catalog()
			index, err := indexTree(doc.Root, tree.XIDRanges{}, doc.NextXID)
			if err != nil {
				t.Fatal(err)
			}
			a := &applier{doc: doc, d: &Delta{}, byXID: index, parked: map[tree.XID]*tree.Node{}}
			breakIt(a)
			err = a.finish()
			if err == nil || !strings.Contains(err.Error(), "internal error") {
				t.Fatalf("finish: %v, want an internal error", err)
			}
		})
	}
}
