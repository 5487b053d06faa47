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
	"time"

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
// with the database's mode; where the directory may not be written
// either, OpenCurrent says so. It never reads the file as immutable,
// which would be wrong beside a vigil serve writing it.
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
	q := url.Values{}
	q.Set("mode", "ro")
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "query_only(1)")
	dsn := "file:" + path + "?" + q.Encode()
	where := "sqlite at " + path
	w, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("%s: open: %w", where, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	db := &DB{write: w, stmts: newStmtCache(w), path: path, now: time.Now, readOnly: true, wrote: new(atomic.Bool)}
	if err := db.checkCurrent(ctx); err != nil {
		w.Close()
		if vigil.ErrorCode(err) == vigil.ENOTFOUND {
			return nil, err
		}
		if isReadOnlyDirectory(err) {
			return nil, fmt.Errorf("%s: %s", where, shmMissing(path))
		}
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	r, err := sql.Open("sqlite", dsn)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("%s: open: %w", where, err)
	}
	r.SetMaxOpenConns(8)
	r.SetMaxIdleConns(8)
	db.read = r
	db.readStmts = newStmtCache(r)
	return db, nil
}

// shmMissing says why the database at path, in WAL mode, cannot be read
// by a user who may not write it (isReadOnlyDirectory).
func shmMissing(path string) string {
	return fmt.Sprintf("cannot read it read-only: it is in WAL mode, and a reader that may not write it needs its %s-shm, which is missing (no process has the store open) and which this user may not make in %s; run the command as the store's owner, or while vigil serve runs",
		filepath.Base(path), filepath.Dir(path))
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
