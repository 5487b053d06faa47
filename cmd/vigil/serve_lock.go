package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
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
	path := filepath.Join(dataDir, serveLockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o640)
	if err != nil {
		return nil, fmt.Errorf("data directory lock: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("data directory lock %s: %w", path, err)
		}
		return nil, heldError(dataDir)
	}
	if err := f.Truncate(0); err == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return func() { f.Close() }, nil
}

// dataDirHeld returns the error lockDataDir would, naming the holder,
// when another vigil serve holds the data directory's lock, and nil when
// none does or the directory or its lock file does not exist: it creates
// nothing. A start whose address is taken asks it, so that a second
// daemon on the directory and the address of a running one names that
// one, not only the address.
func dataDirHeld(dataDir string) error {
	f, err := os.Open(filepath.Join(dataDir, serveLockFile))
	if err != nil {
		return nil
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); errors.Is(err, syscall.EWOULDBLOCK) {
		return heldError(dataDir)
	}
	return nil // released with f
}

// heldError is the error of a start on the data directory that another
// vigil serve holds, naming it by the pid its lock file holds.
func heldError(dataDir string) error {
	return fmt.Errorf("%s is running on the data directory %s: two daemons on one SQLite store would both claim its work; stop it, or give this one another --data", lockHolder(dataDir), dataDir)
}

// lockHolder names the vigil serve that holds the data directory's lock,
// by the pid it wrote there when it can be read.
func lockHolder(dataDir string) string {
	holder := "another vigil serve"
	if b, err := os.ReadFile(filepath.Join(dataDir, serveLockFile)); err == nil {
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
			holder += " (pid " + strconv.Itoa(pid) + ")"
		}
	}
	return holder
}
