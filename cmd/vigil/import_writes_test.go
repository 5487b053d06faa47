package main

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/sqlite"
)

// TestShortWritesRefuseDuringImport: while an import warc in one
// transaction holds the data directory (import.lock, and SQLite's write
// lock, which its transaction holds until it ends), the short commands
// that write the store refuse at once, naming the import, its lock file
// and since when, and saying to try again when it ends; they waited
// SQLite's busy timeout (10s) and failed with "database is locked (5)
// (SQLITE_BUSY)". The commands that only read the store work meanwhile,
// as WAL lets them (sentinel check with --data among them); they failed
// too, the open's migrations waiting for the write lock.
func TestShortWritesRefuseDuringImport(t *testing.T) {
	dir := t.TempDir()
	if _, e, code := runCmd(t, nil, "sentinel", "add", "--data", dir, writeSentinel(t, "kept")); code != exitOK {
		t.Fatalf("sentinel add: exit %d\n%s", code, e)
	}
	if _, e, code := runCmd(t, nil, "user", "add", "--data", dir, "ann@example.com"); code != exitOK {
		t.Fatalf("user add: exit %d\n%s", code, e)
	}
	release, held, err := takeLockFile(filepath.Join(dir, importLockFile))
	if err != nil || held {
		t.Fatalf("import lock: held %v, %v", held, err)
	}
	defer release()
	c, err := sql.Open("sqlite", "file:"+filepath.Join(dir, sqlite.FileName)+"?_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	tx, err := c.Begin() // the import's transaction
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec("INSERT INTO schema_migrations (name, applied_at) VALUES ('the import', 0)"); err != nil {
		t.Fatal(err)
	}

	want := []string{
		fmt.Sprintf("vigil import warc (pid %d) is importing into the data directory %s", os.Getpid(), dir),
		"since ",
		filepath.Join(dir, importLockFile),
		"try again when it ends",
	}
	for _, args := range [][]string{
		{"user", "add", "--data", dir, "bob@example.com"},
		{"user", "passwd", "--data", dir, "ann@example.com"},
		{"user", "admin", "--data", dir, "--on", "ann@example.com"},
		{"user", "remove", "--data", dir, "--force", "--with-sentinels", "ann@example.com"},
		{"sentinel", "add", "--data", dir, writeSentinel(t, "added")},
		{"sentinel", "rm", "--data", dir, "kept"},
		{"sentinel", "feed", "--rotate", "--data", dir, "kept"},
	} {
		t.Run(strings.Join(args[:2], " "), func(t *testing.T) {
			start := time.Now()
			_, e, code := runCmd(t, nil, args...)
			if code != exitError {
				t.Errorf("exit %d, want %d\n%s", code, exitError, e)
			}
			for _, w := range want {
				if !strings.Contains(e, w) {
					t.Errorf("stderr does not say %q:\n%s", w, e)
				}
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("refused after %v: it waited for the import", d)
			}
		})
	}
	for _, args := range [][]string{
		{"user", "list", "--data", dir},
		{"sentinel", "list", "--data", dir},
		{"sentinel", "feed", "--data", dir, "kept"},
	} {
		t.Run(strings.Join(args[:2], " "), func(t *testing.T) {
			start := time.Now()
			out, e, code := runCmd(t, nil, args...)
			if code != exitOK || !strings.Contains(out, "kept") && !strings.Contains(out, "ann@example.com") {
				t.Errorf("a read during an import: exit %d\n%s%s", code, out, e)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("a read during an import took %v: it waited for the import", d)
			}
		})
	}
	// sentinel check with the store reads it, as sentinel list does: the
	// stored sentinel is known.
	uses := writeFile(t, t.TempDir(), "uses.ssl", "Create Sentinel uses Using kept\n")
	if out, e, code := runCmd(t, nil, "sentinel", "check", "--data", dir, uses); code != exitOK || out != "" || e != "" {
		t.Errorf("sentinel check during an import: exit %d\n%s%s", code, out, e)
	}
}
