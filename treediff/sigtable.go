package treediff

import "github.com/vigil-web/vigil/tree"

// sigTable maps signatures to chains of node indexes, in document order,
// with open addressing: one probe array and one link per node indexed, and
// no allocation per entry. A diff of a large document builds it over hundreds
// of thousands of nodes, where a Go map of slices costs several times more.
type sigTable struct {
	// slots holds, per signature, everything a probe needs in one place,
	// so that a look-up costs one cache miss.
	slots []sigSlot
	// links holds the chains: a slot's head and each link's next are
	// indexes into links, -1 at a chain's end. One link a node indexed,
	// not one a node of the version: after the first phases most nodes
	// are matched, and a table over the others is a fraction of the size.
	links []sigLink
	mask  uint64
	// filter has a bit set for every signature in the table (and, by
	// collision, for some others): two bits a slot, sixty-four times smaller
	// than the table, which stays in the processor's cache where the
	// table does not, so that a caller probes the table only for the
	// signatures that may be there (mayHave).
	filter []uint64
	// single is the same for the signatures of one node only, the only
	// ones whose others count is read (see countOthers).
	single []uint64
}

// filterBit returns the word and bit of sig in filter and single.
func (t *sigTable) filterBit(sig tree.Signature) (int, uint64) {
	h := uint64(sig) * 0xd6e8feb86659fd93 >> 32 & (uint64(len(t.filter))*64 - 1)
	return int(h >> 6), 1 << (h & 63)
}

type sigSlot struct {
	key  tree.Signature
	head int32 // first link of the chain, -1 for an empty slot
	// count is the length of the chain and others the number of nodes of
	// the other version with the slot's signature (see countOthers), both
	// saturating at maxCount: callers only tell 1 from more, and a few
	// from many, so a slot fits 16 bytes.
	count, others uint16
}

// sigEntry is what sigTable.lookup returns of a signature.
type sigEntry struct {
	// first is the first link of the chain of nodes with the signature (-1
	// if none; see sigTable.node and next).
	first int32
	// count is the number of nodes with it and others the number of the
	// other version's nodes with it, where count is 1 (see countOthers),
	// both at most maxCount.
	count, others uint16
}

// uniqueBothSides reports whether one node has the signature and one node
// of the other version has it too: the rule that pairs them wherever they
// stand (see candidates.best).
func (e sigEntry) uniqueBothSides() bool { return e.count == 1 && e.others == 1 }

// sigLink is a node of a chain, and the index of the next link.
type sigLink struct{ node, next int32 }

// maxCount is where sigSlot's counts stop.
const maxCount = 1<<16 - 1

// newSigTable indexes the nodes i of one version that are unmatched
// (match[i] < 0), given the signatures of all its nodes, in memory from
// spare (see release).
func newSigTable(spare *spare, sigs []tree.Signature, match []int32) *sigTable {
	n := 0
	for _, j := range match {
		if j < 0 {
			n++
		}
	}
	t := makeSigTable(spare, n)
	// Insert in reverse, prepending, so that chains are in document order.
	for i := len(sigs) - 1; i >= 0; i-- {
		if match[i] < 0 {
			n--
			t.insert(sigs[i], int32(i), n)
		}
	}
	t.markSingles()
	return t
}

// newSigTableOf indexes the given nodes of one version, in document order,
// given the signatures of all its nodes, in memory from spare (see
// release).
func newSigTableOf(spare *spare, sigs []tree.Signature, nodes []int32) *sigTable {
	t := makeSigTable(spare, len(nodes))
	for k := len(nodes) - 1; k >= 0; k-- {
		t.insert(sigs[nodes[k]], nodes[k], k)
	}
	t.markSingles()
	return t
}

