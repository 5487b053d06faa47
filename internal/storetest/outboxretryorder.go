package storetest

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// testOutboxRetriedLetterOrder: a dead letter that its user retries
// (RetryNotification) takes its place in its address's queue when it is
// retried, after the entries queued before the retry, as a message
// queued then would: those queued after it died were let pass it, were
// delivered or are to be, and go out without waiting for it, and those
// queued after the retry wait for it, as for any entry queued before
// them. Its id, which a receiver deduplicates by, stays its own. Before,
// it kept the place of its id: the messages to its address queued after
// it, let pass while it was dead, were held back behind it again, for as
// long as it failed and waited for its retries (hours, with the
// back-off), and it went out before them.
func testOutboxRetriedLetterOrder(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	enqueue := func(next time.Time) int64 {
		t.Helper()
		n := &vigil.Notification{UserID: u.ID, Channel: "email", Target: "x@y", Payload: json.RawMessage(`{}`), NextAttempt: next}
		must(t, s.EnqueueNotification(ctx, n))
		return n.ID
	}
	claim := func(now time.Time, limit int) []int64 {
		t.Helper()
		got, err := s.ClaimNotifications(ctx, now, time.Minute, limit)
		must(t, err)
		var ids []int64
		for _, n := range got {
			ids = append(ids, n.ID)
		}
		return ids
	}
	want := func(what string, got []int64, ids ...int64) {
		t.Helper()
		if !slices.Equal(got, ids) {
			t.Fatalf("%s: claimed %v, want %v", what, got, ids)
		}
	}

	now := t0
	dead := enqueue(now)
	want("the first", claim(now, 10), dead)
	must(t, s.MarkNotificationDead(ctx, dead, "552 mailbox full"))
	passed := enqueue(now) // queued while the first is dead: it passes it
	must(t, s.RetryNotification(ctx, dead, vigil.NotificationRetry{At: now}))
	want("a claim of one after the retry", claim(now, 1), passed)
	must(t, s.MarkNotificationSent(ctx, passed, now))
	want("the retried letter", claim(now, 10), dead)

	// It fails again: it holds back what was queued after its retry.
	must(t, s.MarkNotificationFailed(ctx, dead, "452 try again later", now.Add(10*time.Minute)))
	after := enqueue(now)
	want("while the retried letter waits for its retry", claim(now.Add(time.Minute), 10))
	want("at its retry", claim(now.Add(10*time.Minute), 10), dead, after)
	must(t, s.MarkNotificationSent(ctx, dead, now.Add(10*time.Minute)))
	must(t, s.MarkNotificationSent(ctx, after, now.Add(10*time.Minute)))

	// A retried letter waits for the entries queued before its retry,
	// and one retried later than another goes after it.
	now = t0.Add(time.Hour)
	first, second := enqueue(now), enqueue(now)
	want("two", claim(now, 10), first, second)
	must(t, s.MarkNotificationDead(ctx, first, "552 mailbox full"))
	must(t, s.MarkNotificationDead(ctx, second, "552 mailbox full"))
	waiting := enqueue(now)
	want("the third", claim(now, 10), waiting)
	must(t, s.MarkNotificationFailed(ctx, waiting, "452 try again later", now.Add(10*time.Minute)))
	must(t, s.RetryNotification(ctx, second, vigil.NotificationRetry{At: now}))
	must(t, s.RetryNotification(ctx, first, vigil.NotificationRetry{At: now}))
	want("while the one queued before the retries waits", claim(now.Add(time.Minute), 10))
	want("at its retry", claim(now.Add(10*time.Minute), 10), waiting, second, first)
	if n, err := s.FindNotificationByID(ctx, first); err != nil || n.ID != first || n.Attempts != 1 {
		t.Fatalf("the retried letter: %+v, %v; want its own id %d, claimed once since its retry", n, err, first)
	}
}
