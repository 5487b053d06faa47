//go:build unix

package main

import (
	"errors"
	"os"
	"syscall"
)

// syncDir flushes directory dir to disk, so that a file just renamed or
// linked into it is there after a power loss: the rename of a synced file
// is the directory's change, not the file's. A file system that cannot
// sync a directory (EINVAL or ENOTSUP: some network, FUSE and virtual
// machines' shared file systems) is no error: the rename is done, and
// that file system offers no more.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTSUP) || errors.Is(err, syscall.EOPNOTSUPP) {
		err = nil
	}
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
