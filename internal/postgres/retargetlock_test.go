package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/postgres"
)

// TestRetargetLockWholeTarget: a retry to a new target does not wait
// for a retry under way to another target whose 32-bit hashtext is the
// same. The lock was keyed on hashtext(target), so that it did.
func TestRetargetLockWholeTarget(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 11, 1, 13, 0, 0, 0, time.UTC)
	// Two targets of one hashtext, found among https://hooks.example/N.
	const held, moved = "https://hooks.example/5305", "https://hooks.example/371555"
	db, d := openDSN(t)
	app := applicationName(t, d)
	sn, id := deadLetterOf(t, db)
	conn, err := pgx.Connect(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var same bool
	if err := conn.QueryRow(ctx, "SELECT hashtext($1) = hashtext($2)", held, moved).Scan(&same); err != nil || !same {
		t.Fatalf("hashtext of %s and %s equal: %v, %v; want true", held, moved, same, err)
	}
	watch, err := pgx.Connect(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	defer watch.Close(ctx)

	// A retry to held under way: it holds held's lock.
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	var holder int
	if err := tx.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&holder); err != nil {
		t.Fatal(err)
	}
	query, args := postgres.RetargetLockQuery(held)
	if _, err := tx.Exec(ctx, query, args...); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		done <- db.RetryNotification(ctx, id, vigil.NotificationRetry{At: at, SentinelID: sn.ID, Target: moved})
	}()
	waited := false
	for finished := false; !finished && !waited; {
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("retry to %s: %v", moved, err)
			}
			finished = true
		case <-time.After(10 * time.Millisecond):
			waited = blockedBy(t, watch, app, holder) != 0
		}
	}
	if waited {
		t.Errorf("the retry to %s waited for a retry to %s under way", moved, held)
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if waited {
		if err := <-done; err != nil {
			t.Errorf("retry to %s: %v", moved, err)
		}
	}
	if n, err := db.FindNotificationByID(ctx, id); err != nil || n.State != vigil.NotificationPending || n.Target != moved {
		t.Errorf("after: %+v %v; want it pending to %s", n, err, moved)
	}
}
