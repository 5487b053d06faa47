package monitor

import (
	"context"
	"os"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/postgres"
	"github.com/vigil-web/vigil/internal/postgres/pgtest"
	"github.com/vigil-web/vigil/internal/sqlite"
)

// backendStore is a store backend as the daemon opens it: every store
// interface, the monitor's with them.
type backendStore interface {
	vigil.Store
	vigil.CheckStore
}

// storeOpener returns a fresh, empty store of one backend, closed at the
// test's cleanup.
type storeOpener func(t *testing.T) backendStore

// onEachStore runs test once on each store backend, as a subtest named
// after it: SQLite always, PostgreSQL (a schema of its own) when
// VIGIL_TEST_POSTGRES_DSN is set, skipped with a message saying how to
// run it otherwise.
func onEachStore(t *testing.T, test func(t *testing.T, open storeOpener)) {
	t.Helper()
	backends := []struct {
		name string
		open storeOpener
	}{
		{"sqlite", func(t *testing.T) backendStore {
			t.Helper()
			db, err := sqlite.Open(context.Background(), t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return db
		}},
		{"postgres", func(t *testing.T) backendStore {
			t.Helper()
			base := os.Getenv("VIGIL_TEST_POSTGRES_DSN")
			if base == "" {
				t.Skip("PostgreSQL variant skipped: set VIGIL_TEST_POSTGRES_DSN (e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable)")
			}
			dsn, _ := pgtest.Schema(t, base)
			db, err := postgres.Open(context.Background(), dsn)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { db.Close() })
			return db
		}},
	}
	for _, b := range backends {
		t.Run(b.name, func(t *testing.T) { test(t, b.open) })
	}
}
