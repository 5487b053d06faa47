package main

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/sqlite"
)

// TestServeLogsSchema: vigil serve says what it did to the store's schema,
// so that an operator upgrading the daemons of one store sees which one
// migrated it; and one older than its store (a newer Vigil migrated it)
// warns, naming the migrations it does not have, instead of starting as if
// all were well.
func TestServeLogsSchema(t *testing.T) {
	dir := t.TempDir()
	d := startDaemon(t, dir)
	log := d.stderr.String()
	if !strings.Contains(log, `msg="store migrated"`) || !strings.Contains(log, "0001_") {
		t.Errorf("the first start does not say it migrated the store:\n%s", log)
	}
	d.stop(t)

	d = startDaemon(t, dir)
	if log := d.stderr.String(); strings.Contains(log, "store migrated") || strings.Contains(log, "newer") {
		t.Errorf("a start on an up-to-date store speaks of its schema:\n%s", log)
	}
	d.stop(t)

	c, err := sql.Open("sqlite", "file:"+filepath.Join(dir, sqlite.FileName))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ExecContext(context.Background(), "INSERT INTO schema_migrations (name, applied_at) VALUES ('9999_from_a_newer_vigil.sql', 1)")
	c.Close()
	if err != nil {
		t.Fatal(err)
	}
	d = startDaemon(t, dir)
	log = d.stderr.String()
	if !strings.Contains(log, "level=WARN") || !strings.Contains(log, "9999_from_a_newer_vigil.sql") || !strings.Contains(log, "newer") {
		t.Errorf("a start on a store a newer Vigil migrated does not warn, naming its migration:\n%s", log)
	}
}
