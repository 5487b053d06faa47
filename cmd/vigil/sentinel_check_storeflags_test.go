package main

import (
	"context"
	"database/sql"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/vigil-web/vigil/internal/sqlite"
)

// TestSentinelCheckStoreOnlyGiven: vigil sentinel check reads the store
// only when --data or --postgres is given, as its help says, not from
// $VIGIL_DATA or $VIGIL_POSTGRES_DSN: with VIGIL_DATA exported a file
// already added was "not unique", and an unreachable VIGIL_POSTGRES_DSN
// failed plain linting with exit 2. A --data that holds no store is
// refused, saying so, where check answered as without a store (exit 0),
// and nothing is made there; a store an older vigil left is refused, not
// migrated.
func TestSentinelCheckStoreOnlyGiven(t *testing.T) {
	data := t.TempDir()
	shop := writeFile(t, t.TempDir(), "shop.ssl", "Create Sentinel shop Using http://shop.example/\n")
	if code, out, errOut := runVigil(t, "", "sentinel", "add", "--data", data, shop); code != exitOK {
		t.Fatalf("add: exit %d\n%s%s", code, out, errOut)
	}
	for name, env := range map[string]map[string]string{
		"VIGIL_DATA":         {"VIGIL_DATA": data},
		"VIGIL_POSTGRES_DSN": {"VIGIL_POSTGRES_DSN": "postgres://vigil@127.0.0.1:1/vigil?sslmode=disable&connect_timeout=2"},
	} {
		if code, out, errOut := runVigilEnv(t, env, "sentinel", "check", shop); code != exitOK || out != "" || errOut != "" {
			t.Errorf("check with %s set: exit %d, stdout %q, stderr %q; want 0 and nothing said", name, code, out, errOut)
		}
	}
	// Given, the store is read: shop is taken.
	if code, out, _ := runVigil(t, "", "sentinel", "check", "--data", data, shop); code != exitChanged || !strings.Contains(out, "sentinel name shop is taken: your sentinel shop has it") {
		t.Errorf("check --data of an added file: exit %d, stdout %q; want 1 and the name taken", code, out)
	}

	missing := filepath.Join(t.TempDir(), "nonexist")
	code, out, errOut := runVigil(t, "", "sentinel", "check", "--data", missing, shop)
	if code != exitError || out != "" || !strings.Contains(errOut, "no store in "+missing) {
		t.Errorf("check --data %s: exit %d, stdout %q, stderr %q; want 2 and no store there", missing, code, out, errOut)
	}
	if _, err := os.Stat(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("check --data %s made it: %v", missing, err)
	}

	// A store an older vigil left: its last migration not applied.
	old := t.TempDir()
	st, err := sqlite.Open(context.Background(), old)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	raw, err := sql.Open("sqlite", "file:"+filepath.Join(old, sqlite.FileName))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var last string
	if err := raw.QueryRow("SELECT max(name) FROM schema_migrations").Scan(&last); err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec("DELETE FROM schema_migrations WHERE name = ?", last); err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runVigil(t, "", "sentinel", "check", "--data", old, shop)
	if code != exitError || out != "" || !strings.Contains(errOut, "1 migration, "+last+", is not applied") {
		t.Errorf("check --data of an older store: exit %d, stdout %q, stderr %q; want 2 and %s not applied", code, out, errOut, last)
	}
	var n int
	if err := raw.QueryRow("SELECT count(*) FROM schema_migrations WHERE name = ?", last).Scan(&n); err != nil || n != 0 {
		t.Errorf("after check, %s applied: %d, %v; want the store left as it was", last, n, err)
	}

	_, help, _ := runVigil(t, "", "sentinel", "check", "-h")
	if strings.Contains(help, "default $VIGIL_DATA") || strings.Contains(help, "default $VIGIL_POSTGRES_DSN") || !strings.Contains(help, "are not read") {
		t.Errorf("check's help says it reads the environment's store:\n%s", help)
	}
}

// TestSentinelCheckEmptyStoreFile: a --data whose vigil.db is empty holds
// no store: check refuses it, saying so and what to do, as for a --data
// with none, and leaves the file empty. It made it a WAL database, and
// said only "no store: the database has no schema_migrations table".
func TestSentinelCheckEmptyStoreFile(t *testing.T) {
	data := t.TempDir()
	path := filepath.Join(data, sqlite.FileName)
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	shop := writeFile(t, t.TempDir(), "shop.ssl", "Create Sentinel shop Using http://shop.example/\n")
	code, out, errOut := runVigil(t, "", "sentinel", "check", "--data", data, shop)
	want := "no store in " + data + ": its " + sqlite.FileName + " is empty (" + noStoreHint + ")"
	if code != exitError || out != "" || !strings.Contains(errOut, want) {
		t.Errorf("check --data of an empty %s: exit %d, stdout %q, stderr %q; want 2 and %q", sqlite.FileName, code, out, errOut, want)
	}
	if fi, err := os.Stat(path); err != nil || fi.Size() != 0 {
		t.Errorf("%s after check: %v, %v; want it left empty", sqlite.FileName, fi, err)
	}
}
