package opic

import (
	"math/rand/v2"
	"slices"
)

// Policy chooses the next page to read (seed §7.4). Any policy works as
// long as every page is read infinitely often. Next returns false when no
// page is live.
type Policy interface {
	Next() (PageID, bool)
}

// Random reads a live page chosen uniformly at random.
type Random struct {
	o   *OPIC
	rng *rand.Rand
}

// NewRandom returns the Random policy over o's pages, deterministic for a
// given seed.
func NewRandom(o *OPIC, seed uint64) *Random {
	return &Random{o: o, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

// Next returns a uniformly random live page.
func (r *Random) Next() (PageID, bool) {
	o := r.o
	if o.live == 0 {
		return 0, false
	}
	for {
		p := PageID(r.rng.Uint32N(uint32(len(o.pages))))
		if !o.pages[p].deleted() {
			return p, true
		}
	}
}

// Cycle reads the live pages in id order, round and round.
type Cycle struct {
	o    *OPIC
	next PageID
}

// NewCycle returns the Cycle policy over o's pages, starting at page 0.
func NewCycle(o *OPIC) *Cycle { return &Cycle{o: o} }

// Next returns the next live page in id order.
func (c *Cycle) Next() (PageID, bool) {
	o := c.o
	if o.live == 0 {
		return 0, false
	}
	for {
		if int(c.next) >= len(o.pages) {
			c.next = 0
		}
		p := c.next
		c.next++
		if !o.pages[p].deleted() {
			return p, true
		}
	}
}

// Greedy reads the live page with the most cash (ties to the lowest id). It
// keeps an 8-ary heap keyed on cash, updated by every Read, Delete, Merge and
// AddPage of its OPIC: at most 8 bytes per page, plus the page's heap slot
// kept in its state. The heap holds only the pages whose cash is above a
// threshold (about the richest eighth); the others cannot be the richest
// while it is not empty, and they enter it when their cash crosses the
// threshold. When it empties, a new threshold is drawn from a sample of
// the pages and the heap is refilled in one pass. Most links then pay pages
// outside the heap and cost no heap work.
type Greedy struct {
	o *OPIC
	h *cashHeap
}

// NewGreedy returns the Greedy policy over o's pages and attaches its heap
// to o, in O(n). Only the most recent Greedy of an OPIC is valid: an older
// one reports no page.
func NewGreedy(o *OPIC) *Greedy {
	h := &cashHeap{o: o, e: make([]heapEntry, 0, o.live)}
	for i := range o.pages {
		o.pages[i].pos = noSlot
	}
	h.refill()
	o.heap = h
	return &Greedy{o: o, h: h}
}

// Next returns the live page with the most cash.
func (g *Greedy) Next() (PageID, bool) {
	if g.o.heap != g.h {
		return 0, false
	}
	if len(g.h.e) == 0 {
		g.h.refill()
		if len(g.h.e) == 0 {
			return 0, false
		}
	}
	return g.h.e[0].id, true
}

// cashHeap is a max-heap of pages on cash - g, with ties to the lower id.
// The key is a float32: OPIC rebases g so that keys stay within a few
// times the mean cash, where float32 keeps the order to 1e-7. A page's
// slot is in its page state (page.pos).
type cashHeap struct {
	o     *OPIC
	e     []heapEntry
	tau   float64 // the heap holds exactly the live pages with cash - g >= tau
	touch float32 // keeps the prefetching loads of OPIC.Read alive
}

const (
	// heapShare is the share of the pages the threshold aims to keep in the
	// heap, and heapSample the number of pages sampled to set it.
	heapShare  = 8
	heapSample = 1024
)

// refill sets the threshold to the cash of about the richest 1/heapShare
// of a sample of the live pages (spread evenly over the ids), and puts in
// the heap every live page at or above it: O(n), when the heap is empty.
// The threshold is at most the richest page's cash, so the heap is not
// empty after it unless no page is live.
func (h *cashHeap) refill() {
	o := h.o
	h.e = h.e[:0]
	if o.live == 0 {
		return
	}
	n := len(o.pages)
	step := max(1, n/heapSample)
	sample := make([]float64, 0, heapSample+1)
	for i := 0; i < n; i += step {
		if !o.pages[i].deleted() {
			sample = append(sample, o.pages[i].cash)
		}
	}
	if len(sample) == 0 { // live pages only between the sampled ids
		for i := range o.pages {
			if !o.pages[i].deleted() {
				sample = append(sample, o.pages[i].cash)
				break
			}
		}
	}
	slices.Sort(sample)
	h.tau = sample[len(sample)-1-len(sample)/heapShare]
	for i := range o.pages {
		if pg := &o.pages[i]; !pg.deleted() && pg.cash >= h.tau {
			h.e = append(h.e, heapEntry{key: float32(pg.cash), id: PageID(i)})
		}
	}
	h.heapify()
}

type heapEntry struct {
	key float32
	id  PageID
}

const (
	// heapArity 8 puts the children of a slot in one 64-byte cache line.
	heapArity = 8
	noSlot    = ^uint32(0)
)

func (a heapEntry) before(b heapEntry) bool {
	return a.key > b.key || a.key == b.key && a.id < b.id
}

func (h *cashHeap) setPos(id PageID, i int) { h.o.pages[id].pos = uint32(i) }

// update follows a change of page p's cash (cash - g): the page enters,
// moves in or leaves the heap.
func (h *cashHeap) update(p PageID, cash float64) {
	i := h.o.pages[p].pos
	if i == noSlot {
		if cash >= h.tau {
			h.push(p, cash)
		}
		return
	}
	if cash < h.tau {
		h.remove(p)
		return
	}
	k := float32(cash)
	old := h.e[i].key
	h.e[i].key = k
	switch {
	case k > old:
		h.up(int(i))
	case k < old:
		h.down(int(i))
	}
}

func (h *cashHeap) push(p PageID, cash float64) {
	h.e = append(h.e, heapEntry{key: float32(cash), id: p})
	h.up(len(h.e) - 1)
}

func (h *cashHeap) remove(p PageID) {
	i := h.o.pages[p].pos
	if i == noSlot {
		return
	}
	last := len(h.e) - 1
	h.o.pages[p].pos = noSlot
	if int(i) != last {
		h.e[i] = h.e[last]
		h.setPos(h.e[i].id, int(i))
	}
	h.e = h.e[:last]
	if int(i) < last {
		h.down(int(i))
		h.up(int(i))
	}
}

// rekey follows a rebase that added g to every page's cash: the keys are
// reloaded and the threshold shifted. The shift is the same for all pages,
// but rounding can turn an order into a tie, so the heap is rebuilt.
func (h *cashHeap) rekey(o *OPIC, g float64) {
	h.tau += g
	for i := range h.e {
		h.e[i].key = float32(o.pages[h.e[i].id].cash)
	}
	h.heapify()
}

func (h *cashHeap) heapify() {
	for i := (len(h.e) - 2) / heapArity; i >= 0 && len(h.e) > 1; i-- {
		h.down(i)
	}
	for i, e := range h.e {
		h.setPos(e.id, i)
	}
}

func (h *cashHeap) up(i int) {
	e := h.e[i]
	for i > 0 {
		parent := (i - 1) / heapArity
		if !e.before(h.e[parent]) {
			break
		}
		h.e[i] = h.e[parent]
		h.setPos(h.e[i].id, i)
		i = parent
	}
	h.e[i] = e
	h.setPos(e.id, i)
}

func (h *cashHeap) down(i int) {
	e := h.e[i]
	n := len(h.e)
	for {
		first := heapArity*i + 1
		if first >= n {
			break
		}
		best := first
		end := min(first+heapArity, n)
		for c := first + 1; c < end; c++ {
			if h.e[c].before(h.e[best]) {
				best = c
			}
		}
		if !h.e[best].before(e) {
			break
		}
		h.e[i] = h.e[best]
		h.setPos(h.e[i].id, i)
		i = best
	}
	h.e[i] = e
	h.setPos(e.id, i)
}
