package treediff

import (
	"cmp"
	"math"
	"math/bits"
	"slices"

	"github.com/vigil-web/vigil/tree"
)

// queue yields new nodes by subtree weight, heaviest first; ties go to the
// node that comes first in post-order, so the order is deterministic.
//
// It is a monotone radix heap: the phase pops a node and then pushes only
// its children, which weigh less, so no key pushed is ever before the last
// one popped. Keys are the weights' bits complemented (a heavier node has a
// smaller key); bucket b > 0 holds the keys whose highest bit differing from
// the last popped key is bit b-1, bucket 0 the keys equal to it, sorted by
// node when the bucket fills. A push is an append; a pop moves a bucket's
// items at most down to lower buckets, so each item is moved a few times at
// most instead of climbing and sinking through a binary heap of every
// queued node.
//
// Buckets 1 to 64 are lists of fixed-size chunks drawn from one free list:
// items drain down through the buckets, and a bucket that held many once
// would otherwise keep an array of that size while the next ones grow
// their own (on a 10 MB document, twenty times the most items ever
// queued, allocated and collected). New chunks are cut from slabs of
// slabChunks, in memory from spare when the queue has one (see release).
type queue struct {
	buckets [65][][]queued // buckets[0] is unused: see zero
	zero    []queued       // bucket 0, sorted by node
	head    int            // next item of zero
	last    uint64         // key of the last node popped
	n       int            // items queued
	free    [][]queued     // empty chunks
	sorted  []queued       // sortByNode's scratch space
	spare   *spare         // where slabs come from, or nil
	slabs   [][]queued     // the slabs, the last one being cut
	cut     int            // chunks cut from the last slab
}

// chunkLen is the number of items of a chunk, and slabChunks the number
// of chunks of a slab.
const (
	chunkLen   = 512
	slabChunks = 32
)

// queued is a node in the queue, with its signature, its parent and its
// signature's entry in the old nodes' table (sigTable.lookup), looked up
// when it was queued.
type queued struct {
	key    uint64 // weightKey of the node's weight
	sig    tree.Signature
	node   int32
	parent int32 // -1 for the root
	// target is the parent's match when the node was queued, or -1.
	// A match made in the phase is never undone, and a node the phase
	// looks through (the parent of every node queued) is matched later
	// only by forceAncestors: target spares the look-up a read of the
	// parent's match, a miss of the cache on a large document, until an
	// ancestor is forced.
	target int32
	sigEntry
}

// weight returns the weight of the queued node.
func (it queued) weight() float64 { return math.Float64frombits(^it.key) }

// weightKey orders weights (non-negative) heaviest first.
func weightKey(w float64) uint64 { return ^math.Float64bits(w) }

func (q *queue) bucketOf(key uint64) int {
	if key == q.last {
		return 0
	}
	return 64 - bits.LeadingZeros64(key^q.last)
}

// push queues an item. Its weight must be at most the weight of the last
// node popped (a child weighs less than its parent, or as much once both
// are rounded to float32: see tree.Measure), or, before the first pop, at
// most the weight the queue was started with. An item of the last key
// joins bucket 0 in its place by node, among the items still to pop.
func (q *queue) push(it queued) {
	if b := q.bucketOf(it.key); b != 0 {
		q.add(b, it)
	} else {
		rest := q.zero[q.head:]
		k, _ := slices.BinarySearchFunc(rest, it.node, func(x queued, node int32) int { return cmp.Compare(x.node, node) })
		q.zero = slices.Insert(q.zero, q.head+k, it)
	}
	q.n++
}

// add appends an item to bucket b.
func (q *queue) add(b int, it queued) {
	if b == 0 {
		q.zero = push(q.zero, it)
		return
	}
	chunks := q.buckets[b]
	if k := len(chunks) - 1; k >= 0 && len(chunks[k]) < chunkLen {
		chunks[k] = append(chunks[k], it)
		return
	}
	var c []queued
	if f := len(q.free) - 1; f >= 0 {
		c, q.free = q.free[f], q.free[:f]
	} else {
		c = q.newChunk()
	}
	q.buckets[b] = append(chunks, append(c, it))
}

// newChunk returns an empty chunk, cut from the last slab.
func (q *queue) newChunk() []queued {
	if len(q.slabs) == 0 || q.cut == slabChunks {
		q.slabs, q.cut = append(q.slabs, take[queued](q.spare, slabChunks*chunkLen)), 0
	}
	start := q.cut * chunkLen
	q.cut++
	return q.slabs[len(q.slabs)-1][start : start : start+chunkLen]
}

// release hands the queue's memory to its spare, if it has one: the queue
// must not be used after.
func (q *queue) release() {
	for _, slab := range q.slabs {
		give(q.spare, slab)
	}
	give(q.spare, q.zero)
	give(q.spare, q.sorted)
	*q = queue{}
}

// pop removes and returns the heaviest item (the first in post-order among
// equals).
func (q *queue) pop() queued {
	if q.head == len(q.zero) {
		q.zero, q.head = q.zero[:0], 0
		b := 1
		for len(q.buckets[b]) == 0 {
			b++
		}
		chunks := q.buckets[b]
		min := chunks[0][0].key
		for _, c := range chunks {
			for _, it := range c {
				if it.key < min {
					min = it.key
				}
			}
		}
		// Every item of bucket b goes to a lower bucket: b is not appended
		// to while its chunks are read.
		q.last = min
		for k, c := range chunks {
			for _, it := range c {
				q.add(q.bucketOf(it.key), it)
			}
			q.free = append(q.free, c[:0])
			chunks[k] = nil
		}
		q.buckets[b] = chunks[:0]
		q.sortByNode(q.zero)
	}
	it := q.zero[q.head]
	q.head++
	q.n--
	return it
}

// radixMin is the number of items from which sortByNode sorts by radix.
const radixMin = 256

// sortByNode sorts the items of bucket 0 (all of one weight) by node.
// Equal weights are common (every field of a record list holding a number
// of the same length weighs the same), so a bucket may hold thousands of
// items; a radix sort, a byte of the node index per pass and only the bytes
// where the bucket's nodes differ, costs a few moves per item where a
// comparison sort costs log2(n) comparisons.
func (q *queue) sortByNode(z []queued) {

	if len(z) < radixMin {
		if len(z) > 1 {
			slices.SortFunc(z, func(x, y queued) int { return int(x.node - y.node) })
		}
		return
	}
	lo, hi := z[0].node, z[0].node
	for _, it := range z[1:] {
		lo, hi = min(lo, it.node), max(hi, it.node)
	}
	q.sorted = grow(&q.sorted, len(z))
	from, to := z, q.sorted
	// Nodes are non-negative; bits above the highest one where lo and hi
	// differ are the same in every item.
	for shift := 0; shift < bits.Len32(uint32(lo^hi)); shift += 8 {
		var count [256]int
		for _, it := range from {
			count[uint32(it.node)>>shift&0xff]++
		}
		at := 0
		for d, c := range count {
			count[d] = at
			at += c
		}
		for _, it := range from {
			d := uint32(it.node) >> shift & 0xff
			to[count[d]] = it
			count[d]++
		}
		from, to = to, from
	}
	if &from[0] != &z[0] {
		copy(z, from)
	}
}
