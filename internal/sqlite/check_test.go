package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/internal/storetest"
)

func TestCheckStoreConformance(t *testing.T) {
	storetest.RunCheckStore(t, func(t *testing.T) interface {
		vigil.Store
		vigil.CheckStore
	} {
		return open(t)
	})
}

// TestClaimBadImportanceConformance: a claim counts an importance not from
// 0 to 1 as vigil.ClaimPriority does. SQLite stores no NaN (it reads
// NULL), and 9e999 is its infinity.
func TestClaimBadImportanceConformance(t *testing.T) {
	values := []string{"9e999", "-9e999", "1e300", "-1e300", "-0.5", "1.5"}
	storetest.RunClaimBadImportance(t, values, func(t *testing.T) (interface {
		vigil.Store
		vigil.CheckStore
	}, storetest.ImportanceWriter) {
		dir := t.TempDir()
		db, err := sqlite.Open(context.Background(), dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db, func(t *testing.T, id int64, value string) {
			t.Helper()
			c, err := sql.Open("sqlite", "file:"+filepath.Join(dir, sqlite.FileName))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if _, err := c.ExecContext(context.Background(), "UPDATE sentinels SET importance = "+value+" WHERE id = ?", id); err != nil {
				t.Fatal(err)
			}
		}
	})
}
