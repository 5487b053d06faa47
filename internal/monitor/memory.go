package monitor

import (
	"context"
	"slices"
	"sync"
)

// comparisonCost is the memory a comparison holds per byte of the two
// bodies it compares: both trees, the intent layer's text and the delta.
// A 4.26 MB page's check held 427 MB of heap for 8.5 MB of bodies
// (BENCHMARKS.md, "Monitor", session 11).
const comparisonCost = 64

// defaultMemoryBudget is Monitor.MemoryBudget's default.
const defaultMemoryBudget = 1 << 30

// memoryBudget bounds the memory the comparisons running at once hold, so
// that many workers on large pages at the same time cannot take the
// daemon past it: a comparison takes a share in proportion to its bodies
// (comparisonCost) before it parses them, and waits, first come first
// served, until that much is free. A share larger than the whole budget is
// cut to the budget: such a comparison runs alone. It is written here, not
// taken from golang.org/x/sync/semaphore, because services import the
// standard library only (deps_test.go).
type memoryBudget struct {
	mu      sync.Mutex
	total   int64 // 0: unbounded
	free    int64
	waiters []*budgetWaiter // in arrival order
}

type budgetWaiter struct {
	n     int64
	ready chan struct{} // closed when granted
}

// acquire takes n of the budget, waiting for it; it returns ctx's error if
// ctx ends first, having taken nothing.
func (b *memoryBudget) acquire(ctx context.Context, n int64) error {
	if b.total <= 0 || n <= 0 {
		return nil
	}
	n = min(n, b.total)
	b.mu.Lock()
	if len(b.waiters) == 0 && b.free >= n {
		b.free -= n
		b.mu.Unlock()
		return nil
	}
	w := &budgetWaiter{n: n, ready: make(chan struct{})}
	b.waiters = append(b.waiters, w)
	b.mu.Unlock()
	select {
	case <-w.ready:
		return nil
	case <-ctx.Done():
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	select {
	case <-w.ready: // granted meanwhile: give it back
		b.free += n
	default:
		b.waiters = slices.DeleteFunc(b.waiters, func(x *budgetWaiter) bool { return x == w })
	}
	b.grantWaiting() // the head of the queue may have changed
	return ctx.Err()
}

// release gives n back.
func (b *memoryBudget) release(n int64) {
	if b.total <= 0 || n <= 0 {
		return
	}
	b.mu.Lock()
	b.free += min(n, b.total)
	b.grantWaiting()
	b.mu.Unlock()
}

// grantWaiting grants the waiters at the head of the queue that fit, in
// order; b.mu is held.
func (b *memoryBudget) grantWaiting() {
	for len(b.waiters) > 0 && b.waiters[0].n <= b.free {
		w := b.waiters[0]
		b.waiters = b.waiters[1:]
		b.free -= w.n
		close(w.ready)
	}
}

// memoryGrant is what one worker holds of the budget for the comparisons
// alive in one step of its work (a page's check, the settling of its
// sentinels); it gives the grant back after each step.
type memoryGrant struct {
	b    *memoryBudget
	held int64
}

// add makes the grant hold enough for one more comparison, of n bytes of
// bodies, beside those it holds for. To wait for more it first gives back
// what it holds and then asks for the sum: no worker waits while holding a
// share, so the workers cannot block each other.
func (g *memoryGrant) add(ctx context.Context, bodies int64) error {
	if g == nil || g.b.total <= 0 {
		return nil
	}
	n := min(g.held+comparisonCost*bodies, g.b.total)
	if n <= g.held {
		return nil
	}
	g.b.release(g.held)
	g.held = 0
	if err := g.b.acquire(ctx, n); err != nil {
		return err
	}
	g.held = n
	return nil
}

// done gives the grant back.
func (g *memoryGrant) done() {
	if g != nil {
		g.b.release(g.held)
		g.held = 0
	}
}
