package sqlite_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
)

// TestInTransactionCommitFails: a COMMIT SQLite refuses (a foreign key
// deferred to it, which a trigger added for the test breaks) stores
// nothing, and InTransaction's error says so (it does not wrap
// vigil.ErrCommitUnknown): SQLite's commit is atomic, and the driver
// rolls back a transaction a failed COMMIT leaves open, so the store
// writes again after it.
func TestInTransactionCommitFails(t *testing.T) {
	ctx := context.Background()
	db, dir := openIn(t)
	c, err := sql.Open("sqlite", "file:"+filepath.Join(dir, sqlite.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, stmt := range []string{
		"CREATE TABLE refused_hosts (host TEXT PRIMARY KEY)",
		"CREATE TABLE refused (host TEXT REFERENCES refused_hosts(host) DEFERRABLE INITIALLY DEFERRED)",
		"CREATE TRIGGER refuse AFTER INSERT ON resources WHEN NEW.host = 'refused.example' BEGIN INSERT INTO refused VALUES (NEW.host); END",
	} {
		if _, err := c.ExecContext(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	err = db.InTransaction(ctx, func(tx vigil.TxStore) error {
		for _, u := range []string{"http://example.com/", "http://refused.example/"} {
			if _, err := tx.EnsureResource(ctx, u); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil || errors.Is(err, vigil.ErrCommitUnknown) || !strings.Contains(err.Error(), "FOREIGN KEY") {
		t.Errorf("a commit refused: %v; want the foreign key's error, not ErrCommitUnknown", err)
	}
	for _, u := range []string{"http://example.com/", "http://refused.example/"} {
		if _, err := db.FindResourceByURL(ctx, u); vigil.ErrorCode(err) != vigil.ENOTFOUND {
			t.Errorf("%s after a commit refused: %v; want ENOTFOUND", u, err)
		}
	}
	if _, err := db.EnsureResource(ctx, "http://after.example/"); err != nil {
		t.Errorf("a write after a commit refused: %v", err)
	}
}
