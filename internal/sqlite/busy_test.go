package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
)

// holdWriteLock opens another connection to the store in dir and holds
// SQLite's write lock there, as another process's write transaction (an
// import warc in one transaction) does, until the test ends.
func holdWriteLock(t *testing.T, dir string) {
	t.Helper()
	c, err := sql.Open("sqlite", "file:"+filepath.Join(dir, sqlite.FileName)+"?_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	tx, err := c.Begin()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tx.Rollback() })
	if _, err := tx.Exec("INSERT INTO schema_migrations (name, applied_at) VALUES ('held by the test', 0)"); err != nil {
		t.Fatal(err)
	}
}

// TestWriteBusySaysAnotherWriterHoldsTheStore: a write that waits its
// busy timeout out behind another connection's write transaction fails
// with EUNAVAILABLE, saying that another writer holds the store and what
// to do, not with the driver's "database is locked (5) (SQLITE_BUSY)";
// it failed so for every write, InTransaction's too.
func TestWriteBusySaysAnotherWriterHoldsTheStore(t *testing.T) {
	defer sqlite.SetBusyTimeout(200 * time.Millisecond)()
	ctx := context.Background()
	db, dir := openIn(t)
	holdWriteLock(t, dir)
	for _, tc := range []struct {
		name  string
		write func() error
	}{
		{"a write", func() error {
			_, err := db.EnsureResource(ctx, "http://example.com/")
			return err
		}},
		{"a transaction", func() error {
			return db.InTransaction(ctx, func(tx vigil.TxStore) error {
				_, err := tx.EnsureResource(ctx, "http://example.com/")
				return err
			})
		}},
		{"a user's", func() error {
			return db.CreateUser(ctx, &vigil.User{Email: "a@example.com", Name: "a"})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.write()
			if code := vigil.ErrorCode(err); code != vigil.EUNAVAILABLE {
				t.Fatalf("a write behind another writer: %v (code %q); want EUNAVAILABLE", err, code)
			}
			msg := vigil.ErrorMessage(err)
			if strings.Contains(err.Error(), dir) {
				t.Errorf("the busy error names the store's path, which API clients are not told: %v", err)
			}
			for _, want := range []string{"is busy: another writer", "200ms", "try again when it ends"} {
				if !strings.Contains(msg, want) {
					t.Errorf("message %q does not say %q", msg, want)
				}
			}
			for _, raw := range []string{"SQLITE_BUSY", "database is locked"} {
				if strings.Contains(err.Error(), raw) {
					t.Errorf("error %q shows the driver's %q", err, raw)
				}
			}
		})
	}
}

// TestOpenReadsBesideAnotherWriter: opening a store whose migrations are
// all applied takes no write lock, so that a command that only reads
// (vigil user list, sentinel list) opens and reads the store while
// another process writes it (an import warc in one transaction), as WAL
// lets it; the open failed past the busy timeout, migrating.
func TestOpenReadsBesideAnotherWriter(t *testing.T) {
	defer sqlite.SetBusyTimeout(5 * time.Second)()
	ctx := context.Background()
	dir := t.TempDir()
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.EnsureResource(ctx, "http://example.com/"); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	holdWriteLock(t, dir)
	start := time.Now()
	db, err = sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatalf("open beside another writer: %v", err)
	}
	if _, err := db.FindResourceByURL(ctx, "http://example.com/"); err != nil {
		t.Errorf("read beside another writer: %v", err)
	}
	if err := db.Close(); err != nil {
		t.Errorf("close beside another writer: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("open, read and close beside another writer took %v: they waited for its lock", d)
	}
}
