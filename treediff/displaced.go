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
