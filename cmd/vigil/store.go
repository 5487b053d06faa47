package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/postgres"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/internal/zstd"
)

// storeFlags are the flags of every command that opens the store.
type storeFlags struct {
	data     *string
	postgres *string
}

// addStoreFlags adds --data (default $VIGIL_DATA, else ./vigil-data) and
// --postgres (default $VIGIL_POSTGRES_DSN) to fs.
func addStoreFlags(fs *flag.FlagSet, env *environment) storeFlags {
	data := env.getenv("VIGIL_DATA")
	if data == "" {
		data = "vigil-data"
	}
	return storeFlags{
		data:     statedString(fs, "data", data, "data `directory` holding the SQLite store (default $VIGIL_DATA or ./vigil-data)"),
		postgres: secretString(fs, "postgres", env.getenv("VIGIL_POSTGRES_DSN"), "PostgreSQL `DSN`; uses PostgreSQL instead of SQLite (default $VIGIL_POSTGRES_DSN)"),
	}
}

// addOptionalStoreFlags adds --data and --postgres for a command that
// reads the store only when one is given on its command line (sentinel
// check): neither has a default, not $VIGIL_DATA nor $VIGIL_POSTGRES_DSN
// either, which a shell exports for every command, so that both are empty
// when neither is given (storeFlags.given).
func addOptionalStoreFlags(fs *flag.FlagSet, what string) storeFlags {
	return storeFlags{
		data:     statedString(fs, "data", "", "data `directory` holding the SQLite store "+what),
		postgres: secretString(fs, "postgres", "", "PostgreSQL `DSN` of the store "+what+"; uses PostgreSQL instead of SQLite"),
	}
}

// given reports whether the flags name a store (addOptionalStoreFlags).
func (sf storeFlags) given() bool { return *sf.data != "" || *sf.postgres != "" }

// openStore opens the store: PostgreSQL at dsn if it is not empty, else
// the SQLite file in dataDir (created if needed). The daemon uses it too.
func openStore(ctx context.Context, dataDir, dsn string) (vigil.Store, error) {
	if dsn != "" {
		return postgres.Open(ctx, dsn)
	}
	if err := makeDataDir(dataDir); err != nil {
		return nil, err
	}
	return sqlite.Open(ctx, dataDir)
}

// notADataDir returns the error of a data directory (--data, or
// $VIGIL_DATA) that names a file, nil for a directory or nothing yet.
// Every command that reads or makes the data directory asks it first:
// through the directory, a file gave "not a directory" from whatever the
// command did first there (mkdir, a lock, SQLite).
func notADataDir(dataDir string) error {
	if fi, err := os.Stat(dataDir); err == nil && !fi.IsDir() {
		return fmt.Errorf("--data %s is a file, not a data directory", dataDir)
	}
	return nil
}

// makeDataDir makes the data directory if it is not there yet.
func makeDataDir(dataDir string) error {
	if err := notADataDir(dataDir); err != nil {
		return err
	}
	if err := os.MkdirAll(dataDir, 0o750); err != nil {
		return fmt.Errorf("data directory: %w", err)
	}
	return nil
}

