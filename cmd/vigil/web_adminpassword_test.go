package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestRemoveStaleAdminPassword: a start removes the admin-password file
// the first start wrote, a regular file of an email line and a password
// line, when its password no longer signs its account in, and nothing
// else: not a file whose password still does, and, without reading it,
// not a file of another form, a symbolic link (to a file that says the
// same), a FIFO or a device, which blocked the start reading it, or
// filled the memory.
func TestRemoveStaleAdminPassword(t *testing.T) {
	const email = "admin@localhost"
	for _, tc := range []struct {
		name string
		// make puts something at the admin-password path of the data
		// directory, given a directory outside it.
		make    func(t *testing.T, data, outside string)
		read    bool // the email and password it holds are asked about
		removed bool
	}{
		{"the admin's file, its password stale", func(t *testing.T, data, _ string) {
			writeFile(t, data, adminPasswordFile, email+"\nstale\n")
		}, true, true},
		{"another account's file, its password stale", func(t *testing.T, data, _ string) {
			writeFile(t, data, adminPasswordFile, "eve@example.com\nstale\n")
		}, true, true},
		{"the admin's file, its password signing in", func(t *testing.T, data, _ string) {
			writeFile(t, data, adminPasswordFile, email+"\nsecret\n")
		}, true, false},
		{"one line", func(t *testing.T, data, _ string) {
			writeFile(t, data, adminPasswordFile, email+"\n")
		}, false, false},
		{"three lines", func(t *testing.T, data, _ string) {
			writeFile(t, data, adminPasswordFile, email+"\nstale\nnotes\n")
		}, false, false},
		{"longer than a password file", func(t *testing.T, data, _ string) {
			writeFile(t, data, adminPasswordFile, email+"\nstale"+strings.Repeat("x", 5000)+"\n")
		}, false, false},
		{"a symbolic link to a file that names the admin", func(t *testing.T, data, outside string) {
			target := writeFile(t, outside, "notes", email+"\nstale\n")
			if err := os.Symlink(target, filepath.Join(data, adminPasswordFile)); err != nil {
				t.Fatal(err)
			}
		}, false, false},
		{"a FIFO", func(t *testing.T, data, _ string) {
			if err := syscall.Mkfifo(filepath.Join(data, adminPasswordFile), 0o600); err != nil {
				t.Skip("no FIFO:", err)
			}
		}, false, false},
		{"a directory", func(t *testing.T, data, _ string) {
			if err := os.Mkdir(filepath.Join(data, adminPasswordFile), 0o700); err != nil {
				t.Fatal(err)
			}
		}, false, false},
		{"nothing", func(*testing.T, string, string) {}, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, outside := t.TempDir(), t.TempDir()
			path := filepath.Join(data, adminPasswordFile)
			tc.make(t, data, outside)
			read := false
			stale := func(email, password string) (string, error) {
				read = true
				if password == "stale" {
					return "no longer signs " + email + " in", nil
				}
				return "", nil
			}
			_, before := os.Lstat(path)
			removedPath, reason, err := removeStaleAdminPassword(data, stale)
			if err != nil {
				t.Fatalf("removeStaleAdminPassword: %v", err)
			}
			_, after := os.Lstat(path)
			removed := before == nil && after != nil
			if removed != tc.removed || read != tc.read {
				t.Errorf("removed %v, read %v; want %v, %v", removed, read, tc.removed, tc.read)
			}
			if removed && (removedPath != path || !strings.HasPrefix(reason, "no longer signs ")) || !removed && (removedPath != "" || reason != "") {
				t.Errorf("removeStaleAdminPassword says it removed %q (%q); removed %v", removedPath, reason, removed)
			}
			if b, err := os.ReadFile(filepath.Join(outside, "notes")); err == nil && string(b) != email+"\nstale\n" {
				t.Errorf("the file outside the data directory changed: %q", b)
			}
		})
	}
}
