package webtable

import "slices"

// Diff computes the delta web tables that turn w1, the older result of a
// polling coupling query, into w2, the newer one: Algorithm Delta of seed 000
// §6.2 (Fig. 11) with the repairs listed in the package documentation; opt
// selects the optional ones (nil is the zero Options). It returns an *Error
// when a table is malformed or the two disagree on a node's identity.
//
// Diff never builds the web join: it finds the joined tuples that can enter
// the delta through indexes, in time linear in the tables plus the size of
// ΔM.
func Diff(w1, w2 *Table, opt *Options) (*Delta, error) {
	d, err := run(w1, w2, opt)
	if err != nil {
		return nil, err
	}
	return d.delta(), nil
}

// differ holds the state of Algorithm Delta between its phases. Node sets
// are indexed by node number, tuple sets by position in their table.
type differ struct {
	*pair
	opt          Options
	dang1, dang2 []bool // dangling tuples: W_lo and W_ro (Phase 1)
	ch1, ch2     []bool // tuples that hold a node that is not joinable
	inK          []bool // K: modified nodes no joined tuple holds
	resid        []bool // the working sets A and D of Phase 3
	plus, minus  []bool // insertTupleSet, deleteTupleSet

	// temp1 and temp2 of Figs. 11 and 12, each split by side (repair R6).
	temp1L, temp1R, temp2L, temp2R []int32
	// fig14 records the choice of Fig. 11 line 15: A or D not empty after
	// the outer scans.
	fig14 bool
	// outerA and outerD are A and D after the outer scans, for the tests.
	outerA, outerD []int32
	mod            []modPair // updateTupleSet, in the order found

	m1, m2 []uint32 // per-node marks for one pair of tuples
	stamp  uint32
}

// modPair is a ΔM tuple by the positions of its constituents, -1 for none.
type modPair struct {
	a, b   int32
	origin Origin
}

// run runs Phases 1 to 3 and the optional repairs.
func run(w1, w2 *Table, opt *Options) (*differ, error) {
	pr, err := newPair(w1, w2)
	if err != nil {
		return nil, err
	}
	d := &differ{pair: pr}
	if opt != nil {
		d.opt = *opt
	}
	// Phases 1 and 2: newPair classified every node; the outer web joins
	// are the dangling tuples.
	d.dang1, d.ch1 = pr.kinds(pr.t1)
	d.dang2, d.ch2 = pr.kinds(pr.t2)
	// Phase 3.
	d.outer()
	d.joined()
	d.integrate()
	if d.opt.Cover {
		d.cover()
	}
	if d.opt.Complete {
		d.complete()
	}
	return d, nil
}

// delta is Phase 4: the delta web tables.
func (d *differ) delta() *Delta {
	var old, cur []int32
	for _, m := range d.mod {
		if m.a >= 0 {
			old = append(old, m.a)
		}
		if m.b >= 0 {
			cur = append(cur, m.b)
		}
	}
	slices.Sort(old)
	slices.Sort(cur)
	var ext1, ext2 []int32 // both versions of every modified node
	out := &Delta{Options: d.opt, Added: []NodeID{}, Deleted: []NodeID{}, Modified: []NodeID{}}
	for g, c := range d.cls {
		switch c {
		case added:
			out.Added = append(out.Added, d.id(int32(g)))
		case deleted:
			out.Deleted = append(out.Deleted, d.id(int32(g)))
		case updated:
			out.Modified = append(out.Modified, d.id(int32(g)))
			ext1 = append(ext1, int32(g))
			ext2 = append(ext2, d.pos2[g])
		}
	}
	slices.Sort(out.Added)
	slices.Sort(out.Deleted)
	slices.Sort(out.Modified)
	slices.Sort(ext2)
	out.Plus = d.p2.sub(indexes(d.plus), nil)
	out.Minus = d.p1.sub(indexes(d.minus), nil)
	out.Mod = &ModTable{
		Old:    d.p1.sub(slices.Compact(old), ext1),
		New:    d.p2.sub(slices.Compact(cur), ext2),
		Tuples: make([]ModTuple, len(d.mod)),
	}
	for i, m := range d.mod {
		t := ModTuple{Origin: m.origin}
		if m.a >= 0 {
			t.Old = d.p1.t.Tuples[m.a].ID
		}
		if m.b >= 0 {
			t.New = d.p2.t.Tuples[m.b].ID
		}
		out.Mod.Tuples[i] = t
	}
	return out
}

// outer computes K and scans the outer joined tables: DeltasFromRightOuter
// (Fig. 12, repair R2) and its mirror DeltasFromLeftOuter.
func (d *differ) outer() {
	inJoin := make([]bool, d.n) // N_j
	for _, t := range []struct {
		r    rows
		dang []bool
	}{{d.t1, d.dang1}, {d.t2, d.dang2}} {
		for i, dang := range t.dang {
			if !dang {
				for _, g := range t.r.row(int32(i)) {
					inJoin[g] = true
				}
			}
		}
	}
	d.inK = make([]bool, d.n)
	d.resid = make([]bool, d.n)
	for g, c := range d.cls {
		d.inK[g] = c == updated && !inJoin[g]
		d.resid[g] = c == added || c == deleted
	}
	d.plus = make([]bool, d.t2.len())
	d.minus = make([]bool, d.t1.len())
	d.outerScan(d.t2, d.dang2, added, &d.temp1R, &d.temp2R, d.plus)
	d.outerScan(d.t1, d.dang1, deleted, &d.temp1L, &d.temp2L, d.minus)
	for g, c := range d.cls {
		switch {
		case !d.resid[g]:
		case c == added:
			d.outerA = append(d.outerA, int32(g))
		case c == deleted:
			d.outerD = append(d.outerD, int32(g))
		}
	}
	d.fig14 = len(d.outerA) > 0 || len(d.outerD) > 0
}

// outerScan is Fig. 12 on the dangling tuples of r: a tuple holding a node
// of class c still in A (or D) goes to found, and to temp2 if it also holds a
// node of K; a tuple holding none, whose nodes are then all modified, goes
// to temp1. The nodes found leave A (D) after the scan.
func (d *differ) outerScan(r rows, dang []bool, c class, temp1, temp2 *[]int32, found []bool) {
	var consumed []int32
	for i := range r.len() {
		if !dang[i] {
			continue
		}
		hasNew, hasK := false, false
		for _, g := range r.row(i) {
			if d.cls[g] == c && d.resid[g] {
				hasNew = true
				consumed = append(consumed, g)
			}
			hasK = hasK || d.inK[g]
		}
		switch {
		case !hasNew:
			*temp1 = append(*temp1, i)
		case hasK:
			found[i] = true
			*temp2 = append(*temp2, i)
		default:
			found[i] = true
		}
	}
	for _, g := range consumed {
		d.resid[g] = false
	}
}

// firstHolders returns, for each node of class c, the first tuple of r that
// holds it, and -1 for the other nodes.
func (d *differ) firstHolders(r rows, c class) []int32 {
	first := make([]int32, d.n)
	for g := range first {
		first[g] = -1
	}
	for i := range r.len() {
		for _, g := range r.row(i) {
			if d.cls[g] == c && first[g] < 0 {
				first[g] = i
			}
		}
	}
	return first
}
