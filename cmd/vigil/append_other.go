//go:build !linux

package main

import "os"

// appending reports whether f was opened for appending (the shell's >>)
// rather than truncated (>), and whether that could be told: here it
// cannot.
func appending(f *os.File) (append, known bool) {
	return false, false
}
