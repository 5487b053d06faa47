package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWebAdminPasswordFileStale: a start that finds the admin-password
// file of the first start holding a password that no longer signs its
// account in (the account removed by another administrator, so not made
// again; its password changed with vigil user passwd) removes it, and
// logs that it did, without the password; a file whose password still
// signs its account in stays, whatever the start does. The file stayed,
// holding a password of an account that was no more.
func TestWebAdminPasswordFileStale(t *testing.T) {
	t.Setenv("VIGIL_ADMIN_PASSWORD", "")
	t.Setenv("VIGIL_ADMIN_EMAIL", "")
	for _, tc := range []struct {
		name string
		// change changes the store of data directory dir, after the
		// first start, as an administrator would.
		change  func(t *testing.T, dir string)
		removed string // what the log says of the file removed; "" for kept
	}{
		{"nothing changed", func(*testing.T, string) {}, ""},
		{"another administrator added", func(t *testing.T, dir string) {
			userCLI(t, dir, "dave's long password\n", "add", "--password-stdin", "--admin", "dave@example.com")
		}, ""},
		{"the account removed beside another administrator", func(t *testing.T, dir string) {
			userCLI(t, dir, "dave's long password\n", "add", "--password-stdin", "--admin", "dave@example.com")
			userCLI(t, dir, "", "remove", "--force", "admin@localhost")
		}, "no user admin@localhost"},
		{"its password changed", func(t *testing.T, dir string) {
			userCLI(t, dir, "a password of my own\n", "passwd", "--password-stdin", "admin@localhost")
		}, "its password no longer signs admin@localhost in"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			first := startDaemon(t, dir)
			file := filepath.Join(dir, adminPasswordFile)
			b, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("the first start wrote no password file: %v", err)
			}
			email, password, _ := strings.Cut(strings.TrimSuffix(string(b), "\n"), "\n")
			if email != "admin@localhost" || password == "" {
				t.Fatalf("the password file holds %q, want the admin's email and a password", b)
			}
			first.stop(t)
			tc.change(t, dir)

			d := startDaemon(t, dir)
			log := d.stderr.String()
			_, err = os.Lstat(file)
			if tc.removed == "" {
				if err != nil {
					t.Errorf("the password file, whose password still signs in, is gone: %v", err)
				}
				if _, status := signInAs(t, "http://"+d.addr, email, password); status != http.StatusSeeOther {
					t.Errorf("the file's password no longer signs in: %d", status)
				}
				if strings.Contains(log, adminPasswordFile) {
					t.Errorf("the start speaks of the password file it keeps:\n%s", log)
				}
			} else {
				if err == nil {
					t.Errorf("the password file stays, its password signing nobody in")
				}
				if !strings.Contains(log, "removed the admin password file") || !strings.Contains(log, file) || !strings.Contains(log, tc.removed) {
					t.Errorf("the start does not say it removed %s, and why (%q):\n%s", file, tc.removed, log)
				}
			}
			if strings.Contains(log, password) {
				t.Errorf("the start logs the password:\n%s", log)
			}
			d.stop(t)
		})
	}
}

// userCLI runs vigil user with args on data directory dir, stdin its
// standard input, and fails t if it fails.
func userCLI(t *testing.T, dir, stdin string, args ...string) {
	t.Helper()
	if code, out, errOut := runVigil(t, stdin, append(append([]string{"user"}, args...), "--data", dir)...); code != exitOK {
		t.Fatalf("vigil user %v: exit %d\n%s%s", args, code, out, errOut)
	}
}
