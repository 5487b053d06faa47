package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// outboxLayout is an outbox to fill: entries to addresses targets,
// queued in the order the layout gives, each due at t0 plus its due.
type outboxLayout struct {
	name  string
	limit int
	queue []queuedEntry
}

// queuedEntry is an entry of an outboxLayout.
type queuedEntry struct {
	target string
	due    time.Duration
}

// roundRobin queues n entries to each of addresses targets, one to each
// in turn, all due at t0: a0@example.com, a1@example.com and so on.
func roundRobin(addresses, n int) []queuedEntry { return roundRobinTo("a", addresses, n) }

// roundRobinTo is roundRobin to the targets whose names start with
// prefix.
func roundRobinTo(prefix string, addresses, n int) []queuedEntry {
	var q []queuedEntry
	for range n {
		for a := range addresses {
			q = append(q, queuedEntry{target: fmt.Sprintf("%s%d@example.com", prefix, a)})
		}
	}
	return q
}

// runs queues n entries to the first of addresses targets, then n to the
// second, and so on, all due at t0.
func runs(addresses, n int) []queuedEntry {
	var q []queuedEntry
	for a := range addresses {
		for range n {
			q = append(q, queuedEntry{target: fmt.Sprintf("a%d@example.com", a)})
		}
	}
	return q
}

// modelEntry is an entry as the model of the outbox (claimModel) knows it.
type modelEntry struct {
	id     int64
	target string
	next   time.Time
}

// claimModel returns the entries of queue (undelivered, in queue order)
// that a claim at now of at most limit takes: the first limit due ones
// that no earlier entry to their address, not due, holds back.
func claimModel(queue []modelEntry, now time.Time, limit int) []int64 {
	held := map[string]bool{}
	var out []int64
	for _, e := range queue {
		if len(out) == limit {
			break
		}
		if held[e.target] {
			continue
		}
		if e.next.After(now) {
			held[e.target] = true
			continue
		}
		out = append(out, e.id)
	}
	return out
}

// testOutboxClaimLimit: a claim of at most limit entries returns at most
// limit, and exactly those the contract names: the first limit due
// entries in queue order that no earlier undelivered entry to their
// address, not due (waiting, or claimed), holds back; whether the
// addresses' entries are queued in turn or in runs, many to each. Claims
// that follow, each taking its entries and recording them sent, deliver
// every entry, those to each address in the order they were queued.
func testOutboxClaimLimit(t *testing.T, s vigil.Store) {
	hour := time.Hour
	held := runs(1, 3)
	held[0] = queuedEntry{target: held[0].target, due: hour}
	cases := []outboxLayout{
		{"one each of many addresses, in turn", 3, roundRobin(12, 1)},
		{"many each of many addresses, in turn", 3, roundRobin(12, 12)},
		{"many each of many addresses, in runs", 5, runs(6, 12)},
		{"limit one", 1, roundRobin(4, 4)},
		{"an address held back by its first", 4, append(held, roundRobin(5, 6)...)},
		{"addresses held back in the middle", 6, append(append(roundRobin(5, 3),
			queuedEntry{"a1@example.com", hour}, queuedEntry{"a3@example.com", 2 * hour}), roundRobin(5, 4)...)},
	}
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	// Each case to addresses of its own, in a channel of its own, so that
	// what a case leaves undelivered holds nothing back of another's.
	for ci, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			base := t0.Add(time.Duration(ci) * 24 * time.Hour)
			channel := fmt.Sprintf("webhook%d", ci)
			var queue []modelEntry
			for _, e := range c.queue {
				n := &vigil.Notification{UserID: u.ID, Channel: channel, Target: e.target, Payload: json.RawMessage(`{}`),
					NextAttempt: base.Add(e.due)}
				must(t, s.EnqueueNotification(ctx, n))
				queue = append(queue, modelEntry{n.ID, e.target, n.NextAttempt})
			}
			order := map[string][]int64{}
			for _, e := range queue {
				order[e.target] = append(order[e.target], e.id)
			}
			delivered := map[string][]int64{}
			lease := 30 * time.Second
			for now, round := base, 0; len(queue) > 0; now, round = now.Add(time.Minute), round+1 {
				if round > 10*len(c.queue) {
					t.Fatalf("%d entries still undelivered after %d claims", len(queue), round)
				}
				got, err := s.ClaimNotifications(ctx, now, lease, c.limit)
				must(t, err)
				var ids []int64
				for _, n := range got {
					ids = append(ids, n.ID)
				}
				if len(ids) > c.limit {
					t.Fatalf("claim %d at %v took %d entries, more than its limit %d: %v", round, now, len(ids), c.limit, ids)
				}
				if want := claimModel(queue, now, c.limit); !slices.Equal(ids, want) {
					t.Fatalf("claim %d at %v (limit %d): took %v, want %v", round, now, c.limit, ids, want)
				}
				// Every other claim's entries are recorded sent; the
				// others are left under their lease, which holds back
				// the entries after them until it ends and they are
				// claimed again.
				for _, n := range got {
					i := slices.IndexFunc(queue, func(e modelEntry) bool { return e.id == n.ID })
					if round%2 == 1 {
						queue[i].next = now.Add(lease)
						continue
					}
					must(t, s.MarkNotificationSent(ctx, n.ID, now))
					delivered[n.Target] = append(delivered[n.Target], n.ID)
					queue = slices.Delete(queue, i, i+1)
				}
			}
			for target, ids := range order {
				if !slices.Equal(delivered[target], ids) {
					t.Errorf("entries to %s delivered in the order %v, queued %v", target, delivered[target], ids)
				}
			}
		})
	}
}

