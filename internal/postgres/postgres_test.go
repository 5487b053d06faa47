package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/postgres"
	"github.com/vigil-web/vigil/internal/storetest"
)

// dsn returns the test server's address, skipping the test when
// VIGIL_TEST_POSTGRES_DSN is not set (CI sets it; see .ci/run).
func dsn(t *testing.T) string {
	d := os.Getenv("VIGIL_TEST_POSTGRES_DSN")
	if d == "" {
		t.Skip("PostgreSQL tests skipped: set VIGIL_TEST_POSTGRES_DSN (e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable)")
	}
	return d
}

// open gives the test a store in a schema of its own, dropped at cleanup.
func open(t *testing.T) *postgres.DB {
	t.Helper()
	db, _ := openDSN(t)
	return db
}

func openDSN(t *testing.T) (*postgres.DB, string) {
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
func newSchema(t *testing.T) (string, string) {
	t.Helper()
	base := dsn(t)
	ctx := context.Background()
	b := make([]byte, 6)
	rand.Read(b)
	schema := "vigil_test_" + hex.EncodeToString(b)
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
	return withSearchPath(t, base, schema), schema
}

func withSearchPath(t *testing.T, dsn, schema string) string {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		u, err := url.Parse(dsn)
		if err != nil {
			t.Fatal(err)
		}
		q := u.Query()
		q.Set("search_path", schema)
		u.RawQuery = q.Encode()
		return u.String()
	}
	return dsn + " search_path=" + schema
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
