package treediff

// displaced marks the children of a matched pair that have an identical
// child on the other side which alignment left unpaired: a child unique on
// both sides but off the increasing run, or a repeated one left off the
// common run (markDisplaced). Such twins changed places. A bit a node,
// allocated when the first is found; the marks of an alignment tried and
// not kept (similarChildren) are taken back.
type displaced struct {
	old, new []uint64
	// trial, when set, logs the bits set for the first time, so that an
	// alignment not kept can clear them (undo).
	trial bool
	log   []displacedBit
	// twins is markTwinChains's working space.
	twins twinScratch
}

// displacedBit is one bit set during a trial.
type displacedBit struct {
	node int32
	old  bool
}

// mark records the crossing pair of old node i and new node j.
func (d *displaced) mark(m *matching, i, j int32) {
	d.markOld(m, i)
	d.markNew(m, j)
}

// markOld and markNew mark one node of a crossing pair.
func (d *displaced) markOld(m *matching, i int32) { d.set(m, i, true) }

func (d *displaced) markNew(m *matching, j int32) { d.set(m, j, false) }

// set sets the bit of node n of the old version (old) or the new one.
func (d *displaced) set(m *matching, n int32, old bool) {
	d.alloc(m)
	bits := d.bits(old)
	if d.trial && bits[n/64]&(1<<(n%64)) == 0 {
		d.log = append(d.log, displacedBit{n, old})
	}
	bits[n/64] |= 1 << (n % 64)
}

// bits returns the bit set of the old version (old) or the new one.
func (d *displaced) bits(old bool) []uint64 {
	if old {
		return d.old
	}
	return d.new
}

// undo clears the bits a trial set.
func (d *displaced) undo() {
	for _, b := range d.log {
		d.bits(b.old)[b.node/64] &^= 1 << (b.node % 64)
	}
	d.log = d.log[:0]
}

func (d *displaced) alloc(m *matching) {
	if d.old == nil {
		d.old = make([]uint64, (m.old.Len()+63)/64)
		d.new = make([]uint64, (m.new.Len()+63)/64)
	}
}

// swapped reports whether old child i and new child j (the one child left
// on each side between two aligned children) each have an identical
// sibling on the other side that changed places: <a>alpha</a> and
// <a>gamma</a> where gamma left the end of the list for its start and
// alpha moved down. When one of them only does, pairing them in place (an
// update) costs as little as a move, and real histories have more values
// rewritten than moved.
func (d *displaced) swapped(i, j int32) bool {
	return d.old != nil && d.old[i/64]&(1<<(i%64)) != 0 && d.new[j/64]&(1<<(j%64)) != 0
}

// markLoose marks, among the children a[la:ha] and b[lb:hb] aligned by
// paired (increasing on both sides), each lone old and new child between
// two pairs (see swapped) that is identical to a loose child of the other
// side: one in a gap with no child of the other side, which nothing pairs
// in place, and which is deleted or inserted unless the lone child is
// paired with it. Where both are, they changed places with the loose
// ones: r0 r1 r1 r0 to r1 r0 r0 r1 aligned r0 and r1 in order, and the
// lone r1 and r0 between them were an update, the last r0 a delete and
// the first r1 an insert, a cost of five for two moves. Lone children
// whose twins are lone children too (items rewritten in place, each with
// another item's value) are left to be updates.
//
// alignMiddle calls it only where children are left on both sides and
// some signature repeats on one side and is found on the other (a list of
// records seldom has one): it costs a look-up a child left.
func (m *matching) markLoose(paired [][2]int32, a, b []int32, la, ha, lb, hb int) {
	my := &m.myers
	slot := my.emptyBag(ha - la + hb - lb - 2*len(paired))
	// gaps calls f with the bounds of each gap between two pairs (and
	// before the first, after the last).
	gaps := func(f func(pa, ea, pb, eb int)) {
		pa, pb := la, lb
		for _, p := range paired {
			f(pa, int(p[0]), pb, int(p[1]))
			pa, pb = int(p[0])+1, int(p[1])+1
		}
		f(pa, ha, pb, hb)
	}
	// The loose children's signatures: bit 1 old, bit 2 new.
	const looseOld, looseNew = 1, 2
	loose := false
	gaps(func(pa, ea, pb, eb int) {
		if pa < ea && pb == eb {
			for _, x := range a[pa:ea] {
				c := slot(m.old.Signature[x])
				c.key, c.used, c.count = m.old.Signature[x], true, c.count|looseOld
			}
			loose = true
		} else if pa == ea && pb < eb {
			for _, y := range b[pb:eb] {
				c := slot(m.new.Signature[y])
				c.key, c.used, c.count = m.new.Signature[y], true, c.count|looseNew
			}
			loose = true
		}
	})
	if !loose {
		return
	}
	gaps(func(pa, ea, pb, eb int) {
		if ea-pa != 1 || eb-pb != 1 {
			return
		}
		x, y := a[pa], b[pb]
		if c := slot(m.old.Signature[x]); c.used && c.count&looseNew != 0 {
			m.displaced.markOld(m, x)
		}
		if c := slot(m.new.Signature[y]); c.used && c.count&looseOld != 0 {
			m.displaced.markNew(m, y)
		}
	})
	m.markTwinChains(gaps, a, b)
}
