package main

import (
	"os"
	"syscall"
)

// appending reports whether f was opened for appending (the shell's >>)
// rather than truncated (>), and whether that could be told.
func appending(f *os.File) (append, known bool) {
	c, err := f.SyscallConn()
	if err != nil {
		return false, false
	}
	var flags uintptr
	var errno syscall.Errno
	if err := c.Control(func(fd uintptr) {
		flags, _, errno = syscall.Syscall(syscall.SYS_FCNTL, fd, syscall.F_GETFL, 0)
	}); err != nil || errno != 0 {
		return false, false
	}
	return flags&syscall.O_APPEND != 0, true
}
