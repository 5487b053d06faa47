// Package pgtest gives tests a PostgreSQL schema of their own on the test
// server (VIGIL_TEST_POSTGRES_DSN), so that tests of several packages can
// share one database. It is imported by tests only.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/vigil-web/vigil/internal/postgres"
)

// Schema creates an empty schema on the server at base, dropped at
// cleanup, and returns the address that selects it (base with its
// search_path set, and its application_name set to the schema's name, so
// that a test reading pg_stat_activity can tell its own sessions from
// those of other packages' tests on the same server) and the schema's
// name.
func Schema(t testing.TB, base string) (dsn, schema string) {
	t.Helper()
	ctx := context.Background()
	b := make([]byte, 6)
	rand.Read(b)
	schema = "vigil_test_" + hex.EncodeToString(b)
	admin, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("connect %s: %v", base, err)
	}
	defer admin.Close(ctx)
	if _, err := admin.Exec(ctx, "CREATE SCHEMA "+schema); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c, err := pgx.Connect(context.Background(), base)
		if err != nil {
			t.Error(err)
			return
		}
		defer c.Close(context.Background())
		if _, err := c.Exec(context.Background(), "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Error(err)
		}
	})
	return withParam(t, WithSearchPath(t, base, schema), "application_name", schema), schema
}

// WithSearchPath returns dsn, a URL or a keyword/value string, with its
// search_path set to schema.
func WithSearchPath(t testing.TB, dsn, schema string) string {
	t.Helper()
	return withParam(t, dsn, "search_path", schema)
}

// withParam returns dsn, a URL or a keyword/value string, with the
// run-time parameter key set to value (a plain word).
func withParam(t testing.TB, dsn, key, value string) string {
	t.Helper()
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		q.Set(key, value)
		u.RawQuery = q.Encode()
		return u.String()
	}
	return dsn + " " + key + "=" + value
}

// Open opens a store in a schema of its own on the test server
// (VIGIL_TEST_POSTGRES_DSN), closed and dropped at cleanup, and skips the
// test when no server is given.
func Open(t testing.TB) *postgres.DB {
	t.Helper()
	base := os.Getenv("VIGIL_TEST_POSTGRES_DSN")
	if base == "" {
		t.Skip("VIGIL_TEST_POSTGRES_DSN not set")
	}
	dsn, _ := Schema(t, base)
	db, err := postgres.Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
