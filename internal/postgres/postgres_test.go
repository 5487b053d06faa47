package postgres_test

import (
	"context"
	"os"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/postgres"
	"github.com/vigil-web/vigil/internal/postgres/pgtest"
	"github.com/vigil-web/vigil/internal/storetest"
)

// dsn returns the test server's address, skipping the test when
// VIGIL_TEST_POSTGRES_DSN is not set (CI sets it; see .ci/run).
func dsn(t testing.TB) string {
	d := os.Getenv("VIGIL_TEST_POSTGRES_DSN")
	if d == "" {
		t.Skip("PostgreSQL tests skipped: set VIGIL_TEST_POSTGRES_DSN (e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable)")
	}
	return d
}

// open gives the test a store in a schema of its own, dropped at cleanup.
func open(t testing.TB) *postgres.DB {
	t.Helper()
	db, _ := openDSN(t)
	return db
}

func openDSN(t testing.TB) (*postgres.DB, string) {
	t.Helper()
	d, _ := newSchema(t)
	db, err := postgres.Open(context.Background(), d)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db, d
}

// newSchema creates an empty schema, dropped at cleanup, and returns the
// test server's address selecting it and the schema's name.
func newSchema(t testing.TB) (string, string) {
	t.Helper()
	return pgtest.Schema(t, dsn(t))
}

func TestConformance(t *testing.T) {
	dsn(t)
	storetest.Run(t, func(t *testing.T) vigil.Store { return open(t) })
}

func TestReopen(t *testing.T) {
	ctx := context.Background()
	db, d := openDSN(t)
	if _, err := db.EnsureResource(ctx, "http://example.com/"); err != nil {
		t.Fatal(err)
	}
	again, err := postgres.Open(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if _, err := again.FindResourceByURL(ctx, "http://example.com/"); err != nil {
		t.Fatal(err)
	}
}
