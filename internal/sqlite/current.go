package sqlite

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/vigil-web/vigil"
)

// OpenCurrent opens the database vigil.db in dir as Open does, for a
// command that only reads the store, but changes nothing there: where dir
// has no database it returns ENOTFOUND and makes none, and where the
// database lacks migrations of this build (an older vigil left it), it
// returns ECONFLICT saying which, and does not migrate it, which Open
// would do.
func OpenCurrent(ctx context.Context, dir string) (*DB, error) {
	path := filepath.Join(dir, FileName)
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, vigil.Errorf(vigil.ENOTFOUND, "no store in %s: it has no %s", dir, FileName)
	}
	return openFile(ctx, path, true)
}

// checkCurrent is migrate for OpenCurrent: it applies nothing, and
// returns ENOTFOUND for a database with no schema_migrations table (no
// Vigil store) and ECONFLICT for one that lacks migrations of this build,
// and records those the store has that this build has not (Schema).
func (db *DB) checkCurrent(ctx context.Context) error {
	var tables int
	if err := db.write.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'").Scan(&tables); err != nil {
		return err
	}
	if tables == 0 {
		return vigil.Errorf(vigil.ENOTFOUND, "no store: the database has no schema_migrations table")
	}
	done, err := db.appliedMigrations(ctx)
	if err != nil {
		return err
	}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	var missing []string
	for _, name := range names {
		if base := filepath.Base(name); !done[base] {
			missing = append(missing, base)
		}
	}
	if err := notMigrated(missing); err != nil {
		return err
	}
	db.schema = vigil.SchemaReport{Unknown: unknownMigrations(done, names)}
	return nil
}

// notMigrated returns the ECONFLICT error of OpenCurrent for a store that
// lacks the migrations missing (in name order), nil for none.
func notMigrated(missing []string) error {
	switch len(missing) {
	case 0:
		return nil
	case 1:
		return vigil.Errorf(vigil.ECONFLICT, "the store is older than this vigil: 1 migration, %s, is not applied, and a command that only reads the store does not migrate it (vigil serve, or a command that writes the store, such as vigil sentinel add, migrates it)", missing[0])
	}
	return vigil.Errorf(vigil.ECONFLICT, "the store is older than this vigil: %d migrations, %s, are not applied, and a command that only reads the store does not migrate it (vigil serve, or a command that writes the store, such as vigil sentinel add, migrates it)",
		len(missing), strings.Join(missing, ", "))
}
