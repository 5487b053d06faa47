package monitor

import (
	"context"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/internal/zstd"
	"github.com/vigil-web/vigil/spec"
)

// testStore opens a fresh SQLite store with a warehouse over it and one
// user, the owner of the sentinels a test creates.
func testStore(t *testing.T) (*sqlite.DB, *warehouse.Warehouse, *vigil.User) {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	codec, err := zstd.New(0)
	if err != nil {
		t.Fatal(err)
	}
	wh, err := warehouse.New(CachedResources(db), warehouse.Options{Codec: codec})
	if err != nil {
		t.Fatal(err)
	}
	u := &vigil.User{Email: "owner@example.test", Name: "owner"}
	if err := db.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	return db, wh, u
}

// createSentinel checks the source of one sentinel and stores it for
// owner, due now.
func createSentinel(t *testing.T, db *sqlite.DB, checker *spec.Checker, owner *vigil.User, name, src string) *vigil.Sentinel {
	t.Helper()
	ps, err := spec.ParseSentinel("", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ch, err := checker.Check(ps)
	if err != nil {
		t.Fatal(err)
	}
	js, err := ch.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	s := &vigil.Sentinel{OwnerID: owner.ID, Name: name, Source: src, Spec: js, Status: vigil.SentinelActive, NextCheck: checker.Now}
	if err := db.CreateSentinel(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	return s
}
