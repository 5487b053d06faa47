package webtable

import (
	"encoding/binary"
	"slices"
)

// joined is DeltasFromJoin, the scan of the joined table W_j in the order of
// Join: Fig. 13 when the outer scans left A and D empty, Fig. 14 otherwise
// (Fig. 11 line 15), with repairs R3-R5 and R7.
//
// The scan is done without the joined table. With the constituents as
// provenance (R4), Fig. 13 accepts a pair (w1, w2) exactly when
// ids(w1) ∩ U = ids(w2) ∩ U ≠ ∅, and Fig. 14's branch (8) exactly when
// ids(w1) − J = ids(w2) − J ≠ ∅: pairs with equal non-empty signatures,
// found by grouping tuples by signature. Fig. 14's other branches depend on
// A and D, which the scan consumes as it goes; but the first pair holding a
// tuple takes all the added or deleted nodes of that tuple out of A and D (they
// are in R, since the other table does not hold them). So only the first
// pair of each tuple, in scan order, can see a node of A or D; every other
// pair sees none, and then branch (12) accepts it only if R is empty, as
// branch (8) does. Diff runs the full Fig. 14 on those first pairs, in scan
// order, and takes the others from the signature groups. A pair of tuples
// that hold only joinable nodes is category 1 (Y = ∅): Fig. 14 ignores it
// and changes nothing, so Diff does not look at it.
func (d *differ) joined() {
	d.m1 = make([]uint32, d.n)
	d.m2 = make([]uint32, d.n)
	if !d.fig14 {
		for _, p := range d.sameSignature(func(c class) bool { return c == updated }) {
			d.mod = append(d.mod, modPair{a: int32(p >> 32), b: int32(uint32(p)), origin: FromJoin})
		}
		return
	}
	first := d.firstPairs()
	var acc []uint64
	for _, p := range first {
		if d.fig14Pair(int32(p>>32), int32(uint32(p))) {
			acc = append(acc, p)
		}
	}
	for _, p := range d.sameSignature(func(c class) bool { return c != joinable }) {
		if _, isFirst := slices.BinarySearch(first, p); !isFirst {
			acc = append(acc, p)
		}
	}
	slices.Sort(acc)
	for _, p := range acc {
		d.mod = append(d.mod, modPair{a: int32(p >> 32), b: int32(uint32(p)), origin: FromJoin})
	}
}

// joinKey orders pairs of tuples as the joined table does: by the old
// tuple's position, then the new one's.
func joinKey(a, b int32) uint64 { return uint64(a)<<32 | uint64(uint32(b)) }

