package opic

import (
	"math/rand/v2"
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
// keeps an 8-ary heap of the pages keyed on their cash, updated by every
// Read, Delete, Merge and AddPage of its OPIC: 8 bytes per page, plus the
// page's heap slot kept in its state.
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
		if !o.pages[i].deleted() {
			h.e = append(h.e, heapEntry{key: float32(o.pages[i].cash), id: PageID(i)})
		}
	}
	h.heapify()
	o.heap = h
	return &Greedy{o: o, h: h}
}

// Next returns the live page with the most cash.
func (g *Greedy) Next() (PageID, bool) {
	if g.o.heap != g.h || len(g.h.e) == 0 {
		return 0, false
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
	touch float32 // keeps the prefetching loads of OPIC.Read alive
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

func (h *cashHeap) update(p PageID, cash float64) {
	i := h.o.pages[p].pos
	if i == noSlot {
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

// rekey reloads every key from the pages' cash after a rebase. The shift
// is the same for all pages, but rounding can turn an order into a tie, so
// the heap is rebuilt: O(n), once every few passes.
func (h *cashHeap) rekey(o *OPIC) {
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
