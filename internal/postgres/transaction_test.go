package postgres_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/postgres"
	"github.com/vigil-web/vigil/internal/storetest"
)

// TestInTransactionWriteFails: a write PostgreSQL refuses inside
// InTransaction (a NUL byte in a text column, which no check before it
// caught) fails the transaction: the writes after it fail with its
// error, and InTransaction returns it and commits nothing, even when fn
// goes on and returns nil. Each write ran under a savepoint, which left
// the transaction usable and committed the others.
func TestInTransactionWriteFails(t *testing.T) {
	ctx := context.Background()
	db := open(t)
	body := "<p>x</p>"
	err := db.InTransaction(ctx, func(tx vigil.TxStore) error {
		r, err := tx.EnsureResource(ctx, "http://example.com/")
		if err != nil {
			return err
		}
		v := &vigil.Version{ResourceID: r.ID, FetchedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Status: 200,
			Size: int64(len(body)), ContentHash: storetest.Hash([]byte(body))}
		err = tx.AppendVersion(ctx, &vigil.Append{Version: v, Blob: &vigil.Blob{Hash: v.ContentHash, Size: v.Size, Data: []byte(body)},
			Links: []*vigil.Link{{Source: "http://example.com/", Target: "http://example.com/a", Anchor: "a\x00b", Type: vigil.LinkLocal}}})
		if err == nil || vigil.ErrorCode(err) == vigil.ECONFLICT || vigil.ErrorCode(err) == vigil.EINVALID {
			t.Errorf("append of a link whose anchor holds a NUL: %v; want PostgreSQL's error", err)
		}
		if _, err := tx.EnsureResource(ctx, "http://other.example/"); err == nil || !strings.Contains(err.Error(), "0x00") {
			t.Errorf("a write after the failed one: %v; want the failed one's error", err)
		}
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "0x00") || !strings.Contains(err.Error(), "nothing committed") {
		t.Errorf("InTransaction with a write that failed: %v; want its error, nothing committed", err)
	}
	for _, u := range []string{"http://example.com/", "http://other.example/"} {
		if _, err := db.FindResourceByURL(ctx, u); vigil.ErrorCode(err) != vigil.ENOTFOUND {
			t.Errorf("%s after the transaction failed: %v; want ENOTFOUND", u, err)
		}
	}
}

// TestInTransactionCommitFails: a commit PostgreSQL refuses (a deferred
// constraint, checked as it commits) rolls the transaction back: its
// error is not vigil.ErrCommitUnknown, and nothing is stored. A commit
// whose connection is lost as it commits (the server process ended) may
// or may not have been stored: its error wraps vigil.ErrCommitUnknown.
func TestInTransactionCommitFails(t *testing.T) {
	ctx := context.Background()
	base, schema := newSchema(t)
	app := "vigil_commit_" + schema
	db, err := postgres.Open(ctx, base+"&application_name="+app)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	admin, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)

	// Refused: two resources of one host, which a constraint added for
	// the test refuses at the commit.
	if _, err := admin.Exec(ctx, "ALTER TABLE resources ADD CONSTRAINT one_per_host UNIQUE (host) DEFERRABLE INITIALLY DEFERRED"); err != nil {
		t.Fatal(err)
	}
	err = db.InTransaction(ctx, func(tx vigil.TxStore) error {
		for _, u := range []string{"http://example.com/a", "http://example.com/b"} {
			if _, err := tx.EnsureResource(ctx, u); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil || errors.Is(err, vigil.ErrCommitUnknown) || !strings.Contains(err.Error(), "one_per_host") {
		t.Errorf("a commit refused: %v; want the constraint's error, not ErrCommitUnknown", err)
	}
	if _, err := db.FindResourceByURL(ctx, "http://example.com/a"); vigil.ErrorCode(err) != vigil.ENOTFOUND {
		t.Errorf("after a commit refused: %v; want ENOTFOUND", err)
	}
	if _, err := admin.Exec(ctx, "ALTER TABLE resources DROP CONSTRAINT one_per_host"); err != nil {
		t.Fatal(err)
	}

	// Lost: the transaction's server process is ended just before the
	// commit.
	err = db.InTransaction(ctx, func(tx vigil.TxStore) error {
		if _, err := tx.EnsureResource(ctx, "http://example.com/lost"); err != nil {
			return err
		}
		var ended int
		err := admin.QueryRow(ctx, `SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
			WHERE application_name = $1 AND state = 'idle in transaction'`, app).Scan(&ended)
		if err != nil || ended != 1 {
			t.Errorf("ending the transaction's connection: %d ended, %v", ended, err)
		}
		return nil
	})
	if !errors.Is(err, vigil.ErrCommitUnknown) {
		t.Errorf("a commit whose connection is lost: %v; want ErrCommitUnknown", err)
	}
}

// TestInTransactionIdleTimeoutIsARollback: a session PostgreSQL ended for
// having been idle in its transaction (25P03, which it sends only before
// a COMMIT comes) rolled the transaction back: the commit's error says
// so, not that its outcome is unknown.
func TestInTransactionIdleTimeoutIsARollback(t *testing.T) {
	ctx := context.Background()
	base, _ := newSchema(t)
	db, err := postgres.Open(ctx, base+"&idle_in_transaction_session_timeout=200")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	err = db.InTransaction(ctx, func(tx vigil.TxStore) error {
		if _, err := tx.EnsureResource(ctx, "http://idle.example/"); err != nil {
			return err
		}
		time.Sleep(600 * time.Millisecond)
		return nil
	})
	if err == nil || errors.Is(err, vigil.ErrCommitUnknown) {
		t.Fatalf("commit after the idle timeout: %v, want a known rollback", err)
	}
	if _, err := db.FindResourceByURL(ctx, "http://idle.example/"); vigil.ErrorCode(err) != vigil.ENOTFOUND {
		t.Fatalf("the resource of the rolled back transaction: %v, want ENOTFOUND", err)
	}
}
