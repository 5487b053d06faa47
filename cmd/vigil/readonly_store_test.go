package main

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/vigil-web/vigil/internal/sqlite"
)

// lastMigrationUndo says how the last SQLite migration of this build is
// undone, its statements' inverse, for TestReadOnlyStoreReads to make a
// store an older vigil left: its record alone removed, applying it again
// fails on what it made (a column that exists) before the write that this
// user may not make. A new last migration adds its own.
var lastMigrationUndo = map[string]string{
	"0116_time_zones.sql": "ALTER TABLE users DROP COLUMN time_zone; ALTER TABLE sentinels DROP COLUMN time_zone",
	// Its times truncated to the microsecond stay so: applied again, it
	// finds none to change.
	"0117_time_microseconds.sql":    "SELECT 1",
	"0118_outbox_address_order.sql": "DROP INDEX notifications_queued; DROP INDEX notifications_address",
	"0119_outbox_queue.sql": "DROP INDEX notifications_queued; DROP INDEX notifications_address; ALTER TABLE notifications DROP COLUMN requeued; " +
		"CREATE INDEX notifications_queued ON notifications(id, next_attempt) WHERE state IN ('pending', 'failed'); " +
		"CREATE INDEX notifications_address ON notifications(channel, target, id, next_attempt) WHERE state IN ('pending', 'failed')",
	"0120_outbox_heads.sql": "DROP INDEX notifications_heads; ALTER TABLE notifications DROP COLUMN head; " +
		"CREATE INDEX notifications_queued ON notifications(coalesce(requeued, id), next_attempt) WHERE state IN ('pending', 'failed')",
	"0121_flashes.sql":     "DROP TABLE flashes",
	"0122_version_url.sql": "ALTER TABLE versions DROP COLUMN url",
	// Its URLs rekeyed stay so: applied again, it finds none to change.
	"0123_query_percent.sql": "SELECT 1",
	"0124_claims.sql":        "ALTER TABLE sentinels DROP COLUMN claimed_until; ALTER TABLE notifications DROP COLUMN claimed_until",
}

