package sqlite_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/internal/storetest"
)

func open(t *testing.T) *sqlite.DB {
	t.Helper()
	db, _ := openIn(t)
	return db
}

// openIn opens a new store in a directory of its own, closed when the
// test ends, and returns it with the directory, for a test that opens the
// database file beside it.
func openIn(t *testing.T) (*sqlite.DB, string) {
	t.Helper()
	dir := t.TempDir()
	db, err := sqlite.Open(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Error(err)
		}
	})
	return db, dir
}

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) vigil.Store { return open(t) })
}

func TestReopenKeepsMigrations(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.EnsureResource(ctx, "http://example.com/"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err = sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.FindResourceByURL(ctx, "http://example.com/"); err != nil {
		t.Fatal(err)
	}
	if s, err := db.IntegrityCheck(ctx); err != nil || s != "ok" {
		t.Fatalf("integrity %q, %v", s, err)
	}
}

// TestFileReadableByOwnerOnly: the database file, with the hashes and pages
// it holds, is created 0600, and an older one made so when opened.
func TestFileReadableByOwnerOnly(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, sqlite.FileName)
	for _, existing := range []bool{false, true} {
		if existing {
			if err := os.Chmod(path, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		db, err := sqlite.Open(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		db.Close()
		fi, err := os.Stat(path)
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("existing %v: mode %v, %v", existing, fi.Mode().Perm(), err)
		}
	}
}
