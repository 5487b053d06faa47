package sqlite

import (
	"errors"

	"github.com/vigil-web/vigil"
	driver "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// busyError returns err as an EUNAVAILABLE domain error when it is
// SQLite's SQLITE_BUSY: a write that waited busyTimeout for the write
// lock another connection holds (another process's write transaction,
// most often an import warc in one transaction, which holds it until it
// ends) and gave up. The message says so, and what to do, instead of
// the driver's "database is locked (5) (SQLITE_BUSY)". Not ECONFLICT:
// the write conflicts with no state of the store, and callers read
// ECONFLICT as their own refusals (vigil user add as "already a user");
// the same write may succeed once the other writer ends. Any other
// error is returned as it is.
func (db *DB) busyError(err error) error {
	if !isBusy(err) {
		return err
	}
	// No path in it: the message reaches API clients (a 503), who are
	// not told where the server keeps its files.
	return vigil.Errorf(vigil.EUNAVAILABLE, "the store is busy: another writer (another process: an import warc in one transaction, most likely, or vigil serve) held its write lock for longer than the %v a write waits: try again when it ends", busyTimeout)
}

// isBusy reports whether err is SQLite's SQLITE_BUSY, in any of its
// extended codes.
func isBusy(err error) bool {
	var e *driver.Error
	return errors.As(err, &e) && e.Code()&0xff == sqlite3.SQLITE_BUSY
}
