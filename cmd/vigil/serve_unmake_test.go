package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDataDirUndoneLeavesTheHoldersLock: two vigil serve start at once on
// a data directory that is not there. One makes it; the other finds it
// made and takes its lock first. The one that made it, refused the lock,
// removes nothing: the lock file and the directory are the holder's. It
// removed the holder's lock file, and the directory emptied so, and a
// third start then took a lock of its own on the directory the holder
// runs on: two daemons on one SQLite store. A start that holds the lock
// of a directory it made, and fails before it opens the store, removes
// the lock file and the directory.
func TestDataDirUndoneLeavesTheHoldersLock(t *testing.T) {
	for _, tc := range []struct {
		name   string
		holder bool // another start holds the lock, not this one
	}{{"refused the lock", true}, {"held the lock", false}} {
		t.Run(tc.name, func(t *testing.T) {
			data := filepath.Join(t.TempDir(), "a", "data")
			undo, err := makeDataDirUndone(data)
			if err != nil {
				t.Fatal(err)
			}
			release, err := lockDataDir(data)
			if err != nil {
				t.Fatal(err)
			}
			if !tc.holder {
				err := undo(true)
				release()
				if err != nil {
					t.Fatal(err)
				}
				if _, err := os.Stat(filepath.Dir(data)); !os.IsNotExist(err) {
					t.Errorf("the directories this start made are left (stat: %v)", err)
				}
				return
			}
			defer release() // the other start's
			if _, err := lockDataDir(data); err == nil {
				t.Fatal("two starts hold the lock")
			}
			if err := undo(false); err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(data, serveLockFile)); err != nil {
				t.Errorf("the refused start removed the holder's lock file: %v", err)
			}
			if err := makeDataDir(data); err != nil {
				t.Fatal(err)
			}
			if third, err := lockDataDir(data); err == nil {
				third()
				t.Errorf("a third start took the lock of the directory another holds")
			}
		})
	}
}
