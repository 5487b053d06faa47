package delta

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/vigil-web/vigil/tree"
)

// Rebase returns a copy of d renumbered so that its source version carries
// the XIDs of from instead of d.FromXIDMap. Both maps list the same
// document's nodes in post-order, so the node at each position keeps its
// identity; XIDs that d allocates for inserted nodes are renumbered after
// from's largest XID, in increasing order.
//
// Rebase lets two deltas computed separately (each diff numbering its old
// version afresh) be composed: rebase the second onto the first's ToXIDMap.
//
// Rebase works on the maps' runs of consecutive XIDs: its cost is in their
// number and the operations' size, not in the versions' nodes, so that the
// deltas of a large document are rebased in a few runs.
func Rebase(d *Delta, from tree.XIDRanges) (*Delta, error) {
	if d.FromXIDMap.Len() != from.Len() {
		return nil, fmt.Errorf("rebase: the delta's source has %d nodes, the new numbering %d", d.FromXIDMap.Len(), from.Len())
	}
	kept, err := pairRuns(d.FromXIDMap, from)
	if err != nil {
		return nil, err
	}
	next := from.Next
	if max := from.Max(); next <= max {
		next = max + 1
	}
	// XIDs the delta allocates: those of its target that its source lacks,
	// and any in its operations (a delta without a target map), numbered
	// after from's largest XID in increasing order.
	var fresh []tree.XIDRun
	for _, r := range d.ToXIDMap.Runs() {
		fresh = appendMissing(fresh, r, kept)
	}
	note := func(x tree.XID) {
		if x != 0 {
			fresh = appendMissing(fresh, tree.XIDRun{First: x, Last: x}, kept)
		}
	}
	for i := range d.Ops {
		op := &d.Ops[i]
		for _, x := range op.XIDs.XIDs {
			note(x)
		}
		note(op.Parent)
		note(op.Node)
	}
	allocated := numberRuns(fresh, next)
	if len(allocated) > 0 {
		last := allocated[len(allocated)-1]
		next = last.to + (last.Last - last.First) + 1
	}
	rename := func(x tree.XID) tree.XID {
		if p, ok := findRun(kept, x); ok {
			return p.to + (x - p.First)
		}
		if p, ok := findRun(allocated, x); ok {
			return p.to + (x - p.First)
		}
		return 0
	}
	mapAll := func(xs []tree.XID) []tree.XID {
		out := make([]tree.XID, len(xs))
		for k, x := range xs {
			out[k] = rename(x)
		}
		return out
	}
	out := &Delta{
		From:       d.From,
		To:         d.To,
		FromXIDMap: from,
		ToXIDMap:   renameRuns(d.ToXIDMap, kept, allocated),
		// The same trees, numbered otherwise: fingerprints leave XIDs out.
		FromFingerprint: d.FromFingerprint,
		ToFingerprint:   d.ToFingerprint,
		Ops:             make([]Op, len(d.Ops)),
		Namespaces:      d.Namespaces,
		Outside:         d.Outside,
		places:          d.places,
	}
	if d.ToXIDMap.Next != 0 || len(allocated) > 0 {
		out.ToXIDMap.Next = next
	}
	arena := &tree.Document{}
	for i, op := range d.Ops {
		op.Parent = rename(op.Parent)
		op.Node = rename(op.Node)
		op.XIDs = tree.XIDMap{XIDs: mapAll(op.XIDs.XIDs), Next: op.XIDs.Next}
		if op.Content != nil {
			op.Content = arena.CloneNode(op.Content)
			tree.Walk(op.Content, func(n *tree.Node) bool {
				n.XID = rename(n.XID)
				return true
			})
		}
		out.Ops[i] = op
	}
	return out, nil
}

// renamedRun is a run of XIDs renamed to the run starting at to.
type renamedRun struct {
	tree.XIDRun
	to tree.XID
}

// pairRuns returns the renaming that gives each XID of src the XID of dst
// at the same place, as runs sorted by XID; src and dst have the same
// length. It fails if src lists an XID twice.
func pairRuns(src, dst tree.XIDRanges) ([]renamedRun, error) {
	var out []renamedRun
	a, b := src.Cursor(), dst.Cursor()
	for !a.Done() {
		n := min(a.Left(), b.Left())
		out = append(out, renamedRun{tree.XIDRun{First: a.XID(), Last: a.XID() + tree.XID(n-1)}, b.XID()})
		a.Skip(n)
		b.Skip(n)
	}
	slices.SortFunc(out, func(x, y renamedRun) int { return cmp.Compare(x.First, y.First) })
	for k := 1; k < len(out); k++ {
		if out[k].First <= out[k-1].Last {
			return nil, fmt.Errorf("rebase: the delta's source map repeats XID %d", out[k].First)
		}
	}
	return out, nil
}

// findRun returns the run of runs (sorted by XID, disjoint) that holds x.
func findRun(runs []renamedRun, x tree.XID) (renamedRun, bool) {
	k, _ := slices.BinarySearchFunc(runs, x, func(r renamedRun, x tree.XID) int { return cmp.Compare(r.Last, x) })
	if k < len(runs) && runs[k].First <= x {
		return runs[k], true
	}
	return renamedRun{}, false
}

// appendMissing appends to out the parts of r that no run of kept (sorted
// by XID, disjoint) holds.
func appendMissing(out []tree.XIDRun, r tree.XIDRun, kept []renamedRun) []tree.XIDRun {
	k, _ := slices.BinarySearchFunc(kept, r.First, func(p renamedRun, x tree.XID) int { return cmp.Compare(p.Last, x) })
	x := r.First
	for ; k < len(kept) && kept[k].First <= r.Last; k++ {
		if x < kept[k].First {
			out = append(out, tree.XIDRun{First: x, Last: kept[k].First - 1})
		}
		if kept[k].Last >= r.Last {
			return out
		}
		x = max(x, kept[k].Last+1)
	}
	return append(out, tree.XIDRun{First: x, Last: r.Last})
}

// numberRuns sorts and merges runs and numbers their XIDs from next on,
// in increasing order.
func numberRuns(runs []tree.XIDRun, next tree.XID) []renamedRun {
	slices.SortFunc(runs, func(x, y tree.XIDRun) int { return cmp.Compare(x.First, y.First) })
	var out []renamedRun
	for _, r := range runs {
		if k := len(out) - 1; k >= 0 && r.First <= out[k].Last+1 {
			out[k].Last = max(out[k].Last, r.Last)
			continue
		}
		out = append(out, renamedRun{XIDRun: r})
	}
	for k := range out {
		out[k].to = next
		next += out[k].Last - out[k].First + 1
	}
	return out
}

// renameRuns returns m with each XID renamed by the run of kept or
// allocated (each sorted by XID, disjoint) that holds it; every XID of m
// is in one of them.
func renameRuns(m tree.XIDRanges, kept, allocated []renamedRun) tree.XIDRanges {
	var xids tree.RangesBuilder
	for _, r := range m.Runs() {
		for x := r.First; ; {
			p, ok := findRun(kept, x)
			if !ok {
				p, _ = findRun(allocated, x)
			}
			last := min(r.Last, p.Last)
			to := p.to + (x - p.First)
			xids.Add(to, to+(last-x))
			if last == r.Last {
				break
			}
			x = last + 1
		}
	}
	return xids.Ranges(0)
}
