package postgres

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/vigil-web/vigil"
)

var _ vigil.Transactor = (*DB)(nil)

// InTransaction implements vigil.Transactor: fn's store is a copy of db
// whose reads and writes run in one transaction on one connection of the
// pool (READ COMMITTED, as the store's other writes). The rows it locks
// (the resources it appends to, FOR UPDATE) stay locked until it ends:
// another writer of one of them waits for it.
//
// A write runs in the transaction itself, under no savepoint: a savepoint
// that writes is a subtransaction with an id of its own, and past 64 in
// one transaction every session of the server checks the visibility of
// rows more slowly (in pg_subtrans) for as long as it lasts; an import
// of an archive writes thousands. So a method refuses what it refuses
// (EINVALID, ECONFLICT, ENOTFOUND) before its first write, in Go or by
// reading, and the transaction goes on. A write PostgreSQL refuses all
// the same (an error no check foresaw, a deadlock, the connection lost)
// fails the transaction, which PostgreSQL then only rolls back: every
// later write of fn fails with that error, and InTransaction returns it,
// having committed nothing, even if fn returns nil.
func (db *DB) InTransaction(ctx context.Context, fn func(tx vigil.TxStore) error) error {
	if db.tx != nil {
		return fmt.Errorf("postgres: a transaction inside a transaction")
	}
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	committed := false
	defer func() {
		if !committed { // fn failed or panicked, or ctx is done
			tx.Rollback()
		}
	}()
	var failed error
	in := *db
	in.tx, in.failed = tx, &failed
	if err := fn(&in); err != nil {
		return err
	}
	if failed != nil {
		return fmt.Errorf("postgres: a write of the transaction failed, nothing committed: %w", failed)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	committed = true
	return commitError(tx.Commit())
}

// commitError returns err, the error of a COMMIT, wrapping
// vigil.ErrCommitUnknown unless it is known that the transaction was
// rolled back: PostgreSQL answered an ERROR (a deferred constraint, a
// serialization failure), after which the session goes on, or that a
// transaction failed before was rolled back; it ended the session for
// having been idle in the transaction (25P03), which it does only while
// no COMMIT has come; or the COMMIT was never sent (database/sql's
// transaction already done, pgconn's SafeToRetry: no byte of it left).
// Any other error (the connection lost as it commits, another FATAL that
// ends the session, which may come after the commit took effect) leaves
// it unknown whether the transaction was stored.
func commitError(err error) error {
	if err == nil {
		return nil
	}
	var pe *pgconn.PgError
	severity := ""
	if errors.As(err, &pe) {
		severity = cmp.Or(pe.SeverityUnlocalized, pe.Severity) // the latter before 9.6
	}
	switch {
	case errors.Is(err, pgx.ErrTxCommitRollback), severity == "ERROR",
		pe != nil && pe.Code == "25P03", errors.Is(err, sql.ErrTxDone), pgconn.SafeToRetry(err):
		return fmt.Errorf("postgres: commit: %w", err)
	}
	return fmt.Errorf("postgres: %w: %w", vigil.ErrCommitUnknown, err)
}

// inTransaction runs fn, a write, in InTransaction's transaction. An
// error of fn that is a refusal (EINVALID, ECONFLICT, ENOTFOUND), which
// fn returns before its first write, leaves the transaction as it was;
// any other fails it: it is kept as the transaction's failure, which
// every later write returns.
func (db *DB) inTransaction(fn func(tx *sql.Tx) error) error {
	if *db.failed != nil {
		return fmt.Errorf("an earlier write of the transaction failed: %w", *db.failed)
	}
	err := fn(db.tx)
	if err != nil && !refusal(err) {
		*db.failed = err
	}
	return err
}

// refusal reports whether err is a write's refusal of what it was asked
// to write, made before it writes anything: a domain error of code
// EINVALID, ECONFLICT or ENOTFOUND, not an error of PostgreSQL's.
func refusal(err error) bool {
	switch vigil.ErrorCode(err) {
	case vigil.EINVALID, vigil.ECONFLICT, vigil.ENOTFOUND:
		return pgCode(err) == ""
	}
	return false
}

// querier is what a read runs on: the pool, or a transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// reader returns what a read runs on: the pool, or InTransaction's
// transaction.
func (db *DB) reader() querier {
	if db.tx != nil {
		return db.tx
	}
	return db.read
}
