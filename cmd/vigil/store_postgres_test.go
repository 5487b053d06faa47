package main

import (
	"context"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// TestPostgresCommandsNeedStore: the commands that read, remove or manage
// what a store holds refuse a PostgreSQL schema without a Vigil store, as
// they refuse a --data without one, saying where they looked, and leave
// the schema as it was: they answered for a mistyped DSN as for an empty
// store, and made one there. vigil sentinel add, which puts what a daemon
// runs on into the store, still makes it.
func TestPostgresCommandsNeedStore(t *testing.T) {
	dsn := postgresDSN(t)
	for _, args := range [][]string{
		{"user", "list"},
		{"user", "add", "ada@example.com"},
		{"sentinel", "list"},
		{"sentinel", "rm", "news"},
		{"export", "warc", "--all"},
		{"keys", "rotate", "feed"},
	} {
		args = append(args[:len(args):len(args)], "--postgres", dsn)
		// Flags before the arguments, as the commands read them.
		cmd := append([]string{args[0], args[1]}, args[len(args)-2:]...)
		cmd = append(cmd, args[2:len(args)-2]...)
		code, out, errOut := runVigil(t, "", cmd...)
		if code != exitError || !strings.Contains(errOut, "no store in postgres at ") || !strings.Contains(errOut, "check the DSN") {
			t.Errorf("vigil %s on an empty schema: exit %d, stdout %q, stderr %q; want 2 and that it holds no store", strings.Join(cmd[:2], " "), code, out, errOut)
		}
		if strings.Contains(errOut, dsn) {
			t.Errorf("vigil %s repeated the DSN: %q", strings.Join(cmd[:2], " "), errOut)
		}
	}
	conn, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var tables int
	if err := conn.QueryRow(context.Background(), "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()").Scan(&tables); err != nil {
		t.Fatal(err)
	}
	if tables != 0 {
		t.Fatalf("the refused commands left %d tables in the schema", tables)
	}

	src := writeSentinel(t, "news")
	if code, _, errOut := runVigil(t, "", "sentinel", "add", "--postgres", dsn, "--data", t.TempDir(), src); code != exitOK {
		t.Fatalf("sentinel add on an empty schema: exit %d, %s", code, errOut)
	}
	if code, out, errOut := runVigil(t, "", "sentinel", "list", "--postgres", dsn); code != exitOK || !strings.Contains(out, "news") {
		t.Errorf("sentinel list after sentinel add made the store: exit %d, %q, %q", code, out, errOut)
	}
}
