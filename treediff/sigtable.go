package treediff

import "github.com/vigil-web/vigil/tree"

// sigTable maps signatures to chains of node indexes, in document order,
// with open addressing: one probe array and one "next" link per node, and no
// allocation per entry. A diff of a large document builds it over hundreds
// of thousands of nodes, where a Go map of slices costs several times more.
type sigTable struct {
	keys  []tree.Signature
	heads []int32 // first node of the chain, -1 for an empty slot
	count []int32 // length of the chain
	// others[s] counts the nodes of the other version with the slot's
	// signature (see countOthers); only signatures present here are counted.
	others []int32
	next   []int32 // next[i] is the node after i in its chain, or -1
	mask   uint64
}

// newSigTable indexes nodes 0..len(sigs)-1 for which include returns true
// (all when include is nil).
func newSigTable(sigs []tree.Signature, include func(i int) bool) *sigTable {
	n := len(sigs)
	if include != nil {
		n = 0
		for i := range sigs {
			if include(i) {
				n++
			}
		}
	}
	size := 16
	for size < 2*n {
		size <<= 1
	}
	t := &sigTable{
		keys:  make([]tree.Signature, size),
		heads: make([]int32, size),
		count: make([]int32, size),
		next:  make([]int32, len(sigs)),
		mask:  uint64(size - 1),
	}
	for i := range t.heads {
		t.heads[i] = -1
	}
	// Insert in reverse, prepending, so that chains are in document order.
	for i := len(sigs) - 1; i >= 0; i-- {
		t.next[i] = -1
		if include != nil && !include(i) {
			continue
		}
		s := t.slot(sigs[i])
		t.keys[s] = sigs[i]
		t.next[i] = t.heads[s]
		t.heads[s] = int32(i)
		t.count[s]++
	}
	return t
}

// slot returns the slot of sig: where it is, or the empty slot where it goes.
func (t *sigTable) slot(sig tree.Signature) uint64 {
	h := uint64(sig) * 0x9e3779b97f4a7c15
	for s := h >> 7 & t.mask; ; s = (s + 1) & t.mask {
		if t.heads[s] < 0 || t.keys[s] == sig {
			return s
		}
	}
}

// lookup returns the first node with signature sig (-1 if none), the
// number of nodes with it, and the number of the other version's nodes with
// it (after countOthers).
func (t *sigTable) lookup(sig tree.Signature) (first, count, others int32) {
	s := t.slot(sig)
	if t.others == nil {
		return t.heads[s], t.count[s], 0
	}
	return t.heads[s], t.count[s], t.others[s]
}

// countOthers counts, for each signature in the table, the nodes of another
// version that have it.
func (t *sigTable) countOthers(sigs []tree.Signature) {
	t.others = make([]int32, len(t.heads))
	for _, sig := range sigs {
		if s := t.slot(sig); t.heads[s] >= 0 {
			t.others[s]++
		}
	}
}
