package sqlite_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
)

// TestClaimSkipsHeldBack: a claim reads none of the entries held back
// behind an address's first one, which waits for its retry: its
// statements search indexes, scanning none but notifications_heads, whose
// candidates are, once a claim has read them, the first undelivered entry
// of each address. A claim read every held-back entry that was due, in
// queue order, before the ones it could take (100-130 ms in the write
// transaction behind 100 000 of them).
func TestClaimSkipsHeldBack(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
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
	for range 2000 {
		enqueue("x@y")
	}
	var others []int64
	for range 3 {
		others = append(others, enqueue("other@y"))
	}
	got, err := db.ClaimNotifications(ctx, now.Add(time.Minute), time.Minute, 10)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, n := range got {
		ids = append(ids, n.ID)
	}
	if !slices.Equal(ids, others) {
		t.Fatalf("claim behind the held-back entries: %v, want %v", ids, others)
	}

	c, err := sql.Open("sqlite", "file:"+filepath.Join(dir, sqlite.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	heads := false
	for _, query := range sqlite.OutboxClaimStatements {
		args := make([]any, strings.Count(query, "?"))
		for i := range args {
			args[i] = 1
		}
		rows, err := c.QueryContext(ctx, "EXPLAIN QUERY PLAN "+query, args...)
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
			heads = heads || strings.Contains(detail, "notifications_heads")
			if strings.HasPrefix(detail, "SCAN ") && !strings.Contains(detail, "INDEX notifications_heads") {
				t.Errorf("a claim's statement scans: %s\n%s", detail, query)
			}
		}
		if err := rows.Close(); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s", strings.Join(plan, "; "))
	}
	if !heads {
		t.Errorf("no claim statement reads notifications_heads")
	}
	// The candidates the claim read: the first undelivered entry of each
	// address, the failed one and the first other one (claimed).
	var n int
	if err := c.QueryRowContext(ctx, "SELECT count(*) FROM notifications INDEXED BY notifications_heads WHERE head = 1 AND state IN ('pending', 'failed')").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 2 {
		t.Errorf("%d candidate heads after the claim, want 2 (one per address)", n)
	}
}
