package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestServeLock: a second vigil serve on the SQLite data directory of a
// running one refuses to start, naming the directory and the first one's
// pid (and says nothing of listening, as it does not start); the two
// both claimed the store's work. The short commands still
// run beside the daemon, and once it stops, a new one starts.
func TestServeLock(t *testing.T) {
	data := filepath.Join(t.TempDir(), "data")
	first := startDaemon(t, data)

	// A process of its own: one that started would stay up until killed.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	second := exec.CommandContext(ctx, vigilBinary(t), "serve", "--data", data, "--addr", "127.0.0.1:0")
	second.Env = append(os.Environ(), "VIGIL_DATA=", "VIGIL_POSTGRES_DSN=")
	out, err := second.CombinedOutput()
	want := fmt.Sprintf("another vigil serve (pid %d) is running on the data directory %s", first.cmd.Process.Pid, data)
	if second.ProcessState == nil || second.ProcessState.ExitCode() != exitError || !strings.Contains(string(out), want) {
		t.Errorf("second vigil serve: %v, %s; want exit %d and %q", err, out, exitError, want)
	}
	// It never listened for the daemon it is not: its log said "vigil
	// serve listening: opening the store" before it refused.
	if strings.Contains(string(out), "listening") {
		t.Errorf("second vigil serve says it listens before refusing to start: %s", out)
	}
	if !first.alive() {
		t.Fatalf("the first vigil serve ended: %s", first.stderr.String())
	}
	runBinary(t, "sentinel", "list", "--data", data)

	first.stop(t)
	again := startDaemon(t, data)
	again.stop(t)
}
