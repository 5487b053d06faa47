package delta

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/vigil-web/vigil/tree"
)

// TestRebase numbers the same middle version two ways and checks that the
// second delta, rebased onto the first's numbering, applies after it.
func TestRebase(t *testing.T) {
	v1 := doc(el("r", 4, el("a", 2, tx("x", 1)), el("b", 3)), 5)
	v2 := doc(el("r", 4, el("b", 3), el("a", 2, tx("y", 1)), el("c", 5)), 6)
	d12, err := Build(v1, v2)
	if err != nil {
		t.Fatal(err)
	}
	// v2 numbered afresh, as a separate diff would, then changed into v3.
	v2fresh := v2.Clone()
	v2fresh.AssignXIDs()
	v3 := v2fresh.Clone()
	v3.Root.RemoveChild(0)  // b goes
	c := v3.NewElement("d") // d comes
	c.XID = v3.NextXID
	v3.NextXID++
	v3.Root.AppendChild(c)
	d23, err := Build(v2fresh, v3)
	if err != nil {
		t.Fatal(err)
	}
	rebased, err := Rebase(d23, d12.ToXIDMap)
	if err != nil {
		t.Fatal(err)
	}
	if rebased.FromXIDMap.String() != d12.ToXIDMap.String() {
		t.Fatalf("rebased source map %s, want %s", rebased.FromXIDMap, d12.ToXIDMap)
	}
	mid, err := Apply(v1, d12)
	if err != nil {
		t.Fatal(err)
	}
	end, err := Apply(mid, rebased)
	if err != nil {
		t.Fatalf("apply rebased: %v", err)
	}
	if diff := tree.Diff(end.Root, v3.Root, tree.Content); diff != "" {
		t.Fatal(diff)
	}
	if _, err := Rebase(d23, vm(1, 2)); err == nil {
		t.Error("rebase onto a map of another size succeeded")
	}
}

// rebaseListed is Rebase as it was written before the maps were runs: a
// map from each XID of the source to its new XID, and every XID listed.
func rebaseListed(d *Delta, from tree.XIDMap) (to tree.XIDMap, ops []Op) {
	rename := map[tree.XID]tree.XID{}
	for k, x := range d.FromXIDMap.Expand().XIDs {
		rename[x] = from.XIDs[k]
	}
	next := from.Next
	if max := from.Max(); next <= max {
		next = max + 1
	}
	var fresh []tree.XID
	note := func(x tree.XID) {
		if _, ok := rename[x]; !ok && x != 0 {
			rename[x] = 0
			fresh = append(fresh, x)
		}
	}
	toXIDs := d.ToXIDMap.Expand().XIDs
	for _, x := range toXIDs {
		note(x)
	}
	for _, op := range d.Ops {
		for _, x := range op.XIDs.XIDs {
			note(x)
		}
		note(op.Parent)
		note(op.Node)
	}
	slices.Sort(fresh)
	for _, x := range fresh {
		rename[x] = next
		next++
	}
	for _, x := range toXIDs {
		to.XIDs = append(to.XIDs, rename[x])
	}
	if d.ToXIDMap.Next != 0 || len(fresh) > 0 {
		to.Next = next
	}
	for _, op := range d.Ops {
		op.Parent, op.Node = rename[op.Parent], rename[op.Node]
		var xs []tree.XID
		for _, x := range op.XIDs.XIDs {
			xs = append(xs, rename[x])
		}
		op.XIDs = tree.XIDMap{XIDs: xs}
		ops = append(ops, op)
	}
	return to, ops
}

// runsOf returns n XIDs from start, cut into runs of random lengths and
// shuffled.
func runsOf(rng *rand.Rand, start tree.XID, n int) []tree.XID {
	var runs [][]tree.XID
	for x := start; x < start+tree.XID(n); {
		l := tree.XID(1 + rng.IntN(5))
		var r []tree.XID
		for ; l > 0 && x < start+tree.XID(n); l-- {
			r = append(r, x)
			x++
		}
		runs = append(runs, r)
	}
	rng.Shuffle(len(runs), func(i, j int) { runs[i], runs[j] = runs[j], runs[i] })
	return slices.Concat(runs...)
}