// RunOutboxClaimLimitWork: a claim's work is bounded by its limit, not
// by the entries queued behind the first of each address: a claim of
// limit entries among limit addresses, each with one entry (and as many
// entries as below queued after them, to other addresses, so that the
// tables are as large), reads as much, give or take a few pages or rows,
// as a claim among the same addresses each with many entries, queued in
// turn, and twice as much at most when they are queued in runs (all of
// the first address's, then all of the second's, ...: the claim reads
// the first's in batches). A claim read, of each of the first limit due
// addresses, up to limit entries, limit×limit in all, of which it
// returned limit. open returns a fresh, empty store and the backend's
// count.
func RunOutboxClaimLimitWork(t *testing.T, open func(t *testing.T) (vigil.Store, ClaimWork)) {
	const limit, many = 16, 64
	ctx := context.Background()
	work := func(queue []queuedEntry) (int64, []*vigil.Notification) {
		t.Helper()
		s, count := open(t)
		u := newUser(t, s, "ada@example.com")
		tr, ok := s.(vigil.Transactor)
		if !ok {
			t.Fatalf("store %T runs no transaction", s)
		}
		err := tr.InTransaction(ctx, func(tx vigil.TxStore) error {
			for _, e := range queue {
				n := &vigil.Notification{UserID: u.ID, Channel: "email", Target: e.target, Payload: json.RawMessage(`{}`), NextAttempt: t0}
				o, ok := tx.(vigil.OutboxStore)
				if !ok {
					o = s
				}
				if err := o.EnqueueNotification(ctx, n); err != nil {
					return err
				}
			}
			return nil
		})
		must(t, err)
		var got []*vigil.Notification
		n := count(t, s, func(o vigil.OutboxStore) {
			var err error
			got, err = o.ClaimNotifications(ctx, t0, time.Minute, limit)
			must(t, err)
		})
		if len(got) != limit {
			t.Fatalf("a claim of %d took %d", limit, len(got))
		}
		return n, got
	}
	one, _ := work(append(roundRobin(limit, 1), roundRobinTo("b", limit, many-1)...))
	inTurn, got := work(roundRobin(limit, many))
	for i, n := range got {
		if want := fmt.Sprintf("a%d@example.com", i); n.Target != want {
			t.Fatalf("claim among %d in turn: entry %d to %s, want %s", many, i, n.Target, want)
		}
	}
	inRuns, got := work(runs(limit, many))
	for i, n := range got {
		if n.Target != "a0@example.com" {
			t.Fatalf("claim among %d in runs: entry %d to %s, want a0@example.com", many, i, n.Target)
		}
	}
	t.Logf("a claim's work: %d among one entry to each of %d addresses, %d among %d to each in turn, %d in runs", one, limit, inTurn, many, inRuns)
	if slack := one / 2; inTurn > one+slack || inRuns > 2*one+slack {
		t.Errorf("a claim of %d: work %d among one entry to each address, %d among %d to each in turn, %d in runs: it grows with the entries behind the addresses' first",
			limit, one, inTurn, many, inRuns)
	}
}
