package sqlite_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/vigil-web/vigil/internal/sqlite"
)

// TestOpenDirectoryNamedOddly: a store in a directory whose name holds
// a character a SQLite URI reads otherwise ('?' and '#' end its path,
// '%' begins an escape) is kept in that directory's vigil.db, with its
// pragmas (WAL), read back by Open and OpenCurrent, and backed up from
// there: the path was written into the file: URI as it was, and the
// store went to a file named by the part before the '?' or '#' (next
// to the directory; at a '?', without WAL), or to a directory named by
// the escape decoded, or failed to open.
func TestOpenDirectoryNamedOddly(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"a?b", "a#b", "a%20b", "100%", "a%3fb"} {
		t.Run(name, func(t *testing.T) {
			parent := t.TempDir()
			dir := filepath.Join(parent, name)
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			db, err := sqlite.Open(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			r, err := db.EnsureResource(ctx, "http://example.com/")
			if err != nil {
				db.Close()
				t.Fatal(err)
			}
			if err := db.Close(); err != nil {
				t.Fatal(err)
			}
			if got := dirNames(t, parent); !slices.Equal(got, []string{name}) {
				t.Errorf("files beside the store's directory: %q, want only %q", got, name)
			}
			head, err := os.ReadFile(filepath.Join(dir, sqlite.FileName))
			if err != nil || len(head) < 100 {
				t.Fatalf("the store's file: %d bytes, %v; want it written", len(head), err)
			}
			// The header's write and read versions: 2 in WAL mode.
			if head[18] != 2 || head[19] != 2 {
				t.Errorf("the store's file format versions %d, %d; want 2, 2 (WAL)", head[18], head[19])
			}
			again, err := sqlite.OpenCurrent(ctx, dir)
			if err != nil {
				t.Fatal(err)
			}
			defer again.Close()
			if got, err := again.FindResourceByID(ctx, r.ID); err != nil || got.URL != r.URL {
				t.Errorf("resource read back: %+v, %v; want %+v", got, err, r)
			}
			copyFile := filepath.Join(t.TempDir(), "copy.db")
			if err := sqlite.Backup(ctx, dir, copyFile); err != nil {
				t.Fatalf("backup: %v", err)
			}
			copied, err := sqlite.OpenFile(ctx, copyFile)
			if err != nil {
				t.Fatal(err)
			}
			defer copied.Close()
			if _, err := copied.FindResourceByID(ctx, r.ID); err != nil {
				t.Errorf("resource in the backup: %v", err)
			}
		})
	}
}
