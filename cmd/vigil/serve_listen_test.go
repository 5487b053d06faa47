package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/sqlite"
)

// TestServeAddressInUseTouchesNothing: a start whose --addr is taken fails,
// naming the address, before it opens the store: it made the store (and,
// on PostgreSQL, the store's keys) and the data directory's webhook-secret
// first, and a second try on another port then said "webhook signing key
// created" of nothing it had made.
func TestServeAddressInUseTouchesNothing(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	data := filepath.Join(t.TempDir(), "data")
	code, _, stderr := runVigil(t, "", "serve", "--data", data, "--addr", ln.Addr().String())
	if code != exitError || !strings.Contains(stderr, ln.Addr().String()) || !strings.Contains(stderr, "address already in use") {
		t.Errorf("exit %d, stderr %q; want %d naming %s in use", code, stderr, exitError, ln.Addr())
	}
	for _, name := range []string{sqlite.FileName, webhookSecretFile, secretFile, "admin-password"} {
		if _, err := os.Stat(filepath.Join(data, name)); !os.IsNotExist(err) {
			t.Errorf("the failed start made %s (stat: %v)", name, err)
		}
	}
}
