package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/internal/web"
)

// TestServeRefusesShortAdminPassword: vigil serve holds VIGIL_ADMIN_PASSWORD
// to the rule of every password Vigil sets (vigil user add and passwd, the
// Users page, the API: 12 characters at least), and stops before it
// starts, naming the variable but not its value, having made nothing:
// it gave the admin account a password of 5 characters without a word.
func TestServeRefusesShortAdminPassword(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	code, out, errOut := runVigilEnv(t, map[string]string{"VIGIL_ADMIN_PASSWORD": "p4ssw"}, "serve", "--addr", "127.0.0.1:0", "--data", data)
	const want = "VIGIL_ADMIN_PASSWORD: too short: 5 characters, want at least 12"
	if code != exitError || !strings.Contains(errOut, want) || strings.Contains(out+errOut, "p4ssw") {
		t.Errorf("exit %d, stdout %q, stderr %q; want 2 and %q, without the password", code, out, errOut, want)
	}
	if _, err := os.Stat(data); !os.IsNotExist(err) {
		t.Errorf("the data directory was made: %v", err)
	}
}

// TestServeKeepsShortAdminPasswordAlreadySet: a VIGIL_ADMIN_PASSWORD
// shorter than the rule that is already the admin account's password (a
// store made before the rule) does not stop vigil serve, which warns of
// it, naming the variable, not its value: the daemon of an existing
// deployment did not start after the upgrade, its sentinels unchecked.
// One that would replace the account's password is still refused.
func TestServeKeepsShortAdminPasswordAlreadySet(t *testing.T) {
	ctx := context.Background()
	data := t.TempDir()
	db, err := sqlite.Open(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	hash, err := web.HashPassword("p4ssw")
	if err != nil {
		t.Fatal(err)
	}
	u := &vigil.User{Email: "admin@localhost", Name: "admin", Admin: true}
	if err := db.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	if err := db.SetUserPassword(ctx, u.ID, hash); err != nil {
		t.Fatal(err)
	}
	db.Close()
	// A daemon of its own: vigil serve run in the test's process sets
	// its guards on the process's HTTP clients.
	t.Setenv("VIGIL_ADMIN_PASSWORD", "p4ssw")
	d := startDaemon(t, data)
	d.stop(t)
	if log := d.stderr.String(); !strings.Contains(log, "VIGIL_ADMIN_PASSWORD") || strings.Contains(log, "p4ssw") {
		t.Errorf("the account's own short password: no warning of VIGIL_ADMIN_PASSWORD, or it is quoted:\n%s", log)
	}
	t.Setenv("VIGIL_ADMIN_PASSWORD", "0th3r")
	code, out, errOut := runVigilEnv(t, map[string]string{"VIGIL_ADMIN_PASSWORD": "0th3r"}, "serve", "--addr", "127.0.0.1:0", "--data", data)
	const want = "VIGIL_ADMIN_PASSWORD: too short: 5 characters, want at least 12"
	if code != exitError || !strings.Contains(errOut, want) || strings.Contains(out, "listening on") || strings.Contains(out+errOut, "0th3r") {
		t.Errorf("another short password: exit %d, stdout %q, stderr %q; want 2 and %q before it starts", code, out, errOut, want)
	}
}
