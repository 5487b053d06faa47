package sqlite

import (
	"context"
	"errors"
	"fmt"
	"testing"

	sqlite3 "modernc.org/sqlite/lib"

	"github.com/vigil-web/vigil"
)

// codeError is an error of SQLite's code, as the driver's Code reports it.
type codeError int

func (e codeError) Error() string { return fmt.Sprintf("sqlite code %d", int(e)) }
func (e codeError) Code() int     { return int(e) }

// TestCheckpointLeft: Close lets pass only SQLITE_READONLY itself, from
// a store this process wrote nothing to; it let pass every read-only
// error (the file moved away, a log it cannot recover or lock) whatever
// the process wrote, taking each for a store this user may not write.
func TestCheckpointLeft(t *testing.T) {
	for _, tc := range []struct {
		err   error
		wrote bool
		left  bool
	}{
		{codeError(sqlite3.SQLITE_READONLY), false, true},
		{fmt.Errorf("checkpoint: %w", codeError(sqlite3.SQLITE_READONLY)), false, true},
		{codeError(sqlite3.SQLITE_READONLY), true, false},
		{codeError(sqlite3.SQLITE_READONLY_DBMOVED), false, false},
		{codeError(sqlite3.SQLITE_READONLY_RECOVERY), false, false},
		{codeError(sqlite3.SQLITE_READONLY_CANTLOCK), false, false},
		{codeError(sqlite3.SQLITE_IOERR), false, false},
		{errors.New("disk full"), false, false},
	} {
		if got := checkpointLeft(tc.err, tc.wrote); got != tc.left {
			t.Errorf("checkpointLeft(%v, wrote %v) = %v, want %v", tc.err, tc.wrote, got, tc.left)
		}
	}
}

// TestWroteSetByCommittedWrites: a store opened with nothing to migrate
// and only read has not been written to, and one a write committed to
// has, whether through a write of the store or InTransaction.
func TestWroteSetByCommittedWrites(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	first, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if !first.wrote.Load() {
		t.Error("a new store migrated: wrote unset")
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	for _, write := range []func(db *DB) error{
		func(db *DB) error { return db.CreateUser(ctx, &vigil.User{Email: "ada@example.com", Name: "Ada"}) },
		func(db *DB) error {
			return db.InTransaction(ctx, func(tx vigil.TxStore) error {
				_, err := tx.EnsureResource(ctx, "http://example.org/")
				return err
			})
		},
	} {
		db, err := Open(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.FindUsers(ctx); err != nil {
			t.Fatal(err)
		}
		if db.wrote.Load() {
			t.Error("a current store only read: wrote set")
		}
		if err := write(db); err != nil {
			t.Fatal(err)
		}
		if !db.wrote.Load() {
			t.Error("a store written: wrote unset")
		}
		if err := db.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