// makeSigTable returns an empty table for n nodes, in memory from spare.
func makeSigTable(spare *spare, n int) *sigTable {
	// At most three quarters full: linear probing stays short.
	size := 16
	for size*3 < 4*n {
		size <<= 1
	}
	t := &sigTable{
		slots:  take[sigSlot](spare, size),
		links:  take[sigLink](spare, n),
		mask:   uint64(size - 1),
		filter: take[uint64](spare, max(size/32, 1)), // two bits a slot
		single: take[uint64](spare, max(size/32, 1)),
	}
	for i := range t.slots {
		t.slots[i].head = -1
	}
	return t
}

// release hands the table's memory back to spare, for a later table or
// phase: t must not be used after.
func (t *sigTable) release(spare *spare) {
	give(spare, t.slots)
	give(spare, t.links)
	give(spare, t.filter)
	give(spare, t.single)
	*t = sigTable{}
}

// insert puts node i, of signature sig, at the front of its chain, as link
// l: nodes inserted in reverse document order make chains in document
// order.
func (t *sigTable) insert(sig tree.Signature, i int32, l int) {
	w, bit := t.filterBit(sig)
	t.filter[w] |= bit
	s := &t.slots[t.slot(sig)]
	s.key = sig
	t.links[l] = sigLink{i, s.head}
	s.head = int32(l)
	if s.count < maxCount {
		s.count++
	}
}

// markSingles sets the single filter's bits of the signatures of one node,
// once every node is in.
func (t *sigTable) markSingles() {
	for _, s := range t.slots {
		if s.head >= 0 && s.count == 1 {
			w, bit := t.filterBit(s.key)
			t.single[w] |= bit
		}
	}
}

// mayHave reports whether sig may be in the table: false means it is not,
// found without a look in the table.
func (t *sigTable) mayHave(sig tree.Signature) bool {
	w, bit := t.filterBit(sig)
	return t.filter[w]&bit != 0
}

// slot returns the slot of sig: where it is, or the empty slot where it goes.
func (t *sigTable) slot(sig tree.Signature) uint64 {
	h := uint64(sig) * 0x9e3779b97f4a7c15
	for s := h >> 7 & t.mask; ; s = (s + 1) & t.mask {
		if t.slots[s].head == -1 || t.slots[s].key == sig {
			return s
		}
	}
}

// lookup returns the entry of signature sig: its chain, the number of
// nodes with it and, where that is 1, the number of the other version's
// nodes with it (after countOthers).
func (t *sigTable) lookup(sig tree.Signature) sigEntry {
	s := &t.slots[t.slot(sig)]
	return sigEntry{max(s.head, -1), s.count, s.others}
}

// dropThrough removes from the front of sig's chain every link up to link
// k: a caller that took link k's node passes over those before it from
// then on. The counts stay as they were.
func (t *sigTable) dropThrough(sig tree.Signature, k int32) {
	s := &t.slots[t.slot(sig)]
	if s.head = t.links[k].next; s.head < 0 {
		// Not -1, which would make the slot look empty to the probes
		// of the signatures placed past it.
		s.head = droppedAll
	}
}

// droppedAll is the head of a chain dropThrough emptied.
const droppedAll = -2

// node returns the node of link k of a chain.
func (t *sigTable) node(k int32) int32 { return t.links[k].node }

// next returns the link after link k of its chain, or -1.
func (t *sigTable) next(k int32) int32 { return t.links[k].next }

// countOthers counts, for each signature of one node in the table, the
// nodes of another version that have it. The others count of a signature of
// several nodes is left as it is: no caller reads it (a match "unique on
// both sides" needs both counts to be 1), and leaving it spares the table a
// probe for each node of the other version whose content repeats (more than
// half of those that pass filter on a generated record list).
func (t *sigTable) countOthers(sigs []tree.Signature) {
	for _, sig := range sigs {
		if w, bit := t.filterBit(sig); t.single[w]&bit == 0 {
			continue
		}
		if s := &t.slots[t.slot(sig)]; s.head >= 0 && s.others < maxCount {
			s.others++
		}
	}
}
