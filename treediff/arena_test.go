package treediff

import (
	"runtime/debug"
	"testing"

	"github.com/vigil-web/vigil/hugemem"
	"github.com/vigil-web/vigil/simulate"
	"github.com/vigil-web/vigil/tree"
)

// TestNothingOutlivesTheArena diffs documents large enough for the
// matching's arrays to be made in huge pages, with the arena's memory
// taken from the process when each diff releases it: were a delta or a
// tree to keep an array of the arena (the signatures as XIDs, say), using
// it afterwards would fault, and the fault fail the test.
func TestNothingOutlivesTheArena(t *testing.T) {
	defer hugemem.PoisonReleased(hugemem.PoisonReleased(true))
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			t.Fatalf("the diff's output uses memory its arena released: %v", r)
		}
	}()
	a, err := simulate.Generate(simulate.Records, 1<<20, 1)
	if err != nil {
		t.Fatal(err)
	}
	if n := a.Root.Size(); n*8 < hugemem.MinSize {
		t.Fatalf("%d nodes: too few for the arena", n)
	}
	b, _, err := simulate.Change(a, simulate.Spread(0.1), 2)
	if err != nil {
		t.Fatal(err)
	}
	c, _, err := simulate.Change(b, simulate.Spread(0.1), 3)
	if err != nil {
		t.Fatal(err)
	}
	for _, opt := range []*Options{
		nil,
		{Algorithm: XyDiff},
		{KeyAttrs: []string{"id"}},
	} {
		x, y, z := a.Clone(), b.Clone(), c.Clone()
		for _, d := range []*tree.Document{x, y, z} {
			clearXIDs(d)
		}
		checkAlgebra(t, "records 1 MB", x, y, z, opt)
	}
}
