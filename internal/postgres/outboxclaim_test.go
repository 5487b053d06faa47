package postgres_test

import (
	"context"
	"encoding/json"
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

// TestClaimSkipsHeldBack: a claim reads none of the entries held back
// behind an address's first one, which waits for its retry: its
// statements' scans read (their rows, and those their filters removed)
// a few rows, not the 2000 held back. A claim read every held-back entry
// that was due, in queue order, before the ones it could take (some 50 ms
// behind 100 000 of them).
func TestClaimSkipsHeldBack(t *testing.T) {
	d, _ := newSchema(t)
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
	enqueue := func(target string) int64 {
		t.Helper()
		n := &vigil.Notification{UserID: u.ID, Channel: "email", Target: target, Payload: json.RawMessage(`{}`), NextAttempt: now}
		if err := db.EnqueueNotification(ctx, n); err != nil {
			t.Fatal(err)
		}
		return n.ID
	}
	first := enqueue("x@y")
	if got, err := db.ClaimNotifications(ctx, now, time.Minute, 10); err != nil || len(got) != 1 {
		t.Fatalf("first claim: %d, %v", len(got), err)
	}
	if err := db.MarkNotificationFailed(ctx, first, "451 try again later", now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	c, err := pgx.Connect(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	// 2000 entries queued as EnqueueNotification queues them, at once.
	if _, err := c.Exec(ctx, `INSERT INTO notifications (user_id, channel, target, payload, state, attempts, next_attempt,
		last_error, created_at, sent_at) SELECT $1, 'email', 'x@y', '\x7b7d', 'pending', 0, $2, '', $2, $3
		FROM generate_series(1, 2000)`, u.ID, now, time.Time{}); err != nil {
		t.Fatal(err)
	}
	var others []int64
	for range 3 {
		others = append(others, enqueue("other@y"))
	}
	at := now.Add(time.Minute)
	got, err := db.ClaimNotifications(ctx, at, time.Minute, 10)
	if err != nil || !slices.Equal(notificationIDs(got), others) {
		t.Fatalf("claim behind the held-back entries: %v, %v; want %v", notificationIDs(got), err, others)
	}
	for _, id := range others {
		if err := db.MarkNotificationSent(ctx, id, at); err != nil {
			t.Fatal(err)
		}
	}
	others = others[:0]
	for range 3 {
		others = append(others, enqueue("other@y"))
	}

	if _, err := c.Exec(ctx, "ANALYZE notifications"); err != nil {
		t.Fatal(err)
	}
	for _, st := range postgres.OutboxClaimStatements(at, "email", "other@y", 10) {
		var plan []struct{ Plan planNode }
		if err := c.QueryRow(ctx, "EXPLAIN (ANALYZE, FORMAT JSON) "+st.Query, st.Args...).Scan(&plan); err != nil {
			t.Fatal(err)
		}
		read := plan[0].Plan.rowsRead()
		if read > 50 {
			t.Errorf("a claim's statement read %.0f rows, want a few:\n%s", read, st.Query)
		}
		t.Logf("%.0f rows read by %s", read, st.Query)
	}
	got, err = db.ClaimNotifications(ctx, at, time.Minute, 10)
	if err != nil || !slices.Equal(notificationIDs(got), others) {
		t.Fatalf("the next claim: %v, %v; want %v", notificationIDs(got), err, others)
	}
}

// planNode is a node of a plan that EXPLAIN (ANALYZE, FORMAT JSON) gives.
type planNode struct {
	NodeType         string     `json:"Node Type"`
	ActualRows       float64    `json:"Actual Rows"`
	ActualLoops      float64    `json:"Actual Loops"`
	RemovedByFilter  float64    `json:"Rows Removed by Filter"`
	RemovedByRecheck float64    `json:"Rows Removed by Index Recheck"`
	Plans            []planNode `json:"Plans"`
}

// rowsRead returns the rows that the scans of the plan read: those they
// gave, and those their filters removed, in every loop.
func (p planNode) rowsRead() float64 {
	var n float64
	if strings.HasSuffix(p.NodeType, "Scan") {
		n = (p.ActualRows + p.RemovedByFilter + p.RemovedByRecheck) * p.ActualLoops
	}
	for _, c := range p.Plans {
		n += c.rowsRead()
	}
	return n
}

// TestClaimWhileHeadLeaves: a claim that reads an entry as no head (an
// earlier one to its address undelivered) while a worker records that
// earlier one sent (its transaction marked the entry the next head)
// leaves the entry a head: it waits for the record and reads the table
// again before it takes the candidacy away. Taken away on the claim's
// first look, the entry was no head once the earlier one was sent, and
// no claim took it again.
func TestClaimWhileHeadLeaves(t *testing.T) {
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
	first, err := db.ClaimNotifications(ctx, now, time.Hour, 1)
	if err != nil || !slices.Equal(notificationIDs(first), ids[:1]) {
		t.Fatalf("first claim: %v, %v; want %v", notificationIDs(first), err, ids[:1])
	}

	// The worker records the first sent; its transaction is under way
	// (MarkNotificationSent's statement).
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
	if _, err := rec.Exec(ctx, `UPDATE notifications SET state = 'sent', sent_at = $1, last_error = '' WHERE id = $2`, now, ids[0]); err != nil {
		t.Fatal(err)
	}
	type result struct {
		got []*vigil.Notification
		err error
	}
	claimed := make(chan result, 1)
	go func() {
		got, err := db.ClaimNotifications(ctx, now.Add(time.Minute), time.Minute, 10)
		claimed <- result{got, err}
	}()
	// The claim reads the first as under its lease, and the second as no
	// head: it waits for the record's lock on the second.
	waiting := false
	for deadline := time.Now().Add(30 * time.Second); !waiting; {
		select {
		case r := <-claimed:
			t.Fatalf("a claim while the first entry was recorded sent took %v (%v) without waiting for the record", notificationIDs(r.got), r.err)
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
	if r := <-claimed; r.err != nil || len(r.got) != 0 {
		t.Fatalf("the claim while the first was recorded sent: %v, %v; want none (it read the first under its lease)", notificationIDs(r.got), r.err)
	}
	again, err := db.ClaimNotifications(ctx, now.Add(2*time.Minute), time.Minute, 10)
	if err != nil || !slices.Equal(notificationIDs(again), ids[1:]) {
		t.Fatalf("the next claim: %v, %v; want %v", notificationIDs(again), err, ids[1:])
	}
}
