package storetest

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// testOutboxHeadRemoved: the entries of two users to one address
// (channel and target), queued in turn, the first under a worker's
// lease; the removal of the first user deletes that entry and the first
// user's others, and the second's entries are claimed, in queue order:
// the next undelivered entry after a deleted one becomes its address's
// head, by whatever statement deletes it (a cascade from the user).
func testOutboxHeadRemoved(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	ada, bob := newUser(t, s, "ada@example.com"), newUser(t, s, "bob@example.com")
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	var bobs []int64
	for i, u := range []*vigil.User{ada, bob, ada, bob, ada} {
		n := &vigil.Notification{UserID: u.ID, Channel: "email", Target: "x@y", Payload: json.RawMessage(`{}`), NextAttempt: now}
		must(t, s.EnqueueNotification(ctx, n))
		if i%2 == 1 {
			bobs = append(bobs, n.ID)
		}
	}
	got, err := s.ClaimNotifications(ctx, now, time.Hour, 1)
	must(t, err)
	if len(got) != 1 {
		t.Fatalf("first claim: %d entries, want 1", len(got))
	}
	must(t, s.DeleteUser(ctx, ada.ID))
	got, err = s.ClaimNotifications(ctx, now.Add(time.Minute), time.Minute, 10)
	must(t, err)
	var ids []int64
	for _, n := range got {
		ids = append(ids, n.ID)
	}
	if !slices.Equal(ids, bobs) {
		t.Errorf("the claim once the first user was removed: %v, want %v (the second's, in queue order)", ids, bobs)
	}
}
