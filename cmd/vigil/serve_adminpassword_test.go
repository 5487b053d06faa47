package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
