package postgres

import (
	"context"
	"database/sql"

	"github.com/vigil-web/vigil"
)

// OpenCurrent is OpenExisting for a command that only reads the store,
// which changes nothing there: a store that lacks migrations of this
// build (an older vigil left it) is refused with ECONFLICT saying which
// (vigil.NotMigrated), not migrated as OpenExisting would.
func OpenCurrent(ctx context.Context, dsn string) (*DB, error) { return open(ctx, dsn, openCurrent) }

// checkCurrent is migrate for OpenCurrent: it applies nothing, reading
// schema_migrations once in a read-only transaction, and returns
// ECONFLICT for a store that lacks migrations of this build, and records
// those the store has that this build has not (Schema).
func (db *DB) checkCurrent(ctx context.Context) error {
	names, err := migrationNames()
	if err != nil {
		return err
	}
	tx, err := db.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	done, err := appliedMigrations(ctx, tx)
	if err != nil {
		return err
	}
	if err := vigil.NotMigrated(missingMigrations(done, names)); err != nil {
		return err
	}
	db.schema = vigil.SchemaReport{Unknown: unknownMigrations(done, names)}
	return nil
}
