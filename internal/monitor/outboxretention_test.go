package monitor

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// countingOutbox is a memOutbox that counts the deletion calls and their
// bounds, and may fail them.
type countingOutbox struct {
	*memOutbox
	count  sync.Mutex
	calls  int
	bounds []time.Time
	fail   error
}

func (c *countingOutbox) DeleteNotificationsBefore(ctx context.Context, before time.Time, limit int) (int, error) {
	c.count.Lock()
	c.calls++
	c.bounds = append(c.bounds, before)
	c.count.Unlock()
	if c.fail != nil {
		return 0, c.fail
	}
	return c.memOutbox.DeleteNotificationsBefore(ctx, before, limit)
}

func TestOutboxRetentionRunOnce(t *testing.T) {
	now := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	old := now.Add(-100 * 24 * time.Hour)
	tests := map[string]struct {
		keep      time.Duration
		batch     int
		sent      int // old sent entries
		dead      int // old dead letters
		recent    int // sent entries touched an hour ago
		pending   int // old entries never sent
		deleted   int
		calls     int
		remaining int
	}{
		"nothing to delete":       {keep: 90 * 24 * time.Hour, batch: 10, recent: 3, pending: 2, deleted: 0, calls: 1, remaining: 5},
		"one short batch":         {keep: 90 * 24 * time.Hour, batch: 10, sent: 4, dead: 2, recent: 1, deleted: 6, calls: 1, remaining: 1},
		"batches until one short": {keep: 90 * 24 * time.Hour, batch: 3, sent: 5, dead: 2, pending: 1, deleted: 7, calls: 3, remaining: 1},
		"exact multiple":          {keep: 90 * 24 * time.Hour, batch: 3, sent: 6, deleted: 6, calls: 3, remaining: 0},
		"disabled":                {keep: 0, batch: 3, sent: 6, dead: 1, deleted: 0, calls: 0, remaining: 7},
		"kept longer than the age": {keep: 200 * 24 * time.Hour, batch: 3, sent: 6, dead: 1, recent: 1,
			deleted: 0, calls: 1, remaining: 8},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			store := &countingOutbox{memOutbox: newMemOutbox()}
			add := func(count int, state vigil.NotificationState, at time.Time) {
				for range count {
					n := &vigil.Notification{Channel: "email", Target: "a@example.com", Payload: []byte(`{}`)}
					if err := store.EnqueueNotification(ctx, n); err != nil {
						t.Fatal(err)
					}
					if err := store.set(n.ID, func(n *vigil.Notification) { n.State, n.NextAttempt, n.SentAt = state, at, at }); err != nil {
						t.Fatal(err)
					}
				}
			}
			add(tc.sent, vigil.NotificationSent, old)
			add(tc.dead, vigil.NotificationDead, old)
			add(tc.recent, vigil.NotificationSent, now.Add(-time.Hour))
			add(tc.pending, vigil.NotificationPending, old)
			r := &OutboxRetention{Store: store, Keep: tc.keep, Batch: tc.batch, Pause: time.Microsecond, Now: func() time.Time { return now }}
			got, err := r.RunOnce(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.deleted || store.calls != tc.calls || len(store.items) != tc.remaining {
				t.Errorf("deleted %d in %d calls, %d left; want %d in %d, %d left", got, store.calls, len(store.items), tc.deleted, tc.calls, tc.remaining)
			}
			for _, b := range store.bounds {
				if want := now.Add(-tc.keep); !b.Equal(want) {
					t.Errorf("bound %v, want %v", b, want)
				}
			}
			for _, n := range store.items {
				if n.State == vigil.NotificationPending && tc.pending == 0 {
					t.Errorf("pending entry %d appeared", n.ID)
				}
			}
		})
	}
}

// TestOutboxRetentionRun: Run deletes at once, then at every period, and
// a failed run is logged, not fatal; stopped, it returns the context's
// error.
func TestOutboxRetentionRun(t *testing.T) {
	store := &countingOutbox{memOutbox: newMemOutbox(), fail: errors.New("database is locked")}
	ctx, cancel := context.WithCancel(context.Background())
	r := &OutboxRetention{Store: store, Keep: time.Hour, Every: time.Millisecond, Batch: 2}
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		store.count.Lock()
		calls := store.calls
		store.count.Unlock()
		if calls >= 3 || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Run: %v, want context.Canceled", err)
	}
	if store.calls < 3 {
		t.Fatalf("%d runs, want at least 3: a failed run stops the job", store.calls)
	}
	// Disabled, it returns at once, deleting nothing.
	off := &countingOutbox{memOutbox: newMemOutbox()}
	if err := (&OutboxRetention{Store: off}).Run(context.Background()); err != nil || off.calls != 0 {
		t.Fatalf("disabled: %v, %d calls", err, off.calls)
	}
}
