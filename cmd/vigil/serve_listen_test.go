package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	// Not even the data directory and its lock: the failed start made
	// ./vigil-data of a fresh clone's go run ./cmd/vigil serve.
	if _, err := os.Stat(data); !os.IsNotExist(err) {
		entries, _ := os.ReadDir(data)
		t.Errorf("the failed start made the data directory %s (stat: %v), holding %v", data, err, entries)
	}
}

// TestServeLockNamedBeforeAddressInUse: a second vigil serve on the SQLite
// data directory and the address of a running one (go run ./cmd/vigil
// serve, twice) still names the first one and its pid, not only the
// address it cannot have.
func TestServeLockNamedBeforeAddressInUse(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	first := startDaemon(t, data)
	code, _, stderr := runVigil(t, "", "serve", "--data", data, "--addr", first.addr)
	want := fmt.Sprintf("another vigil serve (pid %d) is running on the data directory %s", first.cmd.Process.Pid, data)
	if code != exitError || !strings.Contains(stderr, want) {
		t.Errorf("second vigil serve on %s: exit %d, stderr %q; want %d and %q", first.addr, code, stderr, exitError, want)
	}
	if !first.alive() {
		t.Fatalf("the first vigil serve ended: %s", first.stderr.String())
	}
}

// TestServeAddrRefused: an address vigil serve cannot listen at is named
// with its flag, and with its variable when it came from the environment:
// "listen tcp: address nonsense: missing port in address" named neither.
func TestServeAddrRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		want string
	}{
		{"flag", nil, []string{"--addr", "nonsense"}, `vigil serve: --addr "nonsense": listen tcp: address nonsense: missing port in address`},
		{"variable", map[string]string{"VIGIL_ADDR": "localhost"}, nil, `vigil serve: --addr "localhost" (from $VIGIL_ADDR): listen tcp: address localhost: missing port in address`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := map[string]string{"VIGIL_DATA": filepath.Join(t.TempDir(), "data")}
			for k, v := range tc.env {
				env[k] = v
			}
			code, _, stderr := runVigilEnv(t, env, append([]string{"serve"}, tc.args...)...)
			if code != exitError || strings.TrimSpace(stderr) != tc.want {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, stderr, tc.want)
			}
		})
	}
}
