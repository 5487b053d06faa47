package sqlite_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/sqlite"
)

// TestOpenErrorsSayWhere: an Open that cannot make or read its file says
// that the SQLite store failed and which file; it said "migrate: unable
// to open database file (14)", neither.
func TestOpenErrorsSayWhere(t *testing.T) {
	file := filepath.Join(t.TempDir(), "plain-file")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(file, "data") // under a file: no directory there
	db, err := sqlite.Open(context.Background(), dir)
	if err == nil {
		db.Close()
		t.Fatal("Open succeeded")
	}
	want := "sqlite at " + filepath.Join(dir, sqlite.FileName) + ": "
	if !strings.HasPrefix(err.Error(), want) || !strings.Contains(err.Error(), "unable to open database file") {
		t.Errorf("Open: %q, want it to begin %q and say why", err, want)
	}
}
