package sqlite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	sqlite3 "modernc.org/sqlite/lib"
)

// A store this user may read but not write (its directory's and its
// files' modes, another user's, a backup copy inspected) is read by the
// commands that only read it, through OpenCurrent and Open alike, and a
// write to it says that the store is read-only (readOnlyError).
//
// A reader of a database in WAL mode that may not write it needs its
// -shm file, which SQLite makes beside it where no process has it open:
// where that directory may not be written either, SQLite refuses to
// open it (SQLITE_READONLY_DIRECTORY). The store is then read as
// immutable (SQLite's immutable=1: no -shm, no locks, the -wal not
// read) when its -wal holds nothing (immutableFallback): no process has
// it open (a process that has it open keeps its -shm), and every commit
// is in vigil.db. A -wal holding commits, a copy taken beside a writer
// or left by a crash, cannot be read so without losing them, and is
// refused (walLeft), saying what to do. A process that may write the
// directory (the store's owner) could start writing while an immutable
// reader reads; the reader's reads may then fail or miss the writes,
// and the store is never harmed: the reader writes nothing.

// immutableFallback returns nil when the database at path, which SQLite
// refused to open read-only for want of its -shm file (err), may be read
// as immutable: its -wal missing or empty, and no -shm beside it. Else
// it returns the error saying why not.
func immutableFallback(path string, err error) error {
	wal, werr := os.Stat(path + "-wal")
	if werr != nil && !errors.Is(werr, fs.ErrNotExist) {
		return fmt.Errorf("%w (and its %s-wal: %v)", err, filepath.Base(path), werr)
	}
	if werr == nil && wal.Size() > 0 {
		return walLeft(path)
	}
	if _, serr := os.Stat(path + "-shm"); !errors.Is(serr, fs.ErrNotExist) {
		return err
	}
	return nil
}

// isUnreadableWAL reports whether err, of an open of the database at
// path, is SQLite's SQLITE_CANTOPEN for a -wal holding commits with no
// -shm beside it, which a user who may not make the -shm gets.
func isUnreadableWAL(path string, err error) bool {
	var e interface{ Code() int }
	if !errors.As(err, &e) || e.Code()&0xff != sqlite3.SQLITE_CANTOPEN {
		return false
	}
	wal, werr := os.Stat(path + "-wal")
	_, serr := os.Stat(path + "-shm")
	return werr == nil && wal.Size() > 0 && errors.Is(serr, fs.ErrNotExist)
}

// walLeft says why the database at path, whose -wal holds commits and
// which has no -shm, cannot be read by a user who may not write its
// directory.
func walLeft(path string) error {
	name := filepath.Base(path)
	return fmt.Errorf("cannot read it: its %s-wal holds commits not yet in %s (a copy taken while a writer had it open, or left by a crash), and a reader needs its %s-shm to read them, which is missing and which this user may not make in %s; copy the store to a directory you may write (%s and %s-wal together) and read the copy, or run the command as the store's owner",
		name, name, name, filepath.Dir(path), name, name)
}

// readOnlyError returns err, of a write, as the error saying that the
// store may not be written, and why, when it is one of SQLite's
// SQLITE_READONLY errors; any other error is returned as it is. Not a
// domain error: its message names the file, which API clients are not
// told.
func (db *DB) readOnlyError(err error) error {
	if !isReadOnly(err) {
		return err
	}
	if db.readOnly {
		return fmt.Errorf("the store at %s is read-only: it was opened to be read only (%w)", db.path, err)
	}
	return fmt.Errorf("the store at %s is read-only: this user may not write it or its directory (%w); run the command as the store's owner, or on a copy in a directory you may write", db.path, err)
}