// TestRebaseRunsAgreesWithListed: Rebase, working on runs, renames the
// target map and the operations as the listed renaming does, on random
// maps: sources and numberings in shuffled runs, targets that keep some
// of the source's XIDs and add others, operations naming XIDs of either
// or of neither.
func TestRebaseRunsAgreesWithListed(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 500 {
		n := 1 + rng.IntN(40)
		src := runsOf(rng, tree.XID(1+rng.IntN(20)), n)
		from := tree.XIDMap{XIDs: runsOf(rng, tree.XID(1+rng.IntN(50)), n), Next: tree.XID(rng.IntN(100))}
		var to []tree.XID
		for _, x := range src {
			if rng.IntN(4) > 0 {
				to = append(to, x)
			}
		}
		to = append(to, runsOf(rng, 200+tree.XID(rng.IntN(10)), rng.IntN(12))...)
		rng.Shuffle(len(to), func(i, j int) {
			if rng.IntN(3) == 0 {
				to[i], to[j] = to[j], to[i]
			}
		})
		d := &Delta{FromXIDMap: tree.RangesOf(src, tree.XID(rng.IntN(300))), ToXIDMap: tree.RangesOf(to, tree.XID(rng.IntN(2)*300))}
		for range rng.IntN(4) {
			pick := func() tree.XID { return tree.XID(rng.IntN(260)) }
			d.Ops = append(d.Ops, Op{Kind: Rename, Parent: pick(), Node: pick(), XIDs: tree.XIDMap{XIDs: []tree.XID{pick(), pick()}}})
		}
		got, err := Rebase(d, tree.RangesOf(from.XIDs, from.Next))
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		wantTo, wantOps := rebaseListed(d, from)
		if !got.ToXIDMap.Equal(tree.RangesOf(wantTo.XIDs, wantTo.Next)) {
			t.Fatalf("round %d: source %v onto %v, target %v: got target %s, want %s", round, src, from, to, got.ToXIDMap, tree.RangesOf(wantTo.XIDs, wantTo.Next))
		}
		for i, op := range got.Ops {
			w := wantOps[i]
			if op.Parent != w.Parent || op.Node != w.Node || !slices.Equal(op.XIDs.XIDs, w.XIDs.XIDs) {
				t.Fatalf("round %d: operation %d is %d %d %v, want %d %d %v", round, i, op.Parent, op.Node, op.XIDs.XIDs, w.Parent, w.Node, w.XIDs.XIDs)
			}
		}
	}
}

// TestRebaseLongMaps: a delta of a version of sixty million nodes rebased
// onto another numbering of it, both in a few runs, costs their runs, not
// their nodes (the listed renaming took gigabytes).
func TestRebaseLongMaps(t *testing.T) {
	src, err := tree.ParseXIDRanges("(1-60000000|60000001)")
	if err != nil {
		t.Fatal(err)
	}
	to, _ := tree.ParseXIDRanges("(1-59999999;60000001;60000000|60000002)")
	from, _ := tree.ParseXIDRanges("(2-30000001;40000001-70000000|70000001)")
	d := &Delta{FromXIDMap: src, ToXIDMap: to, Ops: []Op{{Kind: Insert, Parent: 60000000, Pos: 1, XIDs: tree.XIDMap{XIDs: []tree.XID{60000001}}, Content: &tree.Node{Kind: tree.Text, Value: "x", XID: 60000001}}}}
	var got *Delta
	n := allocated(func() {
		if got, err = Rebase(d, from); err != nil {
			t.Fatal(err)
		}
	})
	if want := "(2-30000001;40000001-69999999;70000001;70000000|70000002)"; got.ToXIDMap.String() != want {
		t.Errorf("rebased target %s, want %s", got.ToXIDMap, want)
	}
	if op := got.Ops[0]; op.Parent != 70000000 || op.XIDs.Root() != 70000001 || op.Content.XID != 70000001 {
		t.Errorf("rebased insert under %d of %v, content XID %d", op.Parent, op.XIDs.XIDs, op.Content.XID)
	}
	if n > 1<<20 {
		t.Errorf("allocated %d KB, want less than 1 MB", n>>10)
	}
}
