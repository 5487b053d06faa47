package storetest

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// ClaimWork runs claim, an outbox claim of s (or of a store s hands out
// in a transaction, which claim is given), and returns the work the
// backend did for it, as the backend counts it (the pages SQLite read,
// the rows and index entries PostgreSQL read): a count, not a time.
type ClaimWork func(t *testing.T, s vigil.Store, claim func(vigil.OutboxStore)) int64

// RunOutboxClaimWork: a claim's work does not grow with the entries held
// back behind an address's first, failed and waiting for its retry (the
// entries to an address are delivered in the order they were queued):
// with twice as many held back, a claim of the same entries to another
// address reads as much, give or take a few pages or rows, where a claim
// that read the undelivered entries in queue order read every one held
// back before those it took, each time. open returns a fresh, empty
// store and the backend's count.
func RunOutboxClaimWork(t *testing.T, open func(t *testing.T) (vigil.Store, ClaimWork)) {
	const held = 1000
	s, work := open(t)
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	enqueue := func(target string, next time.Time) int64 {
		t.Helper()
		n := &vigil.Notification{UserID: u.ID, Channel: "email", Target: target, Payload: json.RawMessage(`{}`), NextAttempt: next}
		must(t, s.EnqueueNotification(ctx, n))
		return n.ID
	}
	now := t0
	first := enqueue("held@example.com", now)
	wantClaimed(t, "the first claim", claimIDs(t, s, now, 10), first)
	must(t, s.MarkNotificationFailed(ctx, first, "451 try again later", now.Add(24*time.Hour)))

	// Each round holds back held more entries, and claims three to
	// another address, the work of which it returns.
	round := func(what string) int64 {
		t.Helper()
		for range held {
			enqueue("held@example.com", now)
		}
		want := []int64{enqueue("free@example.com", now), enqueue("free@example.com", now), enqueue("free@example.com", now)}
		var got []*vigil.Notification
		n := work(t, s, func(o vigil.OutboxStore) {
			var err error
			got, err = o.ClaimNotifications(ctx, now.Add(time.Minute), time.Minute, 10)
			must(t, err)
		})
		var ids []int64
		for _, g := range got {
			ids = append(ids, g.ID)
			must(t, s.MarkNotificationSent(ctx, g.ID, now.Add(time.Minute)))
		}
		if !slices.Equal(ids, want) {
			t.Fatalf("%s: claimed %v, want %v", what, ids, want)
		}
		return n
	}
	one := round("behind one thousand held back")
	two := round("behind two thousand held back")
	if two > one+held/10 {
		t.Errorf("a claim's work: %d behind %d entries held back, %d behind %d: it grows with them", one, held, two, 2*held)
	}
	t.Logf("a claim's work: %d behind %d entries held back, %d behind %d", one, held, two, 2*held)
}