// TestReadOnlyStoreReads: the commands that only read the store read one
// this user may not write (its directory 555, its files 444, as another
// user), as they read it while vigil serve runs (which keeps its -shm):
// they opened it to write and failed with "migrate: attempt to write a
// readonly database", with nothing to migrate. Where the store lacks a
// migration, they say so; where it lacks its -shm (no process has it
// open), which they may not make, they read it as immutable, where they
// said that it needed its -shm.
func TestReadOnlyStoreReads(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "rodata")
	file := writeFile(t, dir, "c5.ssl", "Create Sentinel c5 Using https://example.org/c5\n")
	if code, out, errOut := runVigil(t, "", "sentinel", "add", "--data", data, file); code != exitOK {
		t.Fatalf("add: exit %d\n%s%s", code, out, errOut)
	}
	// A reader held open, as vigil serve holds the store: its -shm stays.
	db, err := sql.Open("sqlite", filepath.Join(data, sqlite.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("SELECT count(*) FROM sentinels"); err != nil {
		t.Fatal(err)
	}
	asReader := readOnlyRunner(t, dir, data)
	for _, args := range [][]string{
		{"sentinel", "list"},
		{"user", "list"},
		{"sentinel", "feed", "c5"},
		{"export", "warc", "--all"},
	} {
		code, out, errOut := asReader(args...)
		// (export warc says on stderr what it exported.)
		if code != exitOK || strings.Contains(errOut, "vigil ") {
			t.Errorf("vigil %s on a store this user may not write: exit %d, stdout %q, stderr %q; want 0", strings.Join(args, " "), code, out, errOut)
		}
		if args[0] == "sentinel" && !strings.Contains(out, "c5") {
			t.Errorf("vigil %s: %q does not name c5", strings.Join(args, " "), out)
		}
	}

	// Not current: a migration missing, which this user cannot apply. The
	// last one is undone, its record and what it made, as a store an
	// older vigil left lacks it.
	var last string
	writable(t, data, func() {
		if err := db.QueryRow("DELETE FROM schema_migrations WHERE name = (SELECT max(name) FROM schema_migrations) RETURNING name").Scan(&last); err != nil {
			t.Fatal(err)
		}
		undo, ok := lastMigrationUndo[last]
		if !ok {
			t.Fatalf("lastMigrationUndo does not say how %s is undone", last)
		}
		if _, err := db.Exec(undo); err != nil {
			t.Fatal(err)
		}
	})
	code, _, errOut := asReader("sentinel", "list")
	if code != exitError || !strings.Contains(errOut, "the store lacks 1 migration of this build ("+last+" first)") || !strings.Contains(errOut, "may not write it") {
		t.Errorf("sentinel list of an older store this user may not write: exit %d, stderr %q", code, errOut)
	}

	// No -shm: no process has the store open.
	writable(t, data, func() {
		// The store made current again by its owner (Open migrates it),
		// and closed.
		db.Close()
		st, err := sqlite.Open(context.Background(), data)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
	})
	if _, err := os.Stat(filepath.Join(data, sqlite.FileName+"-shm")); err == nil {
		t.Fatalf("the store's -shm is still there")
	}
	for _, args := range [][]string{{"sentinel", "list"}, {"user", "list"}} {
		code, out, errOut := asReader(args...)
		if code != exitOK || (args[0] == "sentinel" && !strings.Contains(out, "c5")) {
			t.Errorf("vigil %s of a store without its -shm, as a reader that may not make it: exit %d, stdout %q, stderr %q; want it read", strings.Join(args, " "), code, out, errOut)
		}
	}
	if _, err := os.Stat(filepath.Join(data, sqlite.FileName+"-shm")); err == nil {
		t.Errorf("a reader that may not write the store made its -shm")
	}
	// vigil serve, which writes every check, does not start on it: its
	// lock file cannot be made there, and a store read as immutable is
	// refused too (sqlite.DB.ReadOnly).
	code, _, errOut = asReader("serve", "--addr", "127.0.0.1:0")
	if code != exitError || !strings.Contains(errOut, "permission denied") && !strings.Contains(errOut, "start vigil serve as the store's owner") {
		t.Errorf("vigil serve on a store this user may not write: exit %d, stderr %q; want it refused", code, errOut)
	}
}

// readOnlyRunner makes data (under dir) read-only, its directory 555 and
// its files 444, and returns a function that runs vigil on it as a user
// who may not write it: as nobody (uid 65534), a process of the binary,
// when the test runs as root, whom modes do not stop; else in this
// process, as this user.
func readOnlyRunner(t *testing.T, dir, data string) func(args ...string) (int, string, string) {
	t.Helper()
	readOnly(t, data)
	t.Cleanup(func() { os.Chmod(data, 0o755) }) // for its removal
	if os.Geteuid() != 0 {
		return func(args ...string) (int, string, string) {
			return runVigil(t, "", append(args, "--data", data)...)
		}
	}
	bin := vigilBinary(t)
	// nobody must reach the binary and the store.
	for _, d := range []string{filepath.Dir(bin), filepath.Dir(dir), dir} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return func(args ...string) (int, string, string) {
		cmd := exec.Command(bin, append(args, "--data", data)...)
		cmd.Dir = dir
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		var out, errOut bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, out.String(), errOut.String()
	}
}

// readOnly makes data's directory 555 and its files 444.
func readOnly(t *testing.T, data string) {
	t.Helper()
	entries, err := os.ReadDir(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if err := os.Chmod(filepath.Join(data, e.Name()), 0o444); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(data, 0o555); err != nil {
		t.Fatal(err)
	}
}

// writable runs fn with data writable by its owner, and then makes it
// read-only again.
func writable(t *testing.T, data string, fn func()) {
	t.Helper()
	if err := os.Chmod(data, 0o755); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(data)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if err := os.Chmod(filepath.Join(data, e.Name()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	fn()
	readOnly(t, data)
}
