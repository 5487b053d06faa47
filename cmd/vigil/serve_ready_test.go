package main

import (
	"context"
	"database/sql"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/vigil-web/vigil/internal/sqlite"
)

// TestServeAnswersWhileMigrating: vigil serve listens before it opens and
// migrates its store, and a migration may take minutes; meanwhile a
// request waited, with nothing said, for as long as it took. Now /healthz
// answers 503 saying the store is not ready, every other route 503 with a
// Retry-After, and once the migration is done they answer as usual. The
// migration is made slow by another process holding what it waits for:
// a write transaction on the SQLite file, PostgreSQL's migration lock.
func TestServeAnswersWhileMigrating(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	for _, tc := range []struct {
		name string
		// hold makes the store's migration wait until release is
		// called, and returns the flags that start vigil serve on it.
		hold func(t *testing.T, data string) (flags []string, release func())
	}{
		{"sqlite", holdSQLiteMigration},
		{"postgres", holdPostgresMigration},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := t.TempDir()
			flags, release := tc.hold(t, data)
			defer release()
			addr := freeAddr(t)
			d, _ := launchDaemon(t, data, append(flags, "--addr", addr)...)
			waitListening(t, d, addr)
			client := &http.Client{Timeout: 8 * time.Second} // a bound on the failure, not a timing assertion
			for _, path := range []string{"/healthz", "/api/v1/sentinels", "/login"} {
				resp, err := client.Get("http://" + addr + path)
				if err != nil {
					t.Fatalf("GET %s while the store migrates: %v", path, err)
				}
				body, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || !strings.Contains(string(body), "migrated") {
					t.Errorf("GET %s while the store migrates: %d, Retry-After %q, %s; want 503 with a Retry-After saying why",
						path, resp.StatusCode, resp.Header.Get("Retry-After"), body)
				}
				if path == "/healthz" && !strings.Contains(string(body), `"status":"starting"`) {
					t.Errorf("healthz while the store migrates: %s", body)
				}
			}
			release()
			deadline := time.Now().Add(30 * time.Second)
			for {
				resp, err := client.Get("http://" + addr + "/healthz")
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode == http.StatusOK {
					break
				}
				if time.Now().After(deadline) || !d.alive() {
					t.Fatalf("healthz after the migration: %d", resp.StatusCode)
				}
				time.Sleep(20 * time.Millisecond)
			}
			resp, err := client.Get("http://" + addr + "/api/v1/sentinels")
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusUnauthorized {
				t.Errorf("GET /api/v1/sentinels without a session once ready: %d, want 401", resp.StatusCode)
			}
		})
	}
}

// holdSQLiteMigration makes an empty database file of data's SQLite
// store and holds a write transaction on it, which the daemon's
// migrations, all to run, wait for. (A store already migrated opens
// without the write lock, and would not wait.)
func holdSQLiteMigration(t *testing.T, data string) ([]string, func()) {
	ctx := context.Background()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(data, sqlite.FileName))
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// In WAL mode, as the store keeps it: the daemon then opens it and
	// waits, to migrate, for the write lock alone.
	if _, err := conn.ExecContext(ctx, "PRAGMA journal_mode = WAL"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	released := false
	return nil, func() {
		if !released {
			released = true
			conn.ExecContext(ctx, "ROLLBACK")
			conn.Close()
			db.Close()
		}
	}
}

// holdPostgresMigration holds the advisory lock that PostgreSQL migrations
// take, one at a time, on the test database.
func holdPostgresMigration(t *testing.T, _ string) ([]string, func()) {
	dsn := postgresDSN(t)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, os.Getenv("VIGIL_TEST_POSTGRES_DSN"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock(7423190)"); err != nil {
		t.Fatal(err)
	}
	released := false
	return []string{"--postgres", dsn}, func() {
		if !released {
			released = true
			conn.Exec(ctx, "SELECT pg_advisory_unlock(7423190)")
			conn.Close(ctx)
		}
	}
}

// freeAddr returns a loopback address with a port free a moment ago.
func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// waitListening waits until d accepts connections at addr.
func waitListening(t *testing.T, d *daemonProc, addr string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			return
		}
		if !d.alive() || time.Now().After(deadline) {
			t.Fatalf("vigil serve does not listen at %s: %v\n%s", addr, err, d.stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestServeStopWhileMigrating: a SIGTERM while the store migrates stops
// vigil serve cleanly, exit 0, saying so (the migration's transaction is
// rolled back, to run again at the next start); it exited with an error,
// "context canceled".
func TestServeStopWhileMigrating(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	data := t.TempDir()
	_, release := holdSQLiteMigration(t, data)
	defer release()
	addr := freeAddr(t)
	d, _ := launchDaemon(t, data, "--addr", addr)
	waitListening(t, d, addr)
	d.stop(t)
	if code := d.cmd.ProcessState.ExitCode(); code != exitOK || !strings.Contains(d.stderr.String(), "stopped before the store was ready") {
		t.Errorf("stopped while the store migrates: exit %d\n%s", code, d.stderr.String())
	}
}
