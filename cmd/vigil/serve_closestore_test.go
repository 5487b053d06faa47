//go:build linux

package main

import (
	"context"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/vigil-web/vigil"
)

// limitFileSize sets the file size limit of a running process (its soft
// RLIMIT_FSIZE, prlimit(2)): past it, its writes to files fail with
// EFBIG, as on a full disk (Go ignores the SIGXFSZ that comes with them).
func limitFileSize(t *testing.T, pid int, limit uint64) {
	t.Helper()
	var old syscall.Rlimit
	if _, _, e := syscall.RawSyscall6(syscall.SYS_PRLIMIT64, uintptr(pid), syscall.RLIMIT_FSIZE, 0, uintptr(unsafe.Pointer(&old)), 0, 0); e != 0 {
		t.Fatalf("prlimit %d: %v", pid, e)
	}
	lim := syscall.Rlimit{Cur: limit, Max: old.Max}
	if _, _, e := syscall.RawSyscall6(syscall.SYS_PRLIMIT64, uintptr(pid), syscall.RLIMIT_FSIZE, uintptr(unsafe.Pointer(&lim)), 0, 0, 0); e != 0 {
		t.Fatalf("prlimit %d: %v", pid, e)
	}
}

// TestServeStopReportsStoreClose: a daemon stopped when its disk takes no
// more bytes says that the store's last checkpoint failed, and that
// nothing is lost, and exits as a stop that failed (the code of its
// signal, as any command whose stop fails); it stopped saying nothing,
// and exited 0. The store opened again holds what the daemon wrote.
func TestServeStopReportsStoreClose(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	d := startWebDaemon(t)
	// addUser writes beside the daemon and closes its store, which
	// checkpoints: the sentinel below is the daemon's write, in the log.
	c := &apiClient{t: t, base: d.base, token: d.addUser(t, "bob@example.com", "pw")}
	c.want(201, "POST", "/api/v1/sentinels", map[string]string{"source": "Create Sentinel kept Using http://a.example/ Monitor any change Fetch 1 day"})
	limitFileSize(t, d.cmd.Process.Pid, 0)
	d.stop(t)
	stderr := d.stderr.String()
	if code := d.cmd.ProcessState.ExitCode(); code != exitTerminated {
		t.Errorf("vigil serve exited %d, want %d:\n%s", code, exitTerminated, stderr)
	}
	for _, want := range []string{"vigil serve: interrupted: sqlite at " + filepath.Join(d.dir, "vigil.db") + ": close: checkpoint of its write-ahead log", "disk I/O error", "nothing is lost"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("vigil serve's stop does not say %q:\n%s", want, stderr)
		}
	}
	db := openData(t, d.dir)
	all, _, err := db.FindSentinels(context.Background(), vigil.SentinelFilter{})
	if err != nil || len(all) != 1 || all[0].Name != "kept" {
		t.Errorf("the store opened again: sentinels %v, %v; want the one made before the stop", all, err)
	}
}
