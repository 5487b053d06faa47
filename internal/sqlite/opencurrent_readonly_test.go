package sqlite_test

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
)

// currentStore makes in dir a store of this build holding one resource,
// and closes it.
func currentStore(t *testing.T, dir string) {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.EnsureResource(ctx, "http://example.com/"); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
}

// journalModeByte is the file format's write version of the database at
// path (its header's byte 18): 1 for a rollback journal, 2 for WAL.
func journalModeByte(t *testing.T, path string) byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil || len(b) < 100 {
		t.Fatalf("header of %s: %d bytes, %v", path, len(b), err)
	}
	return b[18]
}

// TestOpenCurrentChangesNothing: OpenCurrent reads a current store and
// leaves its file as it was: its mode (it made it 0600), its journal
// mode (it turned a rollback-journal database to WAL) and its bytes (its
// Close checkpointed it); a file the user may not write is read. Any
// -wal or -shm file the read-only reader needed is left empty of pages,
// with the database's mode.
func TestOpenCurrentChangesNothing(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name    string
		prepare func(t *testing.T, path string)
	}{
		{"mode 640", func(t *testing.T, path string) {
			if err := os.Chmod(path, 0o640); err != nil {
				t.Fatal(err)
			}
		}},
		{"journal mode DELETE", func(t *testing.T, path string) {
			c, err := sql.Open("sqlite", "file:"+path)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			var mode string
			if err := c.QueryRowContext(ctx, "PRAGMA journal_mode = DELETE").Scan(&mode); err != nil || mode != "delete" {
				t.Fatalf("journal_mode = DELETE: %q, %v", mode, err)
			}
		}},
		{"read-only file", func(t *testing.T, path string) {
			if err := os.Chmod(path, 0o444); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			currentStore(t, dir)
			path := filepath.Join(dir, sqlite.FileName)
			tc.prepare(t, path)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			journal := journalModeByte(t, path)

			db, err := sqlite.OpenCurrent(ctx, dir)
			if err != nil {
				t.Fatalf("OpenCurrent: %v", err)
			}
			if _, err := db.FindResourceByURL(ctx, "http://example.com/"); err != nil {
				t.Errorf("read through OpenCurrent: %v", err)
			}
			if err := db.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}

			after, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if after.Mode() != fi.Mode() {
				t.Errorf("mode after OpenCurrent: %v; want %v, as before", after.Mode(), fi.Mode())
			}
			if got := journalModeByte(t, path); got != journal {
				t.Errorf("journal mode byte after OpenCurrent: %d; want %d, as before", got, journal)
			}
			if b, err := os.ReadFile(path); err != nil || !bytes.Equal(b, before) {
				t.Errorf("%s after OpenCurrent: %d bytes, %v; want its %d bytes as before", sqlite.FileName, len(b), err, len(before))
			}
			for _, side := range []string{path + "-wal", path + "-shm"} {
				sfi, err := os.Stat(side)
				if errors.Is(err, fs.ErrNotExist) {
					continue
				}
				if err != nil || sfi.Mode() != fi.Mode() || (strings.HasSuffix(side, "-wal") && sfi.Size() != 0) {
					t.Errorf("%s after OpenCurrent: %v, %v; want none, or an empty one with mode %v", side, sfi, err, fi.Mode())
				}
			}
		})
	}
}

// TestOpenCurrentEmptyFile: an empty vigil.db is no store, and is left
// as it is. OpenCurrent made it a 4096-byte WAL database at mode 0600.
func TestOpenCurrentEmptyFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, sqlite.FileName)
	if err := os.WriteFile(path, nil, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, 0o640); err != nil { // whatever the umask
		t.Fatal(err)
	}
	db, err := sqlite.OpenCurrent(context.Background(), dir)
	if err == nil {
		db.Close()
		t.Fatal("OpenCurrent opened an empty file")
	}
	if want := "no store in " + dir + ": its " + sqlite.FileName + " is empty"; vigil.ErrorCode(err) != vigil.ENOTFOUND || vigil.ErrorMessage(err) != want {
		t.Errorf("OpenCurrent of an empty file: %v; want ENOTFOUND %q", err, want)
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Size() != 0 || fi.Mode() != 0o640 {
		t.Errorf("%s after OpenCurrent: %v, %v; want 0 bytes at mode 0640", sqlite.FileName, fi, err)
	}
	for _, side := range []string{path + "-wal", path + "-shm", path + "-journal"} {
		if _, err := os.Stat(side); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("OpenCurrent of an empty file made %s: %v", side, err)
		}
	}
}

// TestOpenCurrentNotVigil: a SQLite database without schema_migrations
// is no store, and is left as it is.
func TestOpenCurrentNotVigil(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, sqlite.FileName)
	c, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec("CREATE TABLE other (x)"); err != nil {
		t.Fatal(err)
	}
	c.Close()
	db, err := sqlite.OpenCurrent(context.Background(), dir)
	if err == nil {
		db.Close()
		t.Fatal("OpenCurrent opened a database without schema_migrations")
	}
	if want := "no store in " + dir + ": its " + sqlite.FileName + " has no schema_migrations table"; vigil.ErrorCode(err) != vigil.ENOTFOUND || vigil.ErrorMessage(err) != want {
		t.Errorf("OpenCurrent of another database: %v; want ENOTFOUND %q", err, want)
	}
}

// TestOpenCurrentBesideWriter: OpenCurrent reads a store another DB
// writes, sees its commits, and neither waits for it nor holds its
// writes back, before or after its Close.
func TestOpenCurrentBesideWriter(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	w, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.EnsureResource(ctx, "http://example.com/a"); err != nil {
		t.Fatal(err)
	}
	r, err := sqlite.OpenCurrent(ctx, dir)
	if err != nil {
		t.Fatalf("OpenCurrent beside a writer: %v", err)
	}
	if _, err := r.FindResourceByURL(ctx, "http://example.com/a"); err != nil {
		t.Errorf("read beside a writer: %v", err)
	}
	if _, err := w.EnsureResource(ctx, "http://example.com/b"); err != nil {
		t.Errorf("write beside OpenCurrent's reader: %v", err)
	}
	if _, err := r.FindResourceByURL(ctx, "http://example.com/b"); err != nil {
		t.Errorf("read of the writer's commit: %v", err)
	}
	if err := r.Close(); err != nil {
		t.Errorf("Close beside a writer: %v", err)
	}
	if _, err := w.EnsureResource(ctx, "http://example.com/c"); err != nil {
		t.Errorf("write after OpenCurrent's Close: %v", err)
	}
	if err := w.Close(); err != nil {
		t.Errorf("writer's Close: %v", err)
	}
}
