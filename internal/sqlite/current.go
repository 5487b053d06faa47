package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/vigil-web/vigil"
	driver "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// OpenCurrent opens the database vigil.db in dir for a command that only
// reads the store, and changes nothing there, where Open makes and
// migrates it: it opens the file read-only (as Backup reads it), so that
// its mode, its journal mode and its bytes stay as they were, and a user
// who may read the store but not write it reads it; and Close does not
// checkpoint it. Where dir has no database, or an empty one, or one with
// no schema_migrations table, it returns ENOTFOUND, and where the
// database lacks migrations of this build (an older vigil left it),
// ECONFLICT saying which (vigil.NotMigrated).
//
// A reader of a database in WAL mode needs its -shm and -wal files, which
// SQLite makes where no process has the database open, and leaves, empty,
// with the database's mode. Where the directory may not be written
// either, and they are missing, OpenCurrent reads the file as immutable
// if its -wal holds nothing, and else says why it cannot read it
// (readonly.go). A write through the DB it returns says that the store
// is read-only.
func OpenCurrent(ctx context.Context, dir string) (*DB, error) {
	path := filepath.Join(dir, FileName)
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, vigil.Errorf(vigil.ENOTFOUND, "no store in %s: it has no %s", dir, FileName)
	} else if err != nil {
		return nil, fmt.Errorf("sqlite at %s: %w", path, err)
	}
	if fi.Size() == 0 {
		return nil, vigil.Errorf(vigil.ENOTFOUND, "no store in %s: its %s is empty", dir, FileName)
	}
	dsn := currentDSN(path, false)
	where := "sqlite at " + path
	db, err := openCurrent(ctx, path, dsn)
	if isReadOnlyDirectory(err) {
		// A directory this user may not write: read as immutable
		// (readonly.go), if it can be.
		if ferr := immutableFallback(path, err); ferr != nil {
			return nil, fmt.Errorf("%s: %w", where, ferr)
		}
		dsn = currentDSN(path, true)
		db, err = openCurrent(ctx, path, dsn)
	}
	switch {
	case err == nil:
	case vigil.ErrorCode(err) == vigil.ENOTFOUND:
		return nil, err
	case isUnreadableWAL(path, err):
		return nil, fmt.Errorf("%s: %w", where, walLeft(path))
	default:
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	r, err := sql.Open("sqlite", dsn)
	if err != nil {
		db.write.Close()
		return nil, fmt.Errorf("%s: open: %w", where, err)
	}
	r.SetMaxOpenConns(8)
	r.SetMaxIdleConns(8)
	db.read = r
	db.readStmts = newStmtCache(r)
	return db, nil
}

// currentDSN is the data source name of OpenCurrent's connections to the
// database at path: read-only, and immutable where asked.
func currentDSN(path string, immutable bool) string {
	q := url.Values{}
	q.Set("mode", "ro")
	if immutable {
		q.Set("immutable", "1")
	}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "query_only(1)")
	return fileURI(path) + "?" + q.Encode()
}

// openCurrent opens OpenCurrent's writer connection to the database at
// path with dsn, and checks the store (checkCurrent).
func openCurrent(ctx context.Context, path, dsn string) (*DB, error) {
	w, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("open: %w", err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	db := &DB{write: w, stmts: newStmtCache(w), path: path, now: microNow, readOnly: true, wrote: new(atomic.Bool)}
	if err := db.checkCurrent(ctx); err != nil {
		w.Close()
		return nil, err
	}
	return db, nil
}

// isReadOnly reports whether err is one of SQLite's SQLITE_READONLY
// errors: a write to a database this process may not write (the file's
// or its directory's mode, or a connection opened read-only).
func isReadOnly(err error) bool {
	var e interface{ Code() int }
	return errors.As(err, &e) && e.Code()&0xff == sqlite3.SQLITE_READONLY
}

// isPlainReadOnly reports whether err is SQLite's SQLITE_READONLY
// itself, not one of its extended codes (SQLITE_READONLY_DBMOVED,
// _RECOVERY, _CANTLOCK, ...): a database this user may not write.
func isPlainReadOnly(err error) bool {
	var e interface{ Code() int }
	return errors.As(err, &e) && e.Code() == sqlite3.SQLITE_READONLY
}

// isReadOnlyDirectory reports whether err is SQLite's
// SQLITE_READONLY_DIRECTORY: a database in WAL mode opened read-only
// whose -shm file is missing and cannot be made.
func isReadOnlyDirectory(err error) bool {
	var e *driver.Error
	return errors.As(err, &e) && e.Code() == sqlite3.SQLITE_READONLY_DIRECTORY
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
		return vigil.Errorf(vigil.ENOTFOUND, "no store in %s: its %s has no schema_migrations table", filepath.Dir(db.path), FileName)
	}
	done, err := db.appliedMigrations(ctx)
	if err != nil {
		return err
	}
	names, err := migrationNames()
	if err != nil {
		return err
	}
	if err := vigil.NotMigrated(missingMigrations(done, names)); err != nil {
		return err
	}
	db.schema = vigil.SchemaReport{Unknown: unknownMigrations(done, names)}
	return nil
}
