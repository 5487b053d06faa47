package postgres_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/storetest"
)

// TestSentinelOldDuplicatesConformance: two sentinels of one name, kept
// by an older store, do not stop an update that renames neither.
func TestSentinelOldDuplicatesConformance(t *testing.T) {
	storetest.RunSentinelOldDuplicates(t, func(t *testing.T) (vigil.Store, storetest.NameWriter) {
		db, d := openDSN(t)
		return db, func(t *testing.T, id int64, name string) {
			t.Helper()
			ctx := context.Background()
			c, err := pgx.Connect(ctx, d)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close(ctx)
			if _, err := c.Exec(ctx, "UPDATE sentinels SET name = $1 WHERE id = $2", name, id); err != nil {
				t.Fatal(err)
			}
		}
	})
}
