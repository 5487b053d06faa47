package sqlite

import (
	"context"
	"fmt"

	"github.com/vigil-web/vigil"
)

var _ vigil.Transactor = (*DB)(nil)

// InTransaction implements vigil.Transactor: fn's store is a copy of db
// whose reads and writes run in one IMMEDIATE transaction on the writer
// connection, each write under a savepoint of its own. The transaction
// holds SQLite's write lock until it ends: the store's other writers
// wait for it (another process's up to its busy timeout), and its
// readers see the database as it was before it. What it writes goes to
// the write-ahead log as SQLite's page cache fills, not into memory. A
// COMMIT that fails stores nothing (SQLite's commit is atomic, and the
// driver rolls back a transaction the failed COMMIT leaves open): its
// error never wraps vigil.ErrCommitUnknown.
func (db *DB) InTransaction(ctx context.Context, fn func(tx vigil.TxStore) error) error {
	if db.tx != nil {
		return fmt.Errorf("sqlite: a transaction inside a transaction")
	}
	db.stmts.prepareWanted(ctx) // the writer connection is free here
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return db.readOnlyError(db.busyError(err))
	}
	committed := false
	defer func() {
		if !committed { // fn failed or panicked, or ctx is done
			tx.Rollback()
		}
	}()
	in := *db
	in.tx = cachedTx{tx: tx, cache: db.stmts}
	if err := fn(&in); err != nil {
		return db.readOnlyError(err)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	committed = true
	if err := tx.Commit(); err != nil {
		return db.readOnlyError(err)
	}
	db.wrote.Store(true)
	return nil
}

// savepoint runs fn in tx under a savepoint, released if fn succeeds and
// rolled back to if it fails, so that a failed write leaves tx as it was.
func savepoint(ctx context.Context, tx execer, fn func(tx execer) error) error {
	if _, err := tx.ExecContext(ctx, "SAVEPOINT vigil_write"); err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		if _, rerr := tx.ExecContext(ctx, "ROLLBACK TO vigil_write"); rerr != nil {
			return fmt.Errorf("%w (and its rollback: %v)", err, rerr)
		}
		tx.ExecContext(ctx, "RELEASE vigil_write")
		return err
	}
	_, err := tx.ExecContext(ctx, "RELEASE vigil_write")
	return err
}

// reader returns what a read runs on: the read pool, or InTransaction's
// transaction.
func (db *DB) reader() execer {
	if db.tx != nil {
		return db.tx
	}
	return db.read
}