// firstPairs returns, sorted, the first joined pair of every tuple of
// either table that takes part in the join, leaving out the pairs in which
// neither tuple holds a node that is not joinable.
func (d *differ) firstPairs() []uint64 {
	first1 := d.firstHolders(d.t1, joinable)
	first2 := d.firstHolders(d.t2, joinable)
	var out []uint64
	minOver := func(row []int32, first []int32) int32 {
		m := int32(-1)
		for _, g := range row {
			if f := first[g]; f >= 0 && (m < 0 || f < m) {
				m = f
			}
		}
		return m
	}
	for a := range d.t1.len() {
		if !d.dang1[a] {
			if b := minOver(d.t1.row(a), first2); d.ch1[a] || d.ch2[b] {
				out = append(out, joinKey(a, b))
			}
		}
	}
	for b := range d.t2.len() {
		if !d.dang2[b] {
			if a := minOver(d.t2.row(b), first1); d.ch1[a] || d.ch2[b] {
				out = append(out, joinKey(a, b))
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// fig14Pair runs Fig. 14 on the joined tuple of tuples a and b and reports
// whether it enters ΔM. R is the set of its non-joinable nodes that only
// one constituent holds.
func (d *differ) fig14Pair(a, b int32) bool {
	s1, s2 := d.t1.row(a), d.t2.row(b)
	d.stamp++
	for _, g := range s1 {
		d.m1[g] = d.stamp
	}
	for _, g := range s2 {
		d.m2[g] = d.stamp
	}
	var r []int32
	y, both := false, false // Y ≠ ∅; N1(w_a) ∩ N2(w_a) ≠ ∅
	for _, g := range s1 {
		if d.cls[g] == joinable {
			continue
		}
		y = true
		if d.m2[g] == d.stamp {
			both = true
		} else {
			r = append(r, g)
		}
	}
	for _, g := range s2 {
		if d.cls[g] != joinable && d.m1[g] != d.stamp {
			y = true
			r = append(r, g)
		}
	}
	switch {
	case !y: // category 1: nothing changed (R5)
		return false
	case len(r) == 0: // branch (8): both versions of every changed node
		return true
	}
	accept := both || !d.opt.Strict // R7
	for _, g := range r {
		switch {
		case !d.resid[g]:
			accept = false // R ⊄ A ∪ D
		case d.cls[g] == added:
			d.plus[b] = true
		default:
			d.minus[a] = true
		}
	}
	for _, g := range r {
		d.resid[g] = false
	}
	return accept
}

// sameSignature returns, sorted as the joined table, the pairs of tuples
// that share a joinable node and whose signatures, their nodes of the
// classes keep selects, are equal and not empty. An index from (signature,
// joinable node) to the new tuples makes the cost linear in the tables plus
// the pairs.
func (d *differ) sameSignature(keep func(class) bool) []uint64 {
	var buf []int32
	var key []byte
	sig := func(row []int32) []byte {
		buf = buf[:0]
		for _, g := range row {
			if keep(d.cls[g]) {
				buf = append(buf, g)
			}
		}
		if len(buf) == 0 {
			return nil
		}
		slices.Sort(buf)
		key = key[:0]
		for _, g := range buf {
			key = binary.LittleEndian.AppendUint32(key, uint32(g))
		}
		return key
	}
	groups := make(map[string]uint64)
	// index lists, for each group<<32 | joinable node, the new tuples of
	// the group that hold the node, in order: list[key] is the first and
	// last entry, entry e is tuple tuples[e] and is followed by next[e].
	list := make(map[uint64][2]int32)
	var tuples, next []int32
	for b := range d.t2.len() {
		if d.dang2[b] || !d.ch2[b] { // a signature holds changed nodes
			continue
		}
		k := sig(d.t2.row(b))
		if k == nil {
			continue
		}
		grp, ok := groups[string(k)]
		if !ok {
			grp = uint64(len(groups))
			groups[string(k)] = grp
		}
		for _, g := range d.t2.row(b) {
			if d.cls[g] == joinable {
				e := int32(len(tuples))
				tuples, next = append(tuples, b), append(next, -1)
				if fl, ok := list[grp<<32|uint64(g)]; ok {
					next[fl[1]] = e
					list[grp<<32|uint64(g)] = [2]int32{fl[0], e}
				} else {
					list[grp<<32|uint64(g)] = [2]int32{e, e}
				}
			}
		}
	}
	var out []uint64
	var cand []int32
	mark := make([]int32, d.t2.len())
	for a := range d.t1.len() {
		if d.dang1[a] || !d.ch1[a] {
			continue
		}
		k := sig(d.t1.row(a))
		if k == nil {
			continue
		}
		grp, ok := groups[string(k)]
		if !ok {
			continue
		}
		cand = cand[:0]
		for _, g := range d.t1.row(a) {
			if d.cls[g] != joinable {
				continue
			}
			fl, ok := list[grp<<32|uint64(g)]
			if !ok {
				continue
			}
			for e := fl[0]; e >= 0; e = next[e] {
				if b := tuples[e]; mark[b] != a+1 {
					mark[b] = a + 1
					cand = append(cand, b)
				}
			}
		}
		slices.Sort(cand)
		for _, b := range cand {
			out = append(out, joinKey(a, b))
		}
	}
	return out
}
