package storetest

import (
	"context"
	"encoding/json"
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

	now := t0
	dead := enqueue(now)
	wantClaimed(t, "the first", claimIDs(t, s, now, 10), dead)
	must(t, s.MarkNotificationDead(ctx, dead, "552 mailbox full"))
	passed := enqueue(now) // queued while the first is dead: it passes it
	must(t, s.RetryNotification(ctx, dead, vigil.NotificationRetry{At: now}))
	wantClaimed(t, "a claim of one after the retry", claimIDs(t, s, now, 1), passed)
	must(t, s.MarkNotificationSent(ctx, passed, now))
	wantClaimed(t, "the retried letter", claimIDs(t, s, now, 10), dead)

	// It fails again: it holds back what was queued after its retry.
	must(t, s.MarkNotificationFailed(ctx, dead, "452 try again later", now.Add(10*time.Minute)))
	after := enqueue(now)
	wantClaimed(t, "while the retried letter waits for its retry", claimIDs(t, s, now.Add(time.Minute), 10))
	wantClaimed(t, "at its retry", claimIDs(t, s, now.Add(10*time.Minute), 10), dead, after)
	must(t, s.MarkNotificationSent(ctx, dead, now.Add(10*time.Minute)))
	must(t, s.MarkNotificationSent(ctx, after, now.Add(10*time.Minute)))

	// A retried letter waits for the entries queued before its retry,
	// and one retried later than another goes after it.
	now = t0.Add(time.Hour)
	first, second := enqueue(now), enqueue(now)
	wantClaimed(t, "two", claimIDs(t, s, now, 10), first, second)
	must(t, s.MarkNotificationDead(ctx, first, "552 mailbox full"))
	must(t, s.MarkNotificationDead(ctx, second, "552 mailbox full"))
	waiting := enqueue(now)
	wantClaimed(t, "the third", claimIDs(t, s, now, 10), waiting)
	must(t, s.MarkNotificationFailed(ctx, waiting, "452 try again later", now.Add(10*time.Minute)))
	must(t, s.RetryNotification(ctx, second, vigil.NotificationRetry{At: now}))
	must(t, s.RetryNotification(ctx, first, vigil.NotificationRetry{At: now}))
	wantClaimed(t, "while the one queued before the retries waits", claimIDs(t, s, now.Add(time.Minute), 10))
	wantClaimed(t, "at its retry", claimIDs(t, s, now.Add(10*time.Minute), 10), waiting, second, first)
	if n, err := s.FindNotificationByID(ctx, first); err != nil || n.ID != first || n.Attempts != 1 {
		t.Fatalf("the retried letter: %+v, %v; want its own id %d, claimed once since its retry", n, err, first)
	}
}
