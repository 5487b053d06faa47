package sqlite_test

import (
	"context"
	"sync"
	"testing"

	"github.com/vigil-web/vigil/internal/sqlite"
)

// TestFirstOpensAtOnce: processes that open a store not yet made, at the
// same moment (vigil serve and a vigil user add started together on a new
// data directory), all open it; one of them failed at once with SQLite's
// "database is locked", the other making the file WAL or migrating it.
func TestFirstOpensAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("opens new stores 150 times")
	}
	ctx := context.Background()
	for round := range 50 {
		dir := t.TempDir()
		var wg sync.WaitGroup
		errs := make(chan error, 3)
		for range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				db, err := sqlite.Open(ctx, dir)
				if err != nil {
					errs <- err
					return
				}
				if err := db.Close(); err != nil {
					errs <- err
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Errorf("round %d: %v", round, err)
		}
	}
}
