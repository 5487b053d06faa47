package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// importLockFile is the file in the data directory that an import warc
// in one transaction holds an exclusive lock on while it runs on the
// SQLite store there: its transaction holds the store's writes from its
// first version to its last, so that a vigil serve started meanwhile
// would have its writes fail past their busy timeout, and a second
// import would wait as long.
const importLockFile = "import.lock"

// lockImport takes the data directory's import lock for an import warc
// in one transaction, and then refuses if a vigil serve holds the
// directory (serveLockFile). vigil serve takes its lock and then asks
// importHeld: of an import and a daemon started at once, one at least
// sees the other. It returns the function that releases the lock.
func lockImport(dataDir string) (func(), error) {
	if err := makeDataDir(dataDir); err != nil {
		return nil, err
	}
	release, held, err := takeLockFile(filepath.Join(dataDir, importLockFile))
	switch {
	case held:
		return nil, importHeldError(dataDir)
	case err != nil:
		return nil, fmt.Errorf("data directory import lock: %w", err)
	}
	if dataDirHeld(dataDir) != nil {
		release()
		return nil, fmt.Errorf("%s is running on the data directory %s, and an import in one transaction would hold its writes until the import ends: stop it first, or import record by record with --keep-partial (a failure then keeps what was imported)", lockHolder(dataDir), dataDir)
	}
	return release, nil
}

// importHeld returns an error naming the import warc that holds the data
// directory's import lock, and nil when none does or the directory or
// its lock file does not exist: it creates nothing.
func importHeld(dataDir string) error {
	if lockFileHeld(filepath.Join(dataDir, importLockFile)) {
		return importHeldError(dataDir)
	}
	return nil
}

// importHeldError is the error of a start on the data directory that an
// import warc in one transaction holds, naming it by the pid its lock
// file holds.
func importHeldError(dataDir string) error {
	holder := lockFileOwner("vigil import warc", filepath.Join(dataDir, importLockFile))
	return fmt.Errorf("%s is importing into the data directory %s in one transaction, which holds the store's writes until it ends: wait for it to end", holder, dataDir)
}

// refuseWriteDuringImport returns the error of a short command that
// writes the SQLite store in dataDir (vigil user add, passwd, remove and
// admin, sentinel add, rm and feed --rotate) while an import warc in one
// transaction holds it, and nil on PostgreSQL (dsn not empty), whose
// writes do not wait for an import's, or when no import holds it.
//
// It refuses at once, naming the import, its lock file and since when,
// rather than saying that it waits and waiting: the import's transaction
// holds SQLite's write lock until it ends, minutes or hours for a large
// file, while a write waits only the store's busy timeout (10s) and then
// fails; waiting for the import itself would leave an operator, or a
// script, blocked for a time nobody can tell. Trying again when the
// import ends costs a command line. The commands that only read (user
// list, sentinel list, export warc) do not ask: WAL lets them read the
// store as it was before the import. An import that starts after the
// check holds the write lock anyway: the write then fails past the busy
// timeout, and the store's error says another writer holds it. It opens
// the lock file once, and looks (by a shared lock, as lockFileHeld),
// stats and reads the holder's pid through that one handle.
func refuseWriteDuringImport(dataDir, dsn string) error {
	if dsn != "" {
		return nil
	}
	path := filepath.Join(dataDir, importLockFile)
	f, err := os.Open(path)
	if err != nil {
		return nil // no lock file: no import holds the directory
	}
	defer f.Close() // releases the lock taken to look
	if !lockHeldOn(f) {
		return nil
	}
	since := ""
	if fi, err := f.Stat(); err == nil {
		since = " since " + fi.ModTime().Format("2006-01-02 15:04:05 MST")
	}
	holder := "vigil import warc"
	if b, err := io.ReadAll(f); err == nil {
		holder = lockOwner(holder, b)
	}
	return fmt.Errorf("%s is importing into the data directory %s%s (it holds %s), in one transaction that holds the store's writes until it ends: try again when it ends (the commands that only read the store work meanwhile)", holder, dataDir, since, path)
}

// backupBesideImport runs copy, vigil backup's copy of the SQLite store
// in dataDir, and returns what the command says of an import warc in one
// transaction that held the data directory when the copy began or once
// it ended, "" when none did, with copy's error. An import holds its lock
// until its commit ends. One that holds it at the end has not committed:
// the copy, consistent as of one moment, has none of what it imports.
// One that held it at the start only committed during the copy, before
// or after the moment the copy holds: the copy may have none of it. An
// import that began and ended within the copy is not seen.
func backupBesideImport(dataDir string, copy func() error) (string, error) {
	path := filepath.Join(dataDir, importLockFile)
	var before string // who held the lock as the copy began, "" if none did
	if lockFileHeld(path) {
		before = lockFileOwner("vigil import warc", path)
	}
	if err := copy(); err != nil {
		return "", err
	}
	if lockFileHeld(path) {
		return fmt.Sprintf("%s is importing into the data directory %s in one transaction, not committed: the copy holds the store as it was before that import, none of what it imports (back up again once it ends to keep that too)",
			lockFileOwner("vigil import warc", path), dataDir), nil
	}
	if before != "" {
		return fmt.Sprintf("%s was importing into the data directory %s in one transaction when the copy began, and has ended since: the copy may hold the store as it was before that import, none of what it imported (back up again to be sure to keep that too)",
			before, dataDir), nil
	}
	return "", nil
}
