package storetest

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// testOutboxAddressOrder: a claim hands out no entry while an earlier
// undelivered one (pending or failed, by queue order, the id) to the
// same address (channel and target) is not due: waiting for its retry,
// or claimed by another worker. The entries to one address are claimed
// in the order they were queued, so that a claim of a few never takes a
// later one without the earlier, due, ones. A dead or sent entry holds
// nothing back. Before, ordering held only within one claimed batch: a
// message queued after a failed one, or after the limit of a batch, or
// claimed by a second daemon while the first delivered the earlier ones,
// was delivered first.
func testOutboxAddressOrder(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	enqueue := func(target string, next time.Time) int64 {
		t.Helper()
		n := &vigil.Notification{UserID: u.ID, Channel: "email", Target: target, Payload: json.RawMessage(`{}`), NextAttempt: next}
		must(t, s.EnqueueNotification(ctx, n))
		return n.ID
	}
	settle := func(at time.Time, ids ...int64) {
		t.Helper()
		for _, id := range ids {
			must(t, s.MarkNotificationSent(ctx, id, at))
		}
	}

	// A failed entry, waiting for its retry, holds back one queued after
	// it to its address, not one to another address.
	now := t0
	a := enqueue("x@y", now)
	wantClaimed(t, "first claim", claimIDs(t, s, now, 10), a)
	must(t, s.MarkNotificationFailed(ctx, a, "451 try again later", now.Add(10*time.Minute)))
	b := enqueue("x@y", now)
	other := enqueue("other@y", now)
	wantClaimed(t, "while the first waits for its retry", claimIDs(t, s, now.Add(time.Minute), 10), other)
	settle(now.Add(time.Minute), other)
	wantClaimed(t, "when the first is due again", claimIDs(t, s, now.Add(11*time.Minute), 10), a, b)
	settle(now.Add(11*time.Minute), a, b)

	// A claimed entry, under its lease, holds back those after it, left
	// out of a claim by its limit (or claimed by another daemon).
	now = t0.Add(time.Hour)
	c1, c2, c3 := enqueue("x@y", now), enqueue("x@y", now), enqueue("x@y", now)
	wantClaimed(t, "a claim of one", claimIDs(t, s, now, 1), c1)
	wantClaimed(t, "while the first is claimed", claimIDs(t, s, now, 10))
	settle(now, c1)
	wantClaimed(t, "once the first was sent", claimIDs(t, s, now, 10), c2, c3)
	settle(now, c2, c3)

	// The earlier entry is claimed first, though it became due after
	// the later one; a claim that takes one of them takes it.
	now = t0.Add(2 * time.Hour)
	d1 := enqueue("x@y", now.Add(-time.Second))
	d2 := enqueue("x@y", now.Add(-time.Minute))
	wantClaimed(t, "a claim of one of two due", claimIDs(t, s, now, 1), d1)
	settle(now, d1)
	wantClaimed(t, "the second", claimIDs(t, s, now, 1), d2)
	settle(now, d2)

	// A dead letter holds nothing back. One queued to be sent later
	// (NextAttempt) holds back those queued after it until then.
	now = t0.Add(3 * time.Hour)
	e1, e2 := enqueue("x@y", now), enqueue("x@y", now)
	wantClaimed(t, "a claim of one", claimIDs(t, s, now, 1), e1)
	must(t, s.MarkNotificationDead(ctx, e1, "550 no such user"))
	wantClaimed(t, "after the first is dead", claimIDs(t, s, now, 10), e2)
	settle(now, e2)
	f1 := enqueue("x@y", now.Add(time.Hour))
	f2 := enqueue("x@y", now)
	wantClaimed(t, "one queued after one not due yet", claimIDs(t, s, now, 10))
	wantClaimed(t, "both due", claimIDs(t, s, now.Add(time.Hour), 10), f1, f2)
}

// claimIDs claims at most limit entries of s's outbox at now, for a
// minute, and returns their ids in the order claimed.
func claimIDs(t *testing.T, s vigil.OutboxStore, now time.Time, limit int) []int64 {
	t.Helper()
	got, err := s.ClaimNotifications(context.Background(), now, time.Minute, limit)
	must(t, err)
	var ids []int64
	for _, n := range got {
		ids = append(ids, n.ID)
	}
	return ids
}

// wantClaimed fails the test unless a claim (what) took ids, in order.
func wantClaimed(t *testing.T, what string, got []int64, ids ...int64) {
	t.Helper()
	if !slices.Equal(got, ids) {
		t.Fatalf("%s: claimed %v, want %v", what, got, ids)
	}
}
