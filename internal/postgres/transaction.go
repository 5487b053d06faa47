package postgres

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/vigil-web/vigil"
)

var _ vigil.Transactor = (*DB)(nil)

// InTransaction implements vigil.Transactor: fn's store is a copy of db
// whose reads and writes run in one transaction on one connection of the
// pool (READ COMMITTED, as the store's other writes), each write under a
// savepoint of its own, so that a write that fails (a conflict) leaves
// the transaction usable. The rows it locks (the resources it appends
// to, FOR UPDATE) stay locked until it ends: another writer of one of
// them waits for it.
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
	in.tx = tx
	if err := fn(&in); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	committed = true
	return tx.Commit()
}

// savepoint runs fn in tx under a savepoint, released if fn succeeds and
// rolled back to if it fails, so that a failed write leaves tx usable
// (PostgreSQL refuses every statement of a transaction after an error
// until it rolls back).
func savepoint(ctx context.Context, tx *sql.Tx, fn func(tx *sql.Tx) error) error {
	if _, err := tx.ExecContext(ctx, "SAVEPOINT vigil_write"); err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		if _, rerr := tx.ExecContext(ctx, "ROLLBACK TO SAVEPOINT vigil_write"); rerr != nil {
			return fmt.Errorf("%w (and its rollback: %v)", err, rerr)
		}
		tx.ExecContext(ctx, "RELEASE SAVEPOINT vigil_write")
		return err
	}
	_, err := tx.ExecContext(ctx, "RELEASE SAVEPOINT vigil_write")
	return err
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
