package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	msqlite "modernc.org/sqlite"
)

// BackfillChangePages is backfillChangePages for the tests, over tx.
func BackfillChangePages(ctx context.Context, tx interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}) error {
	return backfillChangePages(ctx, tx)
}

// SetBackfillBytes sets backfillBytes to n until the returned func is
// called.
func SetBackfillBytes(n int) (restore func()) {
	old := backfillBytes
	backfillBytes = n
	return func() { backfillBytes = old }
}

// ReadAsTextUnknownQuery is readAsTextUnknownQuery for the tests.
func ReadAsTextUnknownQuery(reading int, beforeID int64, limit int) (string, []any) {
	return readAsTextUnknownQuery(reading, beforeID, limit)
}

// ClaimQuery is claimQuery for the tests.
func ClaimQuery(now time.Time, limit int) (string, []any) { return claimQuery(now, limit) }

// SetBusyTimeout sets busyTimeout, how long the stores opened from now
// on wait for another connection's write lock, to d until the returned
// func is called.
func SetBusyTimeout(d time.Duration) (restore func()) {
	old := busyTimeout
	busyTimeout = d
	return func() { busyTimeout = old }
}

// PagesRead returns the pages the write connection of db has read so
// far, from its page cache or the file (SQLITE_DBSTATUS_CACHE_HIT and
// _MISS): the work of its reads and writes. It waits for the
// connection, which a write transaction holds.
func PagesRead(ctx context.Context, db *DB) (int64, error) {
	c, err := db.write.Conn(ctx)
	if err != nil {
		return 0, err
	}
	defer c.Close()
	var n int64
	err = c.Raw(func(dc any) error {
		st, ok := dc.(msqlite.DBStatus)
		if !ok {
			return fmt.Errorf("the driver's connection %T has no status", dc)
		}
		for _, op := range []msqlite.DBStatusOp{msqlite.DBStatusCacheHit, msqlite.DBStatusCacheMiss} {
			cur, _, err := st.Status(op, false)
			if err != nil {
				return err
			}
			n += int64(cur)
		}
		return nil
	})
	return n, err
}

// DeleteSentBeforeQuery is deleteSentBeforeQuery, the outbox retention's
// statement of sent letters, for the tests.
const DeleteSentBeforeQuery = deleteSentBeforeQuery
