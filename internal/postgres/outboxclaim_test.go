package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/postgres"
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

// TestClaimWhileLateRecord: a claim made after an entry's lease ran out,
// while its worker still records its failure (its transaction holds the
// entry's row), hands out no later entry to its address: it waits for the
// record, and then holds the address back until the entry's retry. The
// claim skipped the row the record held (SKIP LOCKED), read the entry as
// due (its lease over), and took the next entry to its address, delivered
// before the failed one.
func TestClaimWhileLateRecord(t *testing.T) {
	d, schema := newSchema(t)
	ctx := context.Background()
	db, err := postgres.Open(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	u := &vigil.User{Email: "ada@example.com", Name: "Ada", PasswordHash: "$argon2id$x"}
	if err := db.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	var ids []int64
	for range 2 {
		n := &vigil.Notification{UserID: u.ID, Channel: "email", Target: "x@y", Payload: json.RawMessage(`{}`), NextAttempt: now}
		if err := db.EnqueueNotification(ctx, n); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, n.ID)
	}
	first, err := db.ClaimNotifications(ctx, now, time.Minute, 1)
	if err != nil || len(first) != 1 || first[0].ID != ids[0] {
		t.Fatalf("first claim: %v, %v; want entry %d", first, err, ids[0])
	}

	// The worker records its failure once its lease has run out; its
	// transaction is under way (MarkNotificationFailed's statement).
	worker, err := pgx.Connect(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	defer worker.Close(ctx)
	watch, err := pgx.Connect(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	defer watch.Close(ctx)
	rec, err := worker.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer rec.Rollback(ctx)
	retry := now.Add(time.Hour)
	if _, err := rec.Exec(ctx, `UPDATE notifications SET last_error = '451 try again later', state = 'failed',
		next_attempt = $1 WHERE id = $2`, retry, ids[0]); err != nil {
		t.Fatal(err)
	}

	type result struct {
		got []*vigil.Notification
		err error
	}
	claimed := make(chan result, 1)
	go func() {
		got, err := db.ClaimNotifications(ctx, now.Add(2*time.Minute), time.Minute, 10)
		claimed <- result{got, err}
	}()
	// Either the claim answers at once, or it waits for the record's row.
	waiting := false
	for deadline := time.Now().Add(30 * time.Second); !waiting; {
		select {
		case r := <-claimed:
			t.Fatalf("a claim while the first entry's failure was recorded took %v (%v) without waiting for it; want none of %v", notificationIDs(r.got), r.err, ids)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("the claim neither answered nor waited for the record")
		}
		waiting = rowLockWaiting(t, watch, schema)
		time.Sleep(5 * time.Millisecond)
	}
	if err := rec.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	r := <-claimed
	if r.err != nil || len(r.got) != 0 {
		t.Fatalf("a claim while the first entry's failure was recorded: %v, %v; want none (it waits for its retry)", notificationIDs(r.got), r.err)
	}
	n, err := db.FindNotificationByID(ctx, ids[0])
	if err != nil {
		t.Fatal(err)
	}
	if n.State != vigil.NotificationFailed || !n.NextAttempt.Equal(retry) || n.Attempts != 1 {
		t.Fatalf("the failed entry: %s, next %v, %d attempts; want failed, next %v, 1 attempt", n.State, n.NextAttempt, n.Attempts, retry)
	}
	again, err := db.ClaimNotifications(ctx, retry, time.Minute, 10)
	if err != nil || !slices.Equal(notificationIDs(again), ids) {
		t.Fatalf("a claim at the retry: %v, %v; want %v", notificationIDs(again), err, ids)
	}
}

// rowLockWaiting reports whether a session of schema's tests (its
// application_name) waits for a row's lock (for the transaction that
// holds it), read by c, a connection in no transaction: a session reads
// pg_stat_activity once a transaction.
func rowLockWaiting(t *testing.T, c *pgx.Conn, schema string) bool {
	t.Helper()
	var waiting bool
	err := c.QueryRow(context.Background(), `SELECT count(*) > 0 FROM pg_stat_activity
		WHERE application_name = $1 AND state = 'active' AND wait_event IN ('transactionid', 'tuple')`, schema).Scan(&waiting)
	if err != nil {
		t.Fatal(err)
	}
	return waiting
}

// notificationIDs returns the ids of ns.
func notificationIDs(ns []*vigil.Notification) []int64 {
	var ids []int64
	for _, n := range ns {
		ids = append(ids, n.ID)
	}
	return ids
}

// TestOutboxClaimByIndex: a claim reads the outbox's heads by the index
// notifications_heads, and the entries to an address by the index
// notifications_address, each in queue order from a place, not sorted,
// so that it stops at the few it reads: among 20,000 entries to 200
// addresses, most of them sent, with statistics or without (a bulk
// import, a new store). Without statistics, and without the claim's
// settings (claimSettings), the planner read every head by a bitmap of
// the index and sorted them.
func TestOutboxClaimByIndex(t *testing.T) {
	const n, addresses = 20000, 200
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	for _, analyse := range []bool{true, false} {
		t.Run(fmt.Sprintf("analyse=%v", analyse), func(t *testing.T) {
			ctx := context.Background()
			_, d := openDSN(t)
			conn, err := pgx.Connect(ctx, d)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(ctx)
			// The i-th entry to address i mod addresses; the first three
			// quarters sent, the rest pending and due, the first to each
			// address its head.
			if _, err := conn.Exec(ctx, `INSERT INTO notifications (channel, target, payload, state, attempts, next_attempt, last_error, created_at, sent_at)
				SELECT 'email', 'a' || (i % $1) || '@example.com', '{}', CASE WHEN i < $2 * 3 / 4 THEN 'sent' ELSE 'pending' END, 0, $3, '', $3, $3
				FROM generate_series(0, $2 - 1) AS i`, addresses, n, now); err != nil {
				t.Fatal(err)
			}
			if _, err := conn.Exec(ctx, `UPDATE notifications SET head = true WHERE id IN (
				SELECT DISTINCT ON (channel, target) id FROM notifications WHERE state IN ('pending', 'failed')
				ORDER BY channel, target, coalesce(requeued, id))`); err != nil {
				t.Fatal(err)
			}
			if analyse {
				if _, err := conn.Exec(ctx, "ANALYZE notifications"); err != nil {
					t.Fatal(err)
				}
			}
			cases := []struct {
				name, query, index string
				args               []any
			}{
				{"heads", postgres.OutboxHeadsQuery(), "notifications_heads", []any{now, int64(-1 << 63), 16}},
				{"an address's entries", postgres.OutboxQueueQuery(), "notifications_address",
					[]any{now, "email", "a7@example.com", "a7@example.com", int64(n * 3 / 4), 16}},
			}
			// In a claim's transaction, under its settings.
			tx, err := conn.Begin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback(ctx)
			if _, err := tx.Exec(ctx, postgres.ClaimSettings); err != nil {
				t.Fatal(err)
			}
			for _, c := range cases {
				p := explain(t, tx, c.query, c.args...)
				if !strings.Contains(p, "Index Scan using "+c.index) || !strings.Contains(p, "Index Cond") || strings.Contains(p, "Sort") {
					t.Errorf("%s: plan\n%s\nwant a scan of the index %s, searched from the place, read in order, no sort", c.name, p, c.index)
				}
			}
		})
	}
}
