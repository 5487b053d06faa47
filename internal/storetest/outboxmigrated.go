package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// OutboxMigratedNow is the time of the outbox OutboxBeforeQueue lists.
var OutboxMigratedNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// OutboxRow is an entry of an outbox written before a migration, to
// the store's own table: its NextAttempt is OutboxMigratedNow plus Due.
type OutboxRow struct {
	Target   string
	State    vigil.NotificationState
	Attempts int
	Due      time.Duration
}

// OutboxBeforeQueue is an outbox a store left before the entries had
// places in the queue and candidate heads (SQLite's 0119, PostgreSQL's
// 0115), its entries written in order, the i-th given id i+1, to channel
// "email", of no user and no change: to four addresses, sent ones, one
// failed and waiting for its retry, one under the lease of a worker
// (pending, due later, counted an attempt), dead ones, and due ones held
// back behind them or not.
var OutboxBeforeQueue = []OutboxRow{
	{"a@x", vigil.NotificationSent, 1, -time.Hour},
	{"a@x", vigil.NotificationFailed, 2, 10 * time.Minute},
	{"b@x", vigil.NotificationPending, 1, 5 * time.Minute},
	{"a@x", vigil.NotificationPending, 0, -time.Hour},
	{"c@x", vigil.NotificationDead, 5, -time.Hour},
	{"b@x", vigil.NotificationFailed, 2, -time.Minute},
	{"d@x", vigil.NotificationPending, 0, -time.Hour},
	{"a@x", vigil.NotificationDead, 5, -time.Hour},
	{"c@x", vigil.NotificationPending, 0, -time.Hour},
	{"b@x", vigil.NotificationPending, 0, -time.Hour},
	{"d@x", vigil.NotificationPending, 0, -time.Hour},
	{"a@x", vigil.NotificationPending, 0, -time.Hour},
}

// CheckOutboxMigrated checks the outbox of s, OutboxBeforeQueue migrated:
// a claim takes the due entries no earlier undelivered one to their
// address holds back; claims, each entry taken recorded sent, deliver
// every undelivered entry, each address's in the order they were queued,
// and then the dead letters retried.
func CheckOutboxMigrated(t *testing.T, s vigil.OutboxStore) {
	t.Helper()
	ctx := context.Background()
	now := OutboxMigratedNow
	delivered := map[string][]int64{}
	claim := func(at time.Time, limit int) []int64 {
		t.Helper()
		got, err := s.ClaimNotifications(ctx, at, time.Minute, limit)
		if err != nil {
			t.Fatalf("claim at %v: %v", at, err)
		}
		var ids []int64
		for _, n := range got {
			ids = append(ids, n.ID)
			delivered[n.Target] = append(delivered[n.Target], n.ID)
			if err := s.MarkNotificationSent(ctx, n.ID, at); err != nil {
				t.Fatalf("sent %d: %v", n.ID, err)
			}
		}
		return ids
	}
	// a@x waits for 2's retry, b@x for 3's lease.
	if got, want := claim(now, 10), []int64{7, 9, 11}; !slices.Equal(got, want) {
		t.Fatalf("the first claim after the migration: %v, want %v", got, want)
	}
	for at := now.Add(time.Minute); at.Before(now.Add(time.Hour)); at = at.Add(time.Minute) {
		claim(at, 2)
	}
	for _, id := range []int64{5, 8} {
		if err := s.RetryNotification(ctx, id, vigil.NotificationRetry{At: now.Add(time.Hour)}); err != nil {
			t.Fatalf("retry %d: %v", id, err)
		}
	}
	for at := now.Add(time.Hour); at.Before(now.Add(2 * time.Hour)); at = at.Add(time.Minute) {
		claim(at, 2)
	}
	want := map[string][]int64{"a@x": {2, 4, 12, 8}, "b@x": {3, 6, 10}, "c@x": {9, 5}, "d@x": {7, 11}}
	if fmt.Sprint(delivered) != fmt.Sprint(want) {
		t.Errorf("delivered, by address: %v, want %v", delivered, want)
	}
}
