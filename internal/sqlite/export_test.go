package sqlite

import (
	"context"
	"database/sql"
	"time"
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
