package postgres

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/vigil-web/vigil"
)

var _ vigil.SecretStore = (*DB)(nil)

// Secret implements vigil.SecretStore.
func (db *DB) Secret(ctx context.Context, name string) ([]byte, error) {
	var key []byte
	err := db.read.QueryRowContext(ctx, q("SELECT value FROM secrets WHERE name = ?"), name).Scan(&key)
	if err != nil {
		return nil, notFound(err, "no key %s in the store", name)
	}
	return key, nil
}

// EnsureSecret implements vigil.SecretStore: the key is inserted unless
// the name is taken, then the stored one is read back, in one
// transaction. The read sees a key another process inserted meanwhile,
// which the insert waited for.
func (db *DB) EnsureSecret(ctx context.Context, name string, key []byte) ([]byte, bool, error) {
	if name == "" {
		return nil, false, vigil.Errorf(vigil.EINVALID, "key name required")
	}
	if len(key) == 0 {
		return nil, false, vigil.Errorf(vigil.EINVALID, "key %s is empty", name)
	}
	var stored []byte
	var inserted int64
	err := db.update(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, q("INSERT INTO secrets (name, value, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING"),
			name, key, tv(db.now()))
		if err != nil {
			return err
		}
		if inserted, err = res.RowsAffected(); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, q("SELECT value FROM secrets WHERE name = ?"), name).Scan(&stored)
	})
	if err != nil {
		return nil, false, fmt.Errorf("key %s: %w", name, err)
	}
	return stored, inserted == 1, nil
}

// ReplaceSecret implements vigil.SecretStore, in one transaction: key is
// inserted if name has none, else the stored key is read, locked, and
// written over. A row lock taken on no row locks nothing: two that both
// read no key and then wrote would each return nil, though one replaced
// the other's key; the insert that finds one waits for its writer, as
// EnsureSecret's does.
func (db *DB) ReplaceSecret(ctx context.Context, name string, key []byte) ([]byte, error) {
	if name == "" {
		return nil, vigil.Errorf(vigil.EINVALID, "key name required")
	}
	if len(key) == 0 {
		return nil, vigil.Errorf(vigil.EINVALID, "key %s is empty", name)
	}
	var old []byte
	err := db.update(ctx, func(tx *sql.Tx) error {
		now := tv(db.now())
		res, err := tx.ExecContext(ctx, q("INSERT INTO secrets (name, value, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING"), name, key, now)
		if err != nil {
			return err
		}
		if inserted, err := res.RowsAffected(); err != nil || inserted == 1 {
			return err
		}
		if err := tx.QueryRowContext(ctx, q("SELECT value FROM secrets WHERE name = ? FOR UPDATE"), name).Scan(&old); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, q("UPDATE secrets SET value = ?, created_at = ? WHERE name = ?"), key, now, name)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("key %s: %w", name, err)
	}
	return old, nil
}
