package monitor

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// TestMemoryBudget: shares are granted while they fit, then first come
// first served as others give theirs back; one larger than the budget is
// cut to it; a waiter whose context ends takes nothing and lets the next
// one through.
func TestMemoryBudget(t *testing.T) {
	ctx := context.Background()
	b := &memoryBudget{total: 100, free: 100}
	if err := b.acquire(ctx, 60); err != nil {
		t.Fatal(err)
	}
	if err := b.acquire(ctx, 40); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var order []int64
	var wg sync.WaitGroup
	wait := func(n int64) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := b.acquire(ctx, n); err != nil {
				t.Error(err)
				return
			}
			mu.Lock()
			order = append(order, n)
			mu.Unlock()
		}()
		// Queued in this order.
		for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
			b.mu.Lock()
			last := int64(-1)
			if k := len(b.waiters); k > 0 {
				last = b.waiters[k-1].n
			}
			b.mu.Unlock()
			if last == min(n, 100) || time.Now().After(deadline) {
				break
			}
		}
	}
	wait(500) // more than the budget: cut to 100
	wait(10)  // fits as soon as 10 is free, but comes second
	// A waiter that gives up takes nothing.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := b.acquire(cctx, 30); !errors.Is(err, context.Canceled) {
		t.Errorf("acquire with an ended context: %v", err)
	}
	b.release(40) // 40 free: neither the head (100) nor, behind it, 10 goes
	time.Sleep(20 * time.Millisecond)
	mu.Lock()
	if len(order) != 0 {
		t.Errorf("granted %v with 40 free behind a waiter of 100", order)
	}
	mu.Unlock()
	b.release(60) // 100 free: the head goes
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		mu.Lock()
		n := len(order)
		mu.Unlock()
		if n == 1 {
			break
		}
	}
	b.release(100) // the head is done: 10 goes
	wg.Wait()
	if len(order) != 2 || order[0] != 500 || order[1] != 10 {
		t.Errorf("granted in order %v, want [500 10]", order)
	}
	b.release(10)
	if b.free != 100 || len(b.waiters) != 0 {
		t.Errorf("at the end: %d free, %d waiting", b.free, len(b.waiters))
	}
	// A grant holds the sum of its comparisons, up to the budget, and
	// waits without holding: giving back first, it asks for the sum.
	g := &memoryGrant{b: b}
	if err := g.add(ctx, 1); err != nil || g.held != comparisonCost {
		t.Fatalf("grant of 1 byte of bodies: %d held, %v", g.held, err)
	}
	b2 := &memoryBudget{total: 1000, free: 1000}
	g2 := &memoryGrant{b: b2}
	if err := g2.add(ctx, 2); err != nil || g2.add(ctx, 3) != nil || g2.held != 5*comparisonCost || b2.free != 1000-5*comparisonCost {
		t.Fatalf("two comparisons: %d held, %d free", g2.held, b2.free)
	}
	g2.done()
	if err := g.add(ctx, 1000); err != nil || g.held != 100 || b.free != 0 {
		t.Fatalf("grant grown past the budget: %d held, %d free, %v", g.held, b.free, err)
	}
	g.done()
	if b.free != 100 {
		t.Errorf("after the grant: %d free", b.free)
	}
	// Unbounded: nothing is counted.
	var none memoryBudget
	if err := none.acquire(ctx, 1<<40); err != nil {
		t.Error(err)
	}
}
