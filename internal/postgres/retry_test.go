package postgres_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/postgres"
)

// deadLetterOf stores a sentinel with one change and a dead letter of it.
func deadLetterOf(t *testing.T, db *postgres.DB) (*vigil.Sentinel, int64) {
	t.Helper()
	ctx := context.Background()
	u, sn, c := sentinelWithChange(t, db)
	n := &vigil.Notification{UserID: u.ID, ChangeID: c.ID, Channel: "webhook", Target: "https://hooks.example/x", Payload: json.RawMessage(`{}`)}
	err := db.EnqueueNotification(ctx, n)
	if err == nil {
		err = db.MarkNotificationDead(ctx, n.ID, "410 gone")
	}
	if err != nil {
		t.Fatal(err)
	}
	return sn, n.ID
}

// sentinelWithChange stores a user, a sentinel of theirs and one change
// it found.
func sentinelWithChange(t *testing.T, db *postgres.DB) (*vigil.User, *vigil.Sentinel, *vigil.Change) {
	t.Helper()
	ctx := context.Background()
	u := &vigil.User{Email: "ada@example.com", Name: "Ada", PasswordHash: "$argon2id$x"}
	sn := &vigil.Sentinel{Name: "s", Source: "x", Status: vigil.SentinelActive}
	c := &vigil.Change{ToVersion: 1, DetectedAt: time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)}
	err := db.CreateUser(ctx, u)
	if err == nil {
		sn.OwnerID = u.ID
		err = db.CreateSentinel(ctx, sn)
	}
	var r *vigil.Resource
	if err == nil {
		r, err = db.EnsureResource(ctx, "http://example.com/")
	}
	if err == nil {
		c.SentinelID, c.ResourceID = sn.ID, r.ID
		err = db.CreateChange(ctx, c)
	}
	if err != nil {
		t.Fatal(err)
	}
	return u, sn, c
}

// whileHeld runs first in a transaction of its own connection to d, then
// second in a goroutine, and commits the first transaction once second
// waits for one of its locks (or has ended without waiting). It returns
// second's error.
func whileHeld(t *testing.T, d string, first func(tx pgx.Tx) error, second func() error) error {
	t.Helper()
	return whileHeldThen(t, d, first, second, nil)
}

