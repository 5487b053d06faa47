package postgres_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/postgres"
)

// TestRecordChecksLockOrder: the checks of a batch lock their sentinels
// (and those they wake) in id order, as an edit saved with the sentinels
// using it (UpdateSentinels) does, so that the two never deadlock. The
// batch locked them in the order of its records: holding a later
// sentinel while it waited for an earlier one that an edit held, the
// edit waiting for the later one, PostgreSQL broke the deadlock by
// failing one of them, the edit or the checks' record.
func TestRecordChecksLockOrder(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 11, 1, 13, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		recs func(low, high int64) []*vigil.CheckRecord
	}{
		{"records out of order", func(low, high int64) []*vigil.CheckRecord {
			return []*vigil.CheckRecord{{SentinelID: high, CheckedAt: at, NextCheck: at}, {SentinelID: low, CheckedAt: at, NextCheck: at}}
		}},
		{"an earlier one woken", func(low, high int64) []*vigil.CheckRecord {
			return []*vigil.CheckRecord{{SentinelID: high, CheckedAt: at, NextCheck: at, Wake: []int64{low}}}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, d := openDSN(t)
			u := &vigil.User{Email: "ada@example.com", Name: "Ada", PasswordHash: "$argon2id$x"}
			if err := db.CreateUser(ctx, u); err != nil {
				t.Fatal(err)
			}
			var ids []int64
			for _, name := range []string{"low", "high"} {
				sn := &vigil.Sentinel{OwnerID: u.ID, Name: name, Source: "x", Status: vigil.SentinelActive, NextCheck: at.Add(time.Hour)}
				if err := db.CreateSentinel(ctx, sn); err != nil {
					t.Fatal(err)
				}
				ids = append(ids, sn.ID)
			}
			low, high := ids[0], ids[1]
			// What UpdateSentinels does for an edit and its user: low, then high.
			edit := func(id int64) func(tx pgx.Tx) error {
				return func(tx pgx.Tx) error {
					_, err := tx.Exec(ctx, "UPDATE sentinels SET source = 'edited' WHERE id = $1", id)
					return err
				}
			}
			err := whileHeldThen(t, d, edit(low), func() error { return db.RecordChecks(ctx, tc.recs(low, high)) }, edit(high))
			if err != nil {
				t.Fatalf("checks recorded while an edit held their sentinels: %v", err)
			}
			for _, id := range ids {
				if sn, err := db.FindSentinelByID(ctx, id); err != nil || sn.Source != "edited" {
					t.Errorf("sentinel %d after: %+v %v; want the edit saved", id, sn, err)
				}
			}
		})
	}
}

// TestRecordChecksImportanceLockOrder: a batch's page importances are
// written in one statement that locks their resources in id order, as one
// UPDATE per resource in id order did, whatever order the rows lie in on
// disk: the lower row's latest version is written after the higher one,
// which a scan of the table reads first. Held by another transaction that
// then writes the higher one, a batch that had locked the higher row
// first would deadlock with it, and PostgreSQL would fail one of them.
// The table holds more rows than the batch, its statistics gathered, so
// that an UPDATE joined to the arrays alone scans it (in that order on
// disk) and probes the arrays: with two rows and no statistics it probes
// the table by id in the arrays' order, sorted, and such an UPDATE, which
// deadlocks here, passed.
func TestRecordChecksImportanceLockOrder(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 11, 1, 13, 0, 0, 0, time.UTC)
	db, d := openDSN(t)
	_, sn := userWithSentinel(t, db, at)
	var ids []int64
	for _, name := range []string{"low", "high"} {
		r, err := db.EnsureResource(ctx, "http://example.com/"+name)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.ID)
	}
	low, high := ids[0], ids[1]
	// More rows than the batch writes, so that a plan reading the table
	// and probing the arrays (the one PostgreSQL picks for a table
	// larger than the batch) would read high before low.
	for i := range 8 {
		if _, err := db.EnsureResource(ctx, fmt.Sprintf("http://example.com/other%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	setImportance(t, d, "resources", low, "0.125") // its live version after high's
	analyze(t, d, "resources")
	write := func(id int64) func(tx pgx.Tx) error {
		return func(tx pgx.Tx) error {
			_, err := tx.Exec(ctx, "UPDATE resources SET importance = 0.5 WHERE id = $1", id)
			return err
		}
	}
	rec := &vigil.CheckRecord{SentinelID: sn.ID, CheckedAt: at, NextCheck: at.Add(time.Hour),
		Importance: []vigil.PageImportance{{ResourceID: high, Importance: 0.75}, {ResourceID: low, Importance: 0.25}}}
	err := whileHeldThen(t, d, write(low), func() error { return db.RecordChecks(ctx, []*vigil.CheckRecord{rec}) }, write(high))
	if err != nil {
		t.Fatalf("checks recorded while another transaction held their resources: %v", err)
	}
	for id, want := range map[int64]float64{low: 0.25, high: 0.75} { // the batch's, written after the other's
		if r, err := db.FindResourceByID(ctx, id); err != nil || r.Importance != want {
			t.Errorf("resource %d after: %+v %v; want importance %v", id, r, err, want)
		}
	}
}

// userWithSentinel stores a user and an active sentinel of theirs, due
// at at.
func userWithSentinel(t *testing.T, db *postgres.DB, at time.Time) (*vigil.User, *vigil.Sentinel) {
	t.Helper()
	ctx := context.Background()
	u := &vigil.User{Email: "ada@example.com", Name: "Ada", PasswordHash: "$argon2id$x"}
	if err := db.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	sn := &vigil.Sentinel{OwnerID: u.ID, Name: "s", Source: "x", Status: vigil.SentinelActive, NextCheck: at}
	if err := db.CreateSentinel(ctx, sn); err != nil {
		t.Fatal(err)
	}
	return u, sn
}

// analyze gathers the statistics of table, so that the planner knows its
// rows outnumber a batch's and reads it whole rather than probing it by
// id, in the order its rows lie on disk.
func analyze(t *testing.T, d, table string) {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	if _, err := c.Exec(ctx, "ANALYZE "+table); err != nil {
		t.Fatal(err)
	}
}

// TestRecordChecksUserLockOrder: checks that queue messages lock the
// messages' users before their sentinels, as a user's removal
// (DeleteUser) locks the user and then its sentinels, so that the two
// never deadlock. The checks locked their sentinels first and the users
// after (the messages' foreign key, then lockOutboxFor): holding the
// user's sentinel while they waited for the user, which the removal held
// while it waited for the sentinel, PostgreSQL broke the deadlock by
// failing one of them, the removal or the checks' record.
func TestRecordChecksUserLockOrder(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 11, 1, 13, 0, 0, 0, time.UTC)
	db, d := openDSN(t)
	u, sn := userWithSentinel(t, db, at)
	rec := &vigil.CheckRecord{SentinelID: sn.ID, CheckedAt: at, NextCheck: at.Add(time.Hour),
		Notifications: []*vigil.Notification{{UserID: u.ID, Channel: "email", Target: "ada@example.com", Payload: json.RawMessage(`{}`)}}}
	// What DeleteUser locks: the user, then its sentinels.
	err := whileHeldThen(t, d, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "SELECT id FROM users WHERE id = $1 FOR UPDATE", u.ID)
		return err
	}, func() error { return db.RecordChecks(ctx, []*vigil.CheckRecord{rec}) }, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "SELECT id FROM sentinels WHERE owner_id = $1 ORDER BY id FOR UPDATE", u.ID)
		return err
	})
	if err != nil {
		t.Fatalf("checks recorded while a user's removal held the user: %v", err)
	}
	if _, total, err := db.FindNotifications(ctx, vigil.NotificationFilter{UserID: u.ID}); err != nil || total != 1 {
		t.Errorf("messages after: %d %v; want the one queued", total, err)
	}
}

