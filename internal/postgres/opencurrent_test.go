package postgres_test

import (
	"context"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/postgres"
)

// TestOpenCurrent: OpenCurrent, for a command that only reads the store,
// opens a store whose schema this build's migrations all reach, and
// leaves any other as it is: a schema with no store is refused with
// ENOTFOUND (as OpenExisting refuses it), one an older vigil left
// (migrations to apply) with ECONFLICT saying how many and which, not
// migrated. OpenExisting migrated it, sentinel check's read of the store
// among its callers.
func TestOpenCurrent(t *testing.T) {
	ctx := context.Background()
	empty, _ := newSchema(t)
	if db, err := postgres.OpenCurrent(ctx, empty); vigil.ErrorCode(err) != vigil.ENOTFOUND {
		if db != nil {
			db.Close()
		}
		t.Errorf("OpenCurrent of an empty schema: %v; want ENOTFOUND", err)
	}

	old, _ := newSchema(t)
	const last = "0121_query_percent.sql"
	c := olderSchema(t, old, last)
	db, err := postgres.OpenCurrent(ctx, old)
	if err == nil {
		db.Close()
		t.Fatal("OpenCurrent opened a store an older vigil left")
	}
	if vigil.ErrorCode(err) != vigil.ECONFLICT || !strings.Contains(err.Error(), "1 migration") || !strings.Contains(err.Error(), last) {
		t.Errorf("OpenCurrent of an older store: %v; want ECONFLICT naming %s", err, last)
	}
	var n int
	if err := c.QueryRow(ctx, "SELECT count(*) FROM schema_migrations WHERE name = $1", last).Scan(&n); err != nil || n != 0 {
		t.Errorf("after OpenCurrent, %s applied: %d, %v; want it left as it was", last, n, err)
	}

	cur, _ := newSchema(t)
	made, err := postgres.Open(ctx, cur)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := made.EnsureResource(ctx, "http://example.com/"); err != nil {
		t.Fatal(err)
	}
	made.Close()
	db, err = postgres.OpenCurrent(ctx, cur)
	if err != nil {
		t.Fatalf("OpenCurrent of a current store: %v", err)
	}
	defer db.Close()
	if _, err := db.FindResourceByURL(ctx, "http://example.com/"); err != nil {
		t.Errorf("read through OpenCurrent: %v", err)
	}
}

// TestOpenCurrentSeveralMissing: a store that lacks several migrations
// is refused with the message vigil.NotMigrated gives, naming them in
// order, the same on either backend.
func TestOpenCurrentSeveralMissing(t *testing.T) {
	ctx := context.Background()
	old, _ := newSchema(t)
	olderSchema(t, old, "0120_version_url.sql")
	db, err := postgres.OpenCurrent(ctx, old)
	if err == nil {
		db.Close()
		t.Fatal("OpenCurrent opened a store an older vigil left")
	}
	want := vigil.ErrorMessage(vigil.NotMigrated([]string{"0120_version_url.sql", "0121_query_percent.sql"}))
	if vigil.ErrorCode(err) != vigil.ECONFLICT || vigil.ErrorMessage(err) != want {
		t.Errorf("OpenCurrent of a store two migrations behind: %v; want ECONFLICT %q", err, want)
	}
}
