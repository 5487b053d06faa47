package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/vigil-web/vigil"
)

// OpenCurrent is OpenExisting for a command that only reads the store,
// which changes nothing there: a store that lacks migrations of this
// build (an older vigil left it) is refused with ECONFLICT saying which,
// not migrated as OpenExisting would.
func OpenCurrent(ctx context.Context, dsn string) (*DB, error) { return open(ctx, dsn, openCurrent) }

// checkCurrent is migrate for OpenCurrent: it applies nothing, in a
// read-only transaction, and returns ECONFLICT for a store that lacks
// migrations of this build, and records those the store has that this
// build has not (Schema).
func (db *DB) checkCurrent(ctx context.Context) error {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	tx, err := db.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var missing []string
	for _, name := range names {
		base := path.Base(name)
		var n int
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM schema_migrations WHERE name = $1", base).Scan(&n); err != nil {
			return fmt.Errorf("read the schema's migrations: %w", err)
		}
		if n == 0 {
			missing = append(missing, base)
		}
	}
	if len(missing) > 0 {
		applied := "1 migration, " + missing[0] + ", is"
		if len(missing) > 1 {
			applied = fmt.Sprintf("%d migrations, %s, are", len(missing), strings.Join(missing, ", "))
		}
		return vigil.Errorf(vigil.ECONFLICT, "the store is older than this vigil: %s not applied, and a command that only reads the store does not migrate it (vigil serve, or a command that writes the store, such as vigil sentinel add, migrates it)", applied)
	}
	unknown, err := unknownMigrations(ctx, tx, names)
	if err != nil {
		return err
	}
	db.schema = vigil.SchemaReport{Unknown: unknown}
	return nil
}