// TestRecordChecksClaimLockLast: checks that queue messages take the
// claims' lock (lockOutbox) last, once the rest of their record is
// written, so that while they wait for a row another transaction holds
// (a resource an archive's import appends to, FOR UPDATE, for as long as
// the import lasts) no claim of the outbox and no delivery recorded
// waits with them. They took it before their changes and pages: every
// claim and every message sent, of every daemon, waited for the import.
func TestRecordChecksClaimLockLast(t *testing.T) {
	ctx := context.Background()
	at := time.Date(2026, 11, 1, 13, 0, 0, 0, time.UTC)
	db, d := openDSN(t)
	u, sn := userWithSentinel(t, db, at)
	r, err := db.EnsureResource(ctx, "http://example.com/")
	if err != nil {
		t.Fatal(err)
	}
	rec := &vigil.CheckRecord{SentinelID: sn.ID, CheckedAt: at, NextCheck: at.Add(time.Hour),
		Importance:    []vigil.PageImportance{{ResourceID: r.ID, Importance: 0.5}},
		Notifications: []*vigil.Notification{{UserID: u.ID, Channel: "email", Target: "ada@example.com", Payload: json.RawMessage(`{}`)}}}
	watch, err := pgx.Connect(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	defer watch.Close(ctx)
	err = whileHeldThen(t, d, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, "SELECT id FROM resources WHERE id = $1 FOR UPDATE", r.ID)
		return err
	}, func() error { return db.RecordChecks(ctx, []*vigil.CheckRecord{rec}) }, func(tx pgx.Tx) error {
		var pid, held int
		if err := tx.QueryRow(ctx, "SELECT pg_backend_pid()").Scan(&pid); err != nil {
			return err
		}
		// The claims' lock (7423193, a bigint key: objid its low 32 bits)
		// held by the checks, which wait for this transaction.
		if err := watch.QueryRow(ctx, `SELECT count(*) FROM pg_locks l WHERE l.locktype = 'advisory' AND l.granted
			AND l.classid = 0 AND l.objid = 7423193 AND l.objsubid = 1
			AND $1 = ANY(pg_blocking_pids(l.pid))`, pid).Scan(&held); err != nil {
			return err
		}
		if held > 0 {
			t.Errorf("the checks held the claims' lock while they waited for a resource's row")
		}
		return nil
	})
	if err != nil {
		t.Fatalf("checks recorded while an import held a resource: %v", err)
	}
	if _, total, err := db.FindNotifications(ctx, vigil.NotificationFilter{UserID: u.ID}); err != nil || total != 1 {
		t.Errorf("messages after: %d %v; want the one queued", total, err)
	}
}
