package postgres_test

import (
	"context"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/postgres"
)

// TestSentinelNameLockWholeOwnerID: the lock an add or a rename of a
// sentinel holds on its owner's names is keyed on the whole owner id:
// while an add for one user waits in its transaction, an add or a rename
// for a user whose id differs from theirs only above bit 32 goes on. The
// lock was keyed on the id's low 32 bits (int32(owner)), so that the
// second waited for the first.
func TestSentinelNameLockWholeOwnerID(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 11, 1, 13, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		// second writes the names of high, whose sentinel is sn.
		second func(db *postgres.DB, high *vigil.User, sn *vigil.Sentinel) error
	}{
		{"an add", func(db *postgres.DB, high *vigil.User, _ *vigil.Sentinel) error {
			return db.CreateSentinel(ctx, &vigil.Sentinel{OwnerID: high.ID, Name: "added", Source: "x", Status: vigil.SentinelActive, NextCheck: at})
		}},
		{"a rename", func(db *postgres.DB, _ *vigil.User, sn *vigil.Sentinel) error {
			renamed := *sn
			renamed.Name = "renamed"
			return db.UpdateSentinels(ctx, []*vigil.Sentinel{&renamed})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, d := openDSN(t)
			app := applicationName(t, d)
			low := &vigil.User{Email: "low@example.com", Name: "Low", PasswordHash: "$argon2id$x"}
			if err := db.CreateUser(ctx, low); err != nil {
				t.Fatal(err)
			}
			conn, err := pgx.Connect(ctx, d)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(ctx)
			if _, err := conn.Exec(ctx, "SELECT setval(pg_get_serial_sequence('users', 'id'), $1, false)", low.ID+1<<32); err != nil {
				t.Fatal(err)
			}
			high := &vigil.User{Email: "high@example.com", Name: "High", PasswordHash: "$argon2id$x"}
			if err := db.CreateUser(ctx, high); err != nil {
				t.Fatal(err)
			}
			if high.ID != low.ID+1<<32 || int32(high.ID) != int32(low.ID) {
				t.Fatalf("user ids %d and %d; want them 2^32 apart", low.ID, high.ID)
			}
			sn := &vigil.Sentinel{OwnerID: high.ID, Name: "kept", Source: "x", Status: vigil.SentinelActive, NextCheck: at}
			if err := db.CreateSentinel(ctx, sn); err != nil {
				t.Fatal(err)
			}

			// The add for low holds low's name lock and waits at its
			// insert for low's row, which tx holds.
			tx, err := conn.Begin(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback(ctx)
			var holder int
			if err := tx.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&holder); err != nil {
				t.Fatal(err)
			}
			if _, err := tx.Exec(ctx, "SELECT id FROM users WHERE id = $1 FOR UPDATE", low.ID); err != nil {
				t.Fatal(err)
			}
			first := make(chan error, 1)
			go func() {
				first <- db.CreateSentinel(ctx, &vigil.Sentinel{OwnerID: low.ID, Name: "first", Source: "x", Status: vigil.SentinelActive, NextCheck: at})
			}()
			watch, err := pgx.Connect(ctx, d)
			if err != nil {
				t.Fatal(err)
			}
			defer watch.Close(ctx)
			adder := 0
			for adder == 0 {
				select {
				case err := <-first:
					t.Fatalf("the add for user %d did not wait for their row: %v", low.ID, err)
				case <-time.After(10 * time.Millisecond):
				}
				adder = blockedBy(t, watch, app, holder)
			}

			second := make(chan error, 1)
			go func() { second <- tc.second(db, high, sn) }()
			waited := false
			for done := false; !done && !waited; {
				select {
				case err := <-second:
					if err != nil {
						t.Errorf("%s for user %d beside an add for user %d: %v", tc.name, high.ID, low.ID, err)
					}
					done = true
				case <-time.After(10 * time.Millisecond):
					waited = blockedBy(t, watch, app, adder) != 0
				}
			}
			if waited {
				t.Errorf("%s for user %d waited for the add for user %d (ids 2^32 apart), which held the names of its owner", tc.name, high.ID, low.ID)
			}
			if err := tx.Rollback(ctx); err != nil {
				t.Fatal(err)
			}
			if err := <-first; err != nil {
				t.Errorf("the add for user %d: %v", low.ID, err)
			}
			if waited {
				if err := <-second; err != nil {
					t.Errorf("%s for user %d: %v", tc.name, high.ID, err)
				}
			}
		})
	}
}

// blockedBy returns, read through watch, the backend pid of a session of
// application app (this test's) that waits for a lock the session of
// backend pid holds, 0 if none does. The sessions of other tests are
// passed over: those of another package on the same server may wait for
// the same advisory lock (an owner of the same id in their own schema).
func blockedBy(t *testing.T, watch *pgx.Conn, app string, pid int) int {
	t.Helper()
	var p int
	err := watch.QueryRow(context.Background(), "SELECT coalesce(min(pid), 0) FROM pg_stat_activity WHERE application_name = $1 AND $2 = ANY(pg_blocking_pids(pid))", app, pid).Scan(&p)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// applicationName returns the application_name of the address d, which
// pgtest.Schema sets to each test's own.
func applicationName(t *testing.T, d string) string {
	t.Helper()
	cfg, err := pgx.ParseConfig(d)
	if err != nil {
		t.Fatal(err)
	}
	app := cfg.RuntimeParams["application_name"]
	if app == "" {
		t.Fatalf("address %q sets no application_name", d)
	}
	return app
}
