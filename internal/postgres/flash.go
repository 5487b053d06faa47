package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/vigil-web/vigil"
)

var _ vigil.FlashStore = (*DB)(nil)

// deleteExpiredFlashes deletes the flashes expired at its argument that no
// other transaction holds: two daemons deleting at once pass over each
// other's rows rather than wait for them, in whatever order their plans
// would lock them.
const deleteExpiredFlashes = "DELETE FROM flashes WHERE id IN (SELECT id FROM flashes WHERE expires_at <= ? FOR UPDATE SKIP LOCKED)"

// PutFlash implements vigil.FlashStore: the expired flashes are deleted
// and the new one inserted in one transaction.
func (db *DB) PutFlash(ctx context.Context, id string, value []byte, expires, now time.Time) error {
	if err := vigil.CheckFlash(id, value, expires, now); err != nil {
		return err
	}
	if value == nil {
		value = []byte{} // NOT NULL
	}
	err := db.update(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, q(deleteExpiredFlashes), tv(now)); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, q("INSERT INTO flashes (id, value, expires_at) VALUES (?, ?, ?)"), id, value, tv(expires))
		if isUnique(err) {
			return vigil.Errorf(vigil.ECONFLICT, "a flash is kept under this id already")
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("keep a flash: %w", err)
	}
	return nil
}

// TakeFlash implements vigil.FlashStore: one statement deletes the flash
// and returns it, so that of takes at once one alone finds it. The
// expired flashes are deleted too, as a put deletes them: the last ones
// made, sealed secrets in them, are not kept past their minute for want
// of a next put.
func (db *DB) TakeFlash(ctx context.Context, id string, now time.Time) ([]byte, error) {
	var value []byte
	var expires time.Time
	found := false
	err := db.update(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, q("DELETE FROM flashes WHERE id = ? RETURNING value, expires_at"), id).Scan(&value, ts{&expires})
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		found = err == nil
		_, err = tx.ExecContext(ctx, q(deleteExpiredFlashes), tv(now))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("take a flash: %w", err)
	}
	if !found {
		return nil, fmt.Errorf("take a flash: %w", vigil.Errorf(vigil.ENOTFOUND, "no flash kept under this id: expired, taken, or never made"))
	}
	if !now.Before(expires) {
		return nil, vigil.Errorf(vigil.ENOTFOUND, "the flash expired at %s", expires.UTC().Format(time.RFC3339))
	}
	return value, nil
}
