package postgres_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestClaimNotificationsTwoDaemons: of two claims at once (two daemons
// sharing the database) of the entries to one address, one takes the
// first of them, and the other none: the entries the first claims hold
// back those after them. The second, reading the table as it was before
// the first committed, skipped the entries the first had locked and took
// the next ones, delivered at once by the other daemon.
func TestClaimNotificationsTwoDaemons(t *testing.T) {
	db, _ := openDSN(t)
	ctx := context.Background()
	u := &vigil.User{Email: "ada@example.com", Name: "Ada", PasswordHash: "$argon2id$x"}
	if err := db.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	for round := range 30 {
		now = now.Add(time.Hour)
		for range 8 {
			n := &vigil.Notification{UserID: u.ID, Channel: "email", Target: "x@y", Payload: json.RawMessage(`{}`), NextAttempt: now}
			if err := db.EnqueueNotification(ctx, n); err != nil {
				t.Fatal(err)
			}
		}
		var got [2][]*vigil.Notification
		var errs [2]error
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				got[i], errs[i] = db.ClaimNotifications(ctx, now, time.Minute, 4)
			}()
		}
		close(start)
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		if len(got[0]) > 0 && len(got[1]) > 0 {
			t.Fatalf("round %d: both claims took entries to one address: %d and %d", round, len(got[0]), len(got[1]))
		}
		// Every entry of the round sent, for the next round.
		for _, batch := range [][]*vigil.Notification{got[0], got[1]} {
			for _, n := range batch {
				if err := db.MarkNotificationSent(ctx, n.ID, now); err != nil {
					t.Fatal(err)
				}
			}
		}
		for {
			rest, err := db.ClaimNotifications(ctx, now, time.Minute, 10)
			if err != nil {
				t.Fatal(err)
			}
			if len(rest) == 0 {
				break
			}
			for _, n := range rest {
				if err := db.MarkNotificationSent(ctx, n.ID, now); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