// makeDataDirUndone makes the data directory as makeDataDir does, and
// returns the function that removes what it made, for a start that fails
// before it opens the store: the directories it made, deepest first,
// with the serve lock file if locked says this start holds its lock;
// nothing when the directory was there. A start refused the lock leaves
// the lock file to the start that holds it, and so the directory, even
// one it made: another start at once may have found it made and taken
// its lock first. It removes no directory that is not empty, and says
// what it could not remove, but to a start refused the lock.
func makeDataDirUndone(dataDir string) (undo func(locked bool) error, err error) {
	if err := notADataDir(dataDir); err != nil {
		return nil, err
	}
	var made []string
	for d := filepath.Clean(dataDir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); !errors.Is(err, fs.ErrNotExist) {
			break
		}
		made = append(made, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	if err := os.MkdirAll(dataDir, 0o750); err != nil {
		return nil, fmt.Errorf("data directory: %w", err)
	}
	return func(locked bool) error {
		if len(made) == 0 {
			return nil
		}
		var err error
		if locked {
			err = os.Remove(filepath.Join(dataDir, serveLockFile))
			if errors.Is(err, fs.ErrNotExist) {
				err = nil
			}
		}
		for _, d := range made {
			if rerr := os.Remove(d); rerr != nil {
				if locked {
					err = errors.Join(err, rerr)
				} // else the holder's files keep it, as they should
				break // its parents are not empty either
			}
		}
		if err != nil {
			return fmt.Errorf("remove the data directory this start made: %w", err)
		}
		return nil
	}, nil
}

// closeStore closes the store of a command that returns code and err,
// deferred with its named results (defer closeStore(st, &code, &err)): a
// Close that fails (SQLite's last checkpoint on a full disk, or blocked
// by a reader) fails the command, which says why; the store's error
// names it and where. After an error of the command's own, it is said
// too, on the line after it.
func closeStore(st vigil.Store, code *int, err *error) {
	cerr := st.Close()
	if cerr == nil {
		return
	}
	*code, *err = exitError, errors.Join(*err, cerr)
}

// openExistingStore opens the store as openStore does, but refuses a data
// directory that holds no SQLite store, or a PostgreSQL database that
// holds no Vigil store (postgres.OpenExisting), instead of making an empty
// one there: the commands that only read or remove (sentinel list, sentinel
// rm, export warc) answered for a mistyped --data as for an empty store,
// and left a new database behind, and those that manage the accounts of
// an installation (the user commands) made users no daemon served. Only
// the commands that put what a daemon runs on into the store make one:
// vigil serve, sentinel add and import warc, which may come before the
// first start.
func openExistingStore(ctx context.Context, dataDir, dsn string) (vigil.Store, error) {
	if dsn != "" {
		return postgres.OpenExisting(ctx, dsn)
	}
	if err := noStoreIn(dataDir); err != nil {
		return nil, err
	}
	return openStore(ctx, dataDir, dsn)
}

// noStoreIn returns the error of openExistingStore for a data directory
// that holds no SQLite store, nil for one that does.
func noStoreIn(dataDir string) error {
	if err := notADataDir(dataDir); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dataDir, sqlite.FileName)); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no store in %s: it has no %s (%s)", dataDir, sqlite.FileName, noStoreHint)
	}
	return nil
}

// noStoreHint is what noStoreIn and openStoreToRead tell to do about a
// data directory that holds no store.
const noStoreHint = "vigil serve makes one at its first start, as vigil sentinel add and vigil import warc do; give the --data of yours, or --postgres"

// openStoreToWrite is openExistingStore for a short command that writes
// the store: on SQLite it refuses at once while an import warc holds the
// store's writes (refuseWriteDuringImport), where the command's write
// would wait, then fail.
func openStoreToWrite(ctx context.Context, dataDir, dsn string) (vigil.Store, error) {
	if err := refuseWriteDuringImport(dataDir, dsn); err != nil {
		return nil, err
	}
	return openExistingStore(ctx, dataDir, dsn)
}

// findStore opens the store as openExistingStore does, but returns nil
// for a data directory that holds no SQLite store yet: for sentinel add,
// which reads the owner's sentinels to check the new ones, and makes the
// store only once it has one to add.
func findStore(ctx context.Context, dataDir, dsn string) (vigil.Store, error) {
	if dsn == "" {
		if err := notADataDir(dataDir); err != nil {
			return nil, err
		}
		if _, err := os.Stat(filepath.Join(dataDir, sqlite.FileName)); errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
	}
	return openStore(ctx, dataDir, dsn)
}

// openStoreToRead opens the store as openExistingStore does, refusing a
// data directory or PostgreSQL database that holds none, for a command
// that only reads it (sentinel check given the store), which changes
// nothing there: it does not migrate a store an older vigil left, but
// refuses it (sqlite.OpenCurrent, postgres.OpenCurrent), and it does not
// ask whether an import holds the store: WAL lets it read the store as
// it was before the import, as sentinel list does.
func openStoreToRead(ctx context.Context, dataDir, dsn string) (vigil.Store, error) {
	if dsn != "" {
		return postgres.OpenCurrent(ctx, dsn)
	}
	if err := noStoreIn(dataDir); err != nil {
		return nil, err
	}
	db, err := sqlite.OpenCurrent(ctx, dataDir)
	if vigil.ErrorCode(err) == vigil.ENOTFOUND { // an empty vigil.db, or not Vigil's
		return nil, vigil.Errorf(vigil.ENOTFOUND, "%s (%s)", vigil.ErrorMessage(err), noStoreHint)
	}
	return db, err
}

// openWarehouse returns the warehouse service over st with the zstd codec.
func openWarehouse(st vigil.Store, opt warehouse.Options) (*warehouse.Warehouse, error) {
	codec, err := zstd.New(0)
	if err != nil {
		return nil, err
	}
	opt.Codec = codec
	return warehouse.New(st, opt)
}
