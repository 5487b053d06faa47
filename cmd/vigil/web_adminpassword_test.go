package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestRemoveAdminPassword: a start with VIGIL_ADMIN_PASSWORD removes the
// admin-password file the first start wrote, a regular file whose first
// line is the admin's email, and nothing else. A symbolic link there (to
// a file that says the same) was followed to read it, and a FIFO or a
// device there blocked the start reading it, or filled the memory.
func TestRemoveAdminPassword(t *testing.T) {
	const email = "admin@localhost"
	for _, tc := range []struct {
		name string
		// make puts something at the admin-password path of the data
		// directory, given a directory outside it.
		make    func(t *testing.T, data, outside string)
		removed bool
	}{
		{"the admin's file", func(t *testing.T, data, _ string) {
			writeFile(t, data, adminPasswordFile, email+"\nsecret\n")
		}, true},
		{"another account's file", func(t *testing.T, data, _ string) {
			writeFile(t, data, adminPasswordFile, "eve@example.com\nsecret\n")
		}, false},
		{"a symbolic link to a file that names the admin", func(t *testing.T, data, outside string) {
			target := writeFile(t, outside, "notes", email+"\nkeep me\n")
			if err := os.Symlink(target, filepath.Join(data, adminPasswordFile)); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"a FIFO", func(t *testing.T, data, _ string) {
			if err := syscall.Mkfifo(filepath.Join(data, adminPasswordFile), 0o600); err != nil {
				t.Skip("no FIFO:", err)
			}
		}, false},
		{"a directory", func(t *testing.T, data, _ string) {
			if err := os.Mkdir(filepath.Join(data, adminPasswordFile), 0o700); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"nothing", func(*testing.T, string, string) {}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data, outside := t.TempDir(), t.TempDir()
			path := filepath.Join(data, adminPasswordFile)
			tc.make(t, data, outside)
			_, before := os.Lstat(path)
			if err := removeAdminPassword(data, email); err != nil {
				t.Fatalf("removeAdminPassword: %v", err)
			}
			_, after := os.Lstat(path)
			if removed := before == nil && after != nil; removed != tc.removed {
				t.Errorf("removed %v, want %v", removed, tc.removed)
			}
			if b, err := os.ReadFile(filepath.Join(outside, "notes")); err == nil && string(b) != email+"\nkeep me\n" {
				t.Errorf("the file outside the data directory changed: %q", b)
			}
		})
	}
}
