package webtable

import (
	"hash/maphash"
	"math/bits"
)

// seed hashes every id of the process, so that the index of one table can
// be probed with the ids of another.
var seed = maphash.MakeSeed()

func hash(s string) uint64 { return maphash.String(seed, s) }

// index maps the ids of a pool (node ids, URLs, link ids, tuple ids) to
// their positions in it. It is an open-addressing hash table of 4-byte
// slots: the low bits of a slot hold the position plus one (0 is an empty
// slot), as many as the pool's size needs, and the bits above them the
// high bits of the id's hash. The ids themselves stay in the pool, where a
// probe compares them only when those bits agree. It is several times
// smaller than a Go map from strings, holds no pointers for the garbage
// collector to scan, and is allocated once at its final size.
type index struct {
	slots []uint32
	mask  uint64
	shift uint   // position bits in a slot
	sink  uint32 // see touch
}

// newIndex returns an index for n ids of a pool of the given size.
func newIndex(n, size int) index {
	slots := 8
	for slots < n+n/2 { // at most two thirds full
		slots <<= 1
	}
	return index{slots: make([]uint32, slots), mask: uint64(slots - 1), shift: uint(bits.Len32(uint32(size)))}
}

// tag returns the bits of a slot that come from hash h.
func (ix *index) tag(h uint64) uint32 { return uint32(h>>32) >> ix.shift << ix.shift }

// pool is a list of ids: key(i) is the id at position i.
type pool interface {
	key(i int32) string
}

type nodeIDPool []Node

func (p nodeIDPool) key(i int32) string { return string(p[i].ID) }

// nodeURLPool has its own underlying type, so that key is compiled for it
// rather than called through a dictionary.
type nodeURLPool struct{ n []Node }

func (p nodeURLPool) key(i int32) string { return p.n[i].URL }

type linkIDPool []Link

func (p linkIDPool) key(i int32) string { return string(p[i].ID) }

type tupleIDPool []Tuple

func (p tupleIDPool) key(i int32) string { return string(p[i].ID) }

// find returns the position of id, whose hash is h, or -1.
func find[P pool](ix *index, p P, id string, h uint64) int32 {
	tag, low := ix.tag(h), uint32(1)<<ix.shift-1
	for i := h & ix.mask; ; i = (i + 1) & ix.mask {
		e := ix.slots[i]
		if e == 0 {
			return -1
		}
		if e&^low == tag {
			if pos := int32(e&low) - 1; p.key(pos) == id {
				return pos
			}
		}
	}
}

// add records that id, whose hash is h, is at position pos, and returns -1;
// or, if id is already recorded, leaves the index alone and returns its
// position.
func add[P pool](ix *index, p P, id string, h uint64, pos int32) int32 {
	tag, low := ix.tag(h), uint32(1)<<ix.shift-1
	for i := h & ix.mask; ; i = (i + 1) & ix.mask {
		e := ix.slots[i]
		if e == 0 {
			ix.slots[i] = tag | uint32(pos+1)
			return -1
		}
		if e&^low == tag {
			if old := int32(e&low) - 1; p.key(old) == id {
				return old
			}
		}
	}
}

// batchSize is how many ids are hashed, and their slots loaded, before any
// is looked up: enough loads to keep the memory system busy.
const batchSize = 64

// touch loads the first slot of the probe of each hash. The loads do not
// depend on each other and overlap; the probes that follow, each of which
// waits on the branches of the one before, then find their slots in the
// cache. (The sum is kept only so that the loads are not optimized away.)
func (ix *index) touch(hs []uint64) {
	var s uint32
	for _, h := range hs {
		s += ix.slots[h&ix.mask]
	}
	ix.sink += s
}

// warm loads the first byte of the id at the position that the first slot
// of each hash's probe with the hash's bits holds, and returns their sum
// (to be kept, so that the loads are not optimized away).
func warm[P pool](ix *index, p P, hs []uint64) byte {
	var s byte
	low := uint32(1)<<ix.shift - 1
	for _, h := range hs {
		tag := ix.tag(h)
		for i := h & ix.mask; ; i = (i + 1) & ix.mask {
			e := ix.slots[i]
			if e == 0 {
				break
			}
			if e&^low == tag {
				if id := p.key(int32(e&low) - 1); id != "" {
					s += id[0]
				}
				break
			}
		}
	}
	return s
}
