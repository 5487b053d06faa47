package postgres

import (
	"context"
	"database/sql"
	"time"
)

// BackfillChangePages is backfillChangePages for the tests, over tx.
func BackfillChangePages(ctx context.Context, tx interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
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

// RetargetLockQuery is retargetLockQuery, the statement that takes the
// advisory lock a retry to a new target holds, for the tests.
func RetargetLockQuery(target string) (string, []any) { return retargetLockQuery(target) }

// ClaimSettings is claimSettings for the tests.
const ClaimSettings = claimSettings

// ClaimQuery is claimQuery for the tests.
func ClaimQuery(now time.Time, limit int) (string, []any) { return claimQuery(now, limit) }

// XactRowsRead returns the rows of notifications, and the entries of its
// indexes, that the transaction of db, a store InTransaction hands out,
// has read so far (pg_stat_get_xact_tuples_returned): the work of its
// reads and writes.
func XactRowsRead(ctx context.Context, db *DB) (int64, error) {
	var n int64
	err := db.tx.QueryRowContext(ctx, `SELECT pg_stat_get_xact_tuples_returned('notifications'::regclass) +
		coalesce(sum(pg_stat_get_xact_tuples_returned(indexrelid)), 0) FROM pg_index WHERE indrelid = 'notifications'::regclass`).Scan(&n)
	return n, err
}

// DeleteSentBeforeQuery is deleteSentBeforeQuery, the outbox retention's
// statement of sent letters, with PostgreSQL's placeholders, for the
// tests.
func DeleteSentBeforeQuery() string { return q(deleteSentBeforeQuery) }

// OutboxHeadsQuery is outboxHeadsQuery, the statement of a claim that
// reads the outbox's heads, with PostgreSQL's placeholders, for the tests.
func OutboxHeadsQuery() string { return q(outboxHeadsQuery) }

// OutboxQueueQuery is outboxQueueQuery, the statement of a claim that
// reads the entries to one address, with PostgreSQL's placeholders, for
// the tests.
func OutboxQueueQuery() string { return q(outboxQueueQuery) }
