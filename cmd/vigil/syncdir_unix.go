//go:build unix

package main

import "os"

// syncDir flushes directory dir to disk, so that a file just renamed or
// linked into it is there after a power loss: the rename of a synced file
// is the directory's change, not the file's.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
