package delta

import (
	"cmp"
	"slices"
	"strings"

	"github.com/vigil-web/vigil/tree"
)

// Canonicalize puts d's operations in a canonical XyScript order, computed
// from the operations alone (the seed's COMPARE, figure 4.2, as far as the
// operations tell it), so that two deltas with the same set of operations
// end up with the same list:
//  1. renames and attribute operations, by element XID, kind and name;
//  2. deletes, descendants before ancestors (a delete whose parent lies in
//     the XID-map of another delete comes first), then by parent XID, then
//     right to left (descending position);
//  3. inserts, ancestors before descendants (an insert whose parent lies in
//     the XID-map of another insert comes after it), then by parent XID,
//     then left to right (ascending position).
//
// Deletes with the same parent share their depth in that order, so every
// parent's deletes go right to left and every parent's inserts left to
// right, as a XyScript requires. The order between different parents is by
// XID, not by document order, which the operations do not carry (the seed
// keeps it in header trees it never specifies); Apply does not depend on it.
func Canonicalize(d *Delta) {
	depth := make([]int, len(d.Ops))
	forestDepths(d, Delete, depth)
	forestDepths(d, Insert, depth)
	rank := func(k OpKind) int {
		switch k {
		case Delete:
			return 1
		case Insert:
			return 2
		}
		return 0
	}
	idx := make([]int, len(d.Ops))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(i, j int) int {
		x, y := &d.Ops[i], &d.Ops[j]
		if c := cmp.Compare(rank(x.Kind), rank(y.Kind)); c != 0 {
			return c
		}
		switch x.Kind {
		case Delete:
			return cmpOr(cmp.Compare(depth[j], depth[i]), cmp.Compare(x.Parent, y.Parent), cmp.Compare(y.Pos, x.Pos), cmp.Compare(x.Root(), y.Root()))
		case Insert:
			return cmpOr(cmp.Compare(depth[i], depth[j]), cmp.Compare(x.Parent, y.Parent), cmp.Compare(x.Pos, y.Pos), cmp.Compare(x.Root(), y.Root()))
		}
		return cmpOr(cmp.Compare(x.Node, y.Node), cmp.Compare(x.Kind, y.Kind), strings.Compare(x.Name, y.Name))
	})
	ops := make([]Op, len(d.Ops))
	for k, i := range idx {
		ops[k] = d.Ops[i]
	}
	d.Ops = ops
}

func cmpOr(cs ...int) int {
	for _, c := range cs {
		if c != 0 {
			return c
		}
	}
	return 0
}

// forestDepths sets depth[i], for every operation of the given kind, to the
// number of operations of that kind that enclose it: op j encloses op i when
// i's parent is in j's XID-map. Cycles (only in malformed deltas) are cut.
func forestDepths(d *Delta, kind OpKind, depth []int) {
	owner := make(map[tree.XID]int)
	for i := range d.Ops {
		if d.Ops[i].Kind == kind {
			for _, x := range d.Ops[i].XIDs.XIDs {
				owner[x] = i
			}
		}
	}
	const (
		unknown = -1
		busy    = -2
	)
	for i := range d.Ops {
		if d.Ops[i].Kind == kind {
			depth[i] = unknown
		}
	}
	var chain []int
	for i := range d.Ops {
		if d.Ops[i].Kind != kind || depth[i] != unknown {
			continue
		}
		// Walk up the enclosing operations until one with a known depth.
		chain = append(chain[:0], i)
		depth[i] = busy
		base := 0
		for {
			j, ok := owner[d.Ops[chain[len(chain)-1]].Parent]
			if !ok {
				break
			}
			if depth[j] == busy { // a cycle: cut it here
				break
			}
			if depth[j] >= 0 {
				base = depth[j] + 1
				break
			}
			depth[j] = busy
			chain = append(chain, j)
		}
		for k := len(chain) - 1; k >= 0; k-- {
			depth[chain[k]] = base
			base++
		}
	}
}

// Equal reports whether a and b hold the same operations, after putting
// copies of both in canonical order, and the same version labels and
// XID-maps. Contents are compared with their XIDs.
func Equal(a, b *Delta) bool {
	if a.From != b.From || a.To != b.To || !a.FromXIDMap.Equal(b.FromXIDMap) || !a.ToXIDMap.Equal(b.ToXIDMap) || len(a.Ops) != len(b.Ops) || !sameOutside(a.Outside, b.Outside) {
		return false
	}
	ca, cb := *a, *b
	Canonicalize(&ca)
	Canonicalize(&cb)
	for i := range ca.Ops {
		if !sameOp(&ca.Ops[i], &cb.Ops[i]) {
			return false
		}
	}
	return true
}

func sameOp(x, y *Op) bool {
	if x.Kind != y.Kind || x.Parent != y.Parent || x.Pos != y.Pos || x.Move != y.Move || x.Update != y.Update ||
		x.Node != y.Node || x.Name != y.Name || x.OldValue != y.OldValue || x.NewValue != y.NewValue ||
		!x.XIDs.Equal(y.XIDs) {
		return false
	}
	if x.Content == nil || y.Content == nil {
		return x.Content == y.Content
	}
	return tree.Diff(x.Content, y.Content, tree.ContentAndXIDs) == ""
}