// whileHeldThen is whileHeld that runs then, if not nil, in the first
// transaction once second waits for it, before the commit: then may wait
// for a lock second holds, a deadlock if second holds it while waiting.
func whileHeldThen(t *testing.T, d string, first func(tx pgx.Tx) error, second func() error, then func(tx pgx.Tx) error) error {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	watch, err := pgx.Connect(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	defer watch.Close(ctx)
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	var pid int
	if err := tx.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
		t.Fatal(err)
	}
	if err := first(tx); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- second() }()
	for waiting := false; !waiting; {
		select {
		case err := <-done:
			// second did not wait for first: the race is lost.
			if cerr := tx.Commit(ctx); cerr != nil {
				t.Fatal(cerr)
			}
			return err
		case <-time.After(10 * time.Millisecond):
		}
		if err := watch.QueryRow(ctx, "SELECT count(*) > 0 FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))", pid).Scan(&waiting); err != nil {
			t.Fatal(err)
		}
	}
	if then != nil {
		if err := then(tx); err != nil {
			t.Fatalf("in the first transaction, once the second waited for it: %v", err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	return <-done
}

// TestRetryRacesSentinelRemoval: the retry of a dead letter and the
// removal of its sentinel, at the same time, leave no pending letter of
// a removed sentinel, whichever comes first. A retry that read the
// sentinel before a removal under way committed made the letter pending
// after it; a removal that began before a retry under way committed
// gave up the letters not yet sent without the retried one.
func TestRetryRacesSentinelRemoval(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 11, 1, 13, 0, 0, 0, time.UTC)
	t.Run("removal first", func(t *testing.T) {
		db, d := openDSN(t)
		sn, id := deadLetterOf(t, db)
		err := whileHeld(t, d, func(tx pgx.Tx) error {
			_, err := tx.Exec(ctx, "DELETE FROM sentinels WHERE id = $1", sn.ID)
			return err
		}, func() error {
			return db.RetryNotification(ctx, id, vigil.NotificationRetry{At: at, SentinelID: sn.ID})
		})
		if vigil.ErrorCode(err) != vigil.ECONFLICT {
			t.Errorf("retry while the sentinel was being removed: %v, want ECONFLICT", err)
		}
		if n, err := db.FindNotificationByID(ctx, id); err != nil || n.State != vigil.NotificationDead {
			t.Errorf("after: %+v %v; want a dead letter", n, err)
		}
	})
	t.Run("retry first", func(t *testing.T) {
		db, d := openDSN(t)
		sn, id := deadLetterOf(t, db)
		err := whileHeld(t, d, func(tx pgx.Tx) error {
			// What RetryNotification does, up to its commit.
			if _, err := tx.Exec(ctx, "SELECT 1 FROM sentinels WHERE id = $1 FOR KEY SHARE", sn.ID); err != nil {
				return err
			}
			_, err := tx.Exec(ctx, "UPDATE notifications SET state = 'pending', attempts = 0 WHERE id = $1", id)
			return err
		}, func() error { return db.DeleteSentinel(ctx, sn.ID) })
		if err != nil {
			t.Fatal(err)
		}
		if n, err := db.FindNotificationByID(ctx, id); err != nil || n.State != vigil.NotificationDead || n.LastError != vigil.SentinelRemoved {
			t.Errorf("after: %+v %v; want the retried letter given up (%q)", n, err, vigil.SentinelRemoved)
		}
	})
}

// TestRetriesMovedToOneTarget: two dead letters of one change, whose
// targets were both replaced by one, retried at the same time, send the
// change there once: the second retry waits for the first and then finds
// its letter there (its sibling), and is refused. Each looked for a
// sibling before the other committed, and both were sent.
func TestRetriesMovedToOneTarget(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 11, 1, 13, 0, 0, 0, time.UTC)
	const c = "https://hooks.example/c"
	db, d := openDSN(t)
	sn, first := deadLetterOf(t, db)
	n, err := db.FindNotificationByID(ctx, first)
	if err != nil {
		t.Fatal(err)
	}
	n.Target = "https://hooks.example/b"
	if err := db.EnqueueNotification(ctx, n); err != nil {
		t.Fatal(err)
	}
	if err := db.MarkNotificationDead(ctx, n.ID, "410 gone"); err != nil {
		t.Fatal(err)
	}
	second := n.ID
	err = whileHeld(t, d, func(tx pgx.Tx) error {
		// What RetryNotification does, up to its commit, for the first.
		if _, err := tx.Exec(ctx, "SELECT 1 FROM sentinels WHERE id = $1 FOR KEY SHARE", sn.ID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "SELECT 1 FROM notifications WHERE id = $1 FOR UPDATE", first); err != nil {
			return err
		}
		query, args := postgres.RetargetLockQuery(c)
		if _, err := tx.Exec(ctx, query, args...); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, "UPDATE notifications SET state = 'pending', attempts = 0, target = $2 WHERE id = $1", first, c)
		return err
	}, func() error {
		return db.RetryNotification(ctx, second, vigil.NotificationRetry{At: at, SentinelID: sn.ID, Target: c})
	})
	if vigil.ErrorCode(err) != vigil.ECONFLICT {
		t.Errorf("the second retry to %s while the first was under way: %v, want ECONFLICT", c, err)
	}
	if n, err := db.FindNotificationByID(ctx, second); err != nil || n.State != vigil.NotificationDead || n.Target != "https://hooks.example/b" {
		t.Errorf("after: %+v %v; want the second letter dead to its own target", n, err)
	}
}
