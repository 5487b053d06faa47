package delta

import (
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
func Rebase(d *Delta, from tree.XIDRanges) (*Delta, error) {
	if d.FromXIDMap.Len() != from.Len() {
		return nil, fmt.Errorf("rebase: the delta's source has %d nodes, the new numbering %d", d.FromXIDMap.Len(), from.Len())
	}
	rename := make(map[tree.XID]tree.XID, from.Len())
	x, to := d.FromXIDMap.Cursor(), from.Cursor()
	for ; !x.Done(); x.Next() {
		if _, dup := rename[x.XID()]; dup {
			return nil, fmt.Errorf("rebase: the delta's source map repeats XID %d", x.XID())
		}
		rename[x.XID()] = to.XID()
		to.Next()
	}
	next := from.Next
	if max := from.Max(); next <= max {
		next = max + 1
	}
	// XIDs the delta allocates: those of its target that its source lacks,
	// and any in its operations (a delta without a target map).
	var fresh []tree.XID
	note := func(x tree.XID) {
		if _, ok := rename[x]; !ok && x != 0 {
			rename[x] = 0
			fresh = append(fresh, x)
		}
	}
	for x := d.ToXIDMap.Cursor(); !x.Done(); x.Next() {
		note(x.XID())
	}
	for i := range d.Ops {
		op := &d.Ops[i]
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
	mapAll := func(xs []tree.XID) []tree.XID {
		out := make([]tree.XID, len(xs))
		for k, x := range xs {
			out[k] = rename[x]
		}
		return out
	}
	out := &Delta{
		From:       d.From,
		To:         d.To,
		FromXIDMap: from,
		ToXIDMap:   tree.RangesOf(mapAll(d.ToXIDMap.Expand().XIDs), 0),
		// The same trees, numbered otherwise: fingerprints leave XIDs out.
		FromFingerprint: d.FromFingerprint,
		ToFingerprint:   d.ToFingerprint,
		Ops:             make([]Op, len(d.Ops)),
		Namespaces:      d.Namespaces,
		Outside:         d.Outside,
		places:          d.places,
	}
	if d.ToXIDMap.Next != 0 || len(fresh) > 0 {
		out.ToXIDMap.Next = next
	}
	arena := &tree.Document{}
	for i, op := range d.Ops {
		op.Parent = rename[op.Parent]
		op.Node = rename[op.Node]
		op.XIDs = tree.XIDMap{XIDs: mapAll(op.XIDs.XIDs), Next: op.XIDs.Next}
		if op.Content != nil {
			op.Content = arena.CloneNode(op.Content)
			tree.Walk(op.Content, func(n *tree.Node) bool {
				n.XID = rename[n.XID]
				return true
			})
		}
		out.Ops[i] = op
	}
	return out, nil
}
