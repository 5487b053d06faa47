package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/sqlite"
)

// TestVacuumHeldBackByReader: a vacuum whose checkpoint a reader holds back
// (another connection in a read transaction) says so, instead of returning
// the size of a file it did not shrink; once the reader is done, it
// returns the file's size.
func TestVacuumHeldBackByReader(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.EnsureResource(ctx, "http://example.com/"); err != nil {
		t.Fatal(err)
	}
	reader, err := sql.Open("sqlite", "file:"+filepath.Join(dir, sqlite.FileName)+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	tx, err := reader.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM schema_migrations").Scan(&n); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Vacuum(ctx); err == nil || !strings.Contains(err.Error(), "a reader holds the write-ahead log back") {
		t.Errorf("vacuum with a reader: %v, want the reader named", err)
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}
	if size, err := db.Vacuum(ctx); err != nil || size <= 0 {
		t.Errorf("vacuum after the reader: %d, %v", size, err)
	}
}
