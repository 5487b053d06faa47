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

// TestSentinelOldDuplicatesConformance: two sentinels of one name, kept
// by an older store, do not stop an update that renames neither.
func TestSentinelOldDuplicatesConformance(t *testing.T) {
	storetest.RunSentinelOldDuplicates(t, func(t *testing.T) (vigil.Store, storetest.NameWriter) {
		db, dir := openIn(t)
		return db, func(t *testing.T, id int64, name string) {
			t.Helper()
			c, err := sql.Open("sqlite", "file:"+filepath.Join(dir, sqlite.FileName))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if _, err := c.ExecContext(context.Background(), "UPDATE sentinels SET name = ? WHERE id = ?", name, id); err != nil {
				t.Fatal(err)
			}
		}
	})
}
