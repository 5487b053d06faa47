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

	"github.com/vigil-web/vigil"
)

// Backup writes a copy of the store in dir to the file dest, consistent as
// of one moment, while other processes (vigil serve) read and write the
// store: VACUUM INTO, in one read transaction, which writers do not wait
// for. The copy is one file, with no -wal to go with it, and readable by
// its owner only, as the store is. The store is opened read-only and not
// migrated. The copy is on disk (synced) when Backup returns. Backup
// refuses a dest that exists (EINVALID), or a dir without
// a store (ENOTFOUND); a copy that fails part-way is removed.
func Backup(ctx context.Context, dir, dest string) (err error) {
	src := filepath.Join(dir, FileName)
	if _, err := os.Stat(src); errors.Is(err, fs.ErrNotExist) {
		return vigil.Errorf(vigil.ENOTFOUND, "no store in %s: it has no %s", dir, FileName)
	}
	// Made empty first, for its mode: VACUUM INTO writes into an empty
	// file, and would make a missing one readable by every user.
	f, err := os.OpenFile(dest, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return vigil.Errorf(vigil.EINVALID, "%s exists: give the backup a new file", dest)
	} else if err != nil {
		return fmt.Errorf("the copy's file: %w", err)
	}
	f.Close()
	defer func() {
		if err != nil {
			os.Remove(dest)
		}
	}()
	q := url.Values{}
	q.Set("mode", "ro")
	q.Add("_pragma", "busy_timeout(10000)")
	db, err := sql.Open("sqlite", fileURI(src)+"?"+q.Encode())
	if err != nil {
		return fmt.Errorf("backup %s: %w", src, err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, "VACUUM INTO ?", dest); err != nil {
		return fmt.Errorf("backup %s to %s: %w", src, dest, err)
	}
	// VACUUM INTO leaves the copy to the operating system's cache: a
	// crash right after the command said it was written could lose it.
	if err := syncFile(dest); err != nil {
		return fmt.Errorf("backup %s: %w", dest, err)
	}
	if err := syncFile(filepath.Dir(dest)); err != nil { // the copy's name in its folder
		return fmt.Errorf("backup %s: %w", dest, err)
	}
	return nil
}

// syncFile makes what was written to the file or folder name durable.
func syncFile(name string) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	return f.Sync()
}
