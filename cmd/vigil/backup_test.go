package main

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
)

// TestBackupWhileServing: vigil backup writes a consistent copy of the
// SQLite store while vigil serve runs on it (a copy of vigil.db alone
// misses what its -wal file holds, and one taken during a write may be
// torn), readable by its owner only, and a data directory made of the copy
// and the keys it names starts a daemon that has the sentinels. It
// refuses to write over a file, and on PostgreSQL says what to use.
func TestBackupWhileServing(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	data := t.TempDir()
	addSentinels(t, data, "Create Sentinel news Using https://example.com/\nMonitor any change\nFetch 1 day\n")
	d := startDaemon(t, data)
	// Written while the daemon runs: in the WAL until a checkpoint.
	addSentinels(t, data, "Create Sentinel later Using https://example.org/\nMonitor any change\nFetch 1 day\n")

	out := filepath.Join(t.TempDir(), "vigil-backup.db")
	said := runBinary(t, "backup", "--data", data, out)
	for _, key := range []string{secretFile, webhookSecretFile} {
		if !strings.Contains(said, key) {
			t.Errorf("vigil backup does not say to keep the key file %s with the copy:\n%s", key, said)
		}
	}
	fi, err := os.Stat(out)
	if err != nil {
		t.Fatalf("no backup written: %v\n%s", err, said)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("backup mode %v, want 0600 (it holds password hashes)", fi.Mode().Perm())
	}
	if _, err := os.Stat(out + "-wal"); err == nil {
		t.Errorf("the backup has a -wal file: it is not one file")
	}
	if !d.alive() {
		t.Fatal("vigil serve stopped during the backup")
	}

	restored := t.TempDir()
	if err := os.Rename(out, filepath.Join(restored, sqlite.FileName)); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{secretFile, webhookSecretFile} {
		b, err := os.ReadFile(filepath.Join(data, key))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(restored, key), b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	raw, err := sql.Open("sqlite", "file:"+filepath.Join(restored, sqlite.FileName))
	if err != nil {
		t.Fatal(err)
	}
	var integrity string
	if err := raw.QueryRow("PRAGMA integrity_check").Scan(&integrity); err != nil || integrity != "ok" {
		t.Errorf("integrity of the backup: %q, %v", integrity, err)
	}
	raw.Close()
	db, err := sqlite.Open(context.Background(), restored)
	if err != nil {
		t.Fatal(err)
	}
	_, n, err := db.FindSentinels(context.Background(), vigil.SentinelFilter{})
	db.Close()
	if err != nil || n != 2 {
		t.Fatalf("sentinels of the backup: %d, %v; want both, the one added while the daemon ran too", n, err)
	}
	startDaemon(t, restored).stop(t)

	// A daemon given its webhook key by --webhook-secret keeps no file
	// of it: the backup says to keep that key, and names the other file
	// alone ("secret" alone is in "--webhook-secret" too).
	if err := os.Remove(filepath.Join(data, webhookSecretFile)); err != nil {
		t.Fatal(err)
	}
	said = runBinary(t, "backup", "--data", data, filepath.Join(t.TempDir(), "b.db"))
	if strings.Contains(said, filepath.Join(data, webhookSecretFile)) || !strings.Contains(said, "VIGIL_WEBHOOK_SECRET") || !strings.Contains(said, filepath.Join(data, secretFile)+" (") {
		t.Errorf("vigil backup of a data directory without a webhook-secret file says:\n%s", said)
	}

	if code, _, errOut := runVigil(t, "", "backup", "--data", data, filepath.Join(restored, sqlite.FileName)); code == exitOK || !strings.Contains(errOut, "exists") {
		t.Errorf("vigil backup over an existing file: exit %d, %s", code, errOut)
	}
	if code, _, errOut := runVigil(t, "", "backup", "--postgres", "postgres://vigil@db.invalid/vigil", filepath.Join(t.TempDir(), "b")); code == exitOK || !strings.Contains(errOut, "pg_dump") {
		t.Errorf("vigil backup --postgres: exit %d, %s; want a pointer to pg_dump", code, errOut)
	}
}
