package sqlite_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
)

// TestOpenCurrent: OpenCurrent, for a command that only reads the store,
// opens a store whose schema this build's migrations all reach, and
// leaves any other as it is: a data directory with no store is refused
// with ENOTFOUND and nothing made there, one an older vigil left
// (migrations to apply) with ECONFLICT saying how many and which, not
// migrated. Open migrated it, sentinel check's read of the store among
// its callers.
func TestOpenCurrent(t *testing.T) {
	ctx := context.Background()
	empty := t.TempDir()
	if db, err := sqlite.OpenCurrent(ctx, empty); vigil.ErrorCode(err) != vigil.ENOTFOUND || !strings.Contains(err.Error(), "no store in "+empty) {
		if db != nil {
			db.Close()
		}
		t.Errorf("OpenCurrent of an empty directory: %v; want ENOTFOUND and where", err)
	}
	if _, err := os.Stat(filepath.Join(empty, sqlite.FileName)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("OpenCurrent of an empty directory made %s: %v", sqlite.FileName, err)
	}

	old := t.TempDir()
	const last = "0124_claims.sql"
	c := olderDatabase(t, old, last)
	db, err := sqlite.OpenCurrent(ctx, old)
	if err == nil {
		db.Close()
		t.Fatal("OpenCurrent opened a store an older vigil left")
	}
	if vigil.ErrorCode(err) != vigil.ECONFLICT || !strings.Contains(err.Error(), "1 migration") || !strings.Contains(err.Error(), last) {
		t.Errorf("OpenCurrent of an older store: %v; want ECONFLICT naming %s", err, last)
	}
	var n int
	if err := c.QueryRowContext(ctx, "SELECT count(*) FROM schema_migrations WHERE name = ?", last).Scan(&n); err != nil || n != 0 {
		t.Errorf("after OpenCurrent, %s applied: %d, %v; want it left as it was", last, n, err)
	}

	cur := t.TempDir()
	made, err := sqlite.Open(ctx, cur)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := made.EnsureResource(ctx, "http://example.com/"); err != nil {
		t.Fatal(err)
	}
	if err := made.Close(); err != nil {
		t.Fatal(err)
	}
	db, err = sqlite.OpenCurrent(ctx, cur)
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
	old := t.TempDir()
	olderDatabase(t, old, "0123_query_percent.sql")
	db, err := sqlite.OpenCurrent(ctx, old)
	if err == nil {
		db.Close()
		t.Fatal("OpenCurrent opened a store an older vigil left")
	}
	want := vigil.ErrorMessage(vigil.NotMigrated([]string{"0123_query_percent.sql", "0124_claims.sql"}))
	if vigil.ErrorCode(err) != vigil.ECONFLICT || vigil.ErrorMessage(err) != want {
		t.Errorf("OpenCurrent of a store two migrations behind: %v; want ECONFLICT %q", err, want)
	}
}
