package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The data directory's locks (serve.lock, import.lock) are advisory
// flocks on a file that holds the holder's pid: the system releases one
// when its process ends, however it ends.

// takeLockFile takes the exclusive lock on the file at path, creating
// it, and writes the process's pid in it. held says that another process
// holds it (release is then nil); err is any other failure. release
// gives the lock up.
//
// A process that only looks whether the lock is held (lockFileHeld)
// holds a shared lock on the file for a moment. When the exclusive lock
// is refused, takeLockFile looks itself: a shared lock refused too means
// a holder (held, at once); a shared lock granted means looks alone are
// in the way, and it tries again, for up to lockWait, so that a look
// cannot make a serve or an import refuse to start.
func takeLockFile(path string) (release func(), held bool, err error) {
	for range lockReopens {
		f, held, err := lockFileAt(path)
		if f == nil {
			return nil, held, err
		}
		// The lock is on the file f opened: a process that held it may
		// have removed the file since (a serve that fails to start
		// removes the lock file it made), leaving this lock on a file
		// no other process opens. It is the lock only if f is still
		// the file at path.
		st, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, false, fmt.Errorf("%s: %w", path, err)
		}
		if now, err := os.Stat(path); err == nil && os.SameFile(st, now) {
			// The pid is for the operator's eyes only (which
			// process holds the store): the lock is the flock,
			// so a file that cannot be written (a full disk)
			// still locks.
			if err := f.Truncate(0); err == nil {
				f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
			}
			return func() { f.Close() }, false, nil
		}
		f.Close()
	}
	return nil, false, fmt.Errorf("%s: removed or replaced each time it was locked", path)
}

// lockReopens bounds how many times takeLockFile opens the lock file
// again when the one it locked was removed meanwhile.
const lockReopens = 10

// lockFileOpened, when set (tests only), runs between lockFileAt's open
// of the lock file and its lock.
var lockFileOpened func()

// lockFileAt opens the file at path, creating it, and takes its
// exclusive lock: the open file holding it, or held (another process
// holds it), or err.
func lockFileAt(path string) (f *os.File, held bool, err error) {
	f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o640)
	if err != nil {
		return nil, false, err
	}
	if lockFileOpened != nil {
		lockFileOpened()
	}
	deadline := time.Now().Add(lockWait)
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EWOULDBLOCK) || lockFileHeld(path) || time.Now().After(deadline) {
			break
		}
		time.Sleep(lockRetry)
	}
	if err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, true, nil
		}
		return nil, false, fmt.Errorf("%s: %w", path, err)
	}
	return f, false, nil
}

// lockWait is how long takeLockFile tries a lock that looks alone keep
// it from, lockRetry how far apart: a look lasts microseconds, unless
// its process is held up.
const (
	lockWait  = 2 * time.Second
	lockRetry = time.Millisecond
)

// lockFileHeld reports whether another process holds the lock on the
// file at path; false when the file does not exist: it creates nothing.
// It looks by a shared lock, which only the holder's exclusive one
// refuses: two looks at once do not take each other for a holder.
func lockFileHeld(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close() // releases the lock taken to look
	return lockHeldOn(f)
}

// lockHeldOn is lockFileHeld on a lock file already open: it looks by a
// shared lock on f, which f keeps, when granted, until it is closed.
func lockHeldOn(f *os.File) bool {
	return errors.Is(syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB), syscall.EWOULDBLOCK)
}

// lockFileOwner returns who, by name, holds the lock on the file at path,
// with the pid it wrote there when it can be read: "vigil serve (pid
// 42)".
func lockFileOwner(name, path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return name
	}
	return lockOwner(name, b)
}

// lockOwner is lockFileOwner on the content b of the lock file: name,
// with the pid b holds when it holds one.
func lockOwner(name string, b []byte) string {
	if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
		return name + " (pid " + strconv.Itoa(pid) + ")"
	}
	return name
}
