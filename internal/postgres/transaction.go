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
// reading, and the transaction goes on. A statement PostgreSQL refuses
// all the same, a read's as a write's (an error no check foresaw: a
// time past the last it keeps, a NUL in a text; a deadlock, the
// connection lost), fails the transaction, which PostgreSQL then only
// rolls back: it is kept as the transaction's failure (txFailure), every
// later read and write of fn returns it rather than run, and
// InTransaction returns fn's error, or, if fn goes on and returns nil,
// that failure, having committed nothing. (Unrecorded, a read's failure
// came back from the next statement as PostgreSQL's "current transaction
// is aborted", and from a function that went on as the commit's
// "unexpectedly resulted in rollback", neither naming the read.)
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
	in := *db
	in.tx, in.failed = tx, &txFailure{}
	if err := fn(&in); err != nil {
		return err
	}
	if f := in.failed; f.err != nil {
		return fmt.Errorf("postgres: a %s of the transaction failed, nothing committed: %w", f.statement, f.err)
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
// any other fails it (failedBy). After an earlier statement failed it,
// fn does not run: that failure is returned.
func (db *DB) inTransaction(fn func(tx *sql.Tx) error) error {
	if err := db.earlierFailure(); err != nil {
		return err
	}
	err := fn(db.tx)
	db.failedBy("write", err)
	return err
}

// txFailure is the first statement of InTransaction's transaction that
// failed it, shared by the copies of DB its function is handed: statement
// says whether a read or a write, err is its error (none yet if nil).
type txFailure struct {
	statement string
	err       error
}

// failedBy records err, the error of a read or write (statement) of
// InTransaction's transaction, as the transaction's failure, unless it is
// none, a read that found no row, or a refusal, which PostgreSQL did not
// fail the transaction for; or unless the transaction failed before. It
// does nothing outside a transaction.
func (db *DB) failedBy(statement string, err error) {
	if db.tx == nil || err == nil || errors.Is(err, sql.ErrNoRows) || refusal(err) || db.failed.err != nil {
		return
	}
	*db.failed = txFailure{statement: statement, err: err}
}

// refusal reports whether err is a method's refusal of what it was asked,
// made before it writes anything: a domain error of code EINVALID,
// ECONFLICT or ENOTFOUND, not an error of PostgreSQL's.
func refusal(err error) bool {
	switch vigil.ErrorCode(err) {
	case vigil.EINVALID, vigil.ECONFLICT, vigil.ENOTFOUND:
		return pgCode(err) == ""
	}
	return false
}

// earlierFailure returns the error a statement of InTransaction's
// transaction returns, rather than run, once an earlier one failed the
// transaction: PostgreSQL would refuse it, saying only that the
// transaction is aborted. It returns nil while none has.
func (db *DB) earlierFailure() error {
	if db.tx == nil || db.failed.err == nil {
		return nil
	}
	return fmt.Errorf("an earlier %s of the transaction failed: %w", db.failed.statement, db.failed.err)
}

// querier is what a read runs on: the pool, or a transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) row
}

// row is the answer of a query of one row (*sql.Row).
type row interface {
	Scan(dest ...any) error
}

// rows is the answer of a query of rows (*sql.Rows).
type rows interface {
	row
	Next() bool
	Err() error
	Close() error
}

// reader returns what a read runs on: the pool, or InTransaction's
// transaction, where a read that fails fails the transaction.
func (db *DB) reader() querier {
	if db.tx != nil {
		return txReader{db}
	}
	return poolReader{db.read}
}

// poolReader reads from the pool, each read a transaction of its own.
type poolReader struct{ pool *sql.DB }

func (p poolReader) QueryContext(ctx context.Context, query string, args ...any) (rows, error) {
	return p.pool.QueryContext(ctx, query, args...)
}

func (p poolReader) QueryRowContext(ctx context.Context, query string, args ...any) row {
	return p.pool.QueryRowContext(ctx, query, args...)
}

// txReader reads in InTransaction's transaction: an error of a read
// fails the transaction (failedBy), and after a statement failed it, a
// read returns that statement's error (earlierFailure) rather than run.
type txReader struct{ db *DB }

func (r txReader) QueryContext(ctx context.Context, query string, args ...any) (rows, error) {
	if err := r.db.earlierFailure(); err != nil {
		return nil, err
	}
	rs, err := r.db.tx.QueryContext(ctx, query, args...)
	if err != nil {
		r.db.failedBy("read", err)
		return nil, err
	}
	return txRows{rs, r.db}, nil
}

func (r txReader) QueryRowContext(ctx context.Context, query string, args ...any) row {
	if err := r.db.earlierFailure(); err != nil {
		return failedRow{err}
	}
	return txRow{r.db.tx.QueryRowContext(ctx, query, args...), r.db}
}

// txRow is a row read in InTransaction's transaction.
type txRow struct {
	row *sql.Row
	db  *DB
}

func (r txRow) Scan(dest ...any) error {
	err := r.row.Scan(dest...)
	r.db.failedBy("read", err)
	return err
}

// txRows are rows read in InTransaction's transaction.
type txRows struct {
	*sql.Rows
	db *DB
}

func (r txRows) Err() error {
	err := r.Rows.Err()
	r.db.failedBy("read", err)
	return err
}

// failedRow is the answer of a read not run, its transaction failed.
type failedRow struct{ err error }

func (r failedRow) Scan(...any) error { return r.err }
