package main

import (
	"fmt"
	"path/filepath"
)

// serveLockFile is the file in the data directory that vigil serve holds
// an exclusive lock on while it runs on the SQLite store there.
const serveLockFile = "serve.lock"

// lockDataDir takes the data directory of a SQLite store for one vigil
// serve: two daemons on one store both claim its work, each with its own
// settings (one without SMTP dead-letters the other's emails). The lock is
// an advisory flock on serve.lock, which holds the holder's pid; the
// system releases it when the process ends, however it ends. The short
// commands (sentinel add, list...) do not take it: they run beside the
// daemon. It returns the function that releases the lock.
func lockDataDir(dataDir string) (func(), error) {
	release, held, err := takeLockFile(filepath.Join(dataDir, serveLockFile))
	switch {
	case held:
		return nil, heldError(dataDir)
	case err != nil:
		return nil, fmt.Errorf("data directory lock: %w", err)
	}
	return release, nil
}

// dataDirHeld returns the error lockDataDir would, naming the holder,
// when another vigil serve holds the data directory's lock, and nil when
// none does or the directory or its lock file does not exist: it creates
// nothing. vigil keys rotate asks it, before and after it replaces a
// key, and vigil import once it holds its own lock: neither takes
// the serve lock, which vigil serve takes itself before it listens.
func dataDirHeld(dataDir string) error {
	if lockFileHeld(filepath.Join(dataDir, serveLockFile)) {
		return heldError(dataDir)
	}
	return nil
}

// heldError is the error of a start on the data directory that another
// vigil serve holds, naming it by the pid its lock file holds.
func heldError(dataDir string) error {
	return fmt.Errorf("%s is running on the data directory %s: two daemons on one SQLite store would both claim its work; stop it, or give this one another --data", lockHolder(dataDir), dataDir)
}

// lockHolder names the vigil serve that holds the data directory's lock,
// by the pid it wrote there when it can be read.
func lockHolder(dataDir string) string {
	return lockFileOwner("another vigil serve", filepath.Join(dataDir, serveLockFile))
}
