package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServeStoreUnreachable: vigil serve on a store it cannot open says
// which store failed and where, on PostgreSQL the host, port and
// database of its DSN without the password, as on SQLite the file; pgx's
// "failed to connect to ..." alone named no store.
func TestServeStoreUnreachable(t *testing.T) {
	const password = "hunter2-secret"
	// A data directory whose store is a directory: no file to open.
	data := t.TempDir()
	if err := os.Mkdir(filepath.Join(data, "vigil.db"), 0o700); err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		args []string
		want string
	}{
		"postgres": {[]string{"--postgres", "postgres://vigil:" + password + "@127.0.0.1:1/vigildb?sslmode=disable&connect_timeout=5"},
			"vigil serve: postgres at 127.0.0.1:1, database vigildb: connect: failed to connect"},
		"sqlite": {[]string{"--data", data}, "vigil serve: sqlite at " + filepath.Join(data, "vigil.db") + ": "},
	} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			args := append([]string{"serve", "--addr", "127.0.0.1:0", "--data", t.TempDir()}, tc.args...)
			cmd := exec.CommandContext(ctx, vigilBinary(t), args...)
			cmd.Env = append(os.Environ(), "VIGIL_DATA=", "VIGIL_POSTGRES_DSN=")
			out, _ := cmd.CombinedOutput()
			if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != exitError || !strings.Contains(string(out), tc.want) {
				t.Errorf("vigil serve %s: %s; want exit %d and %q", strings.Join(tc.args, " "), out, exitError, tc.want)
			}
			if strings.Contains(string(out), password) {
				t.Errorf("vigil serve shows the DSN's password: %s", out)
			}
		})
	}
}
