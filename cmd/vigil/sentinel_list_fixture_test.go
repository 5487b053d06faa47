package main

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/spec"
)

// listFixture opens (making it) the SQLite store of data directory data,
// its owner of address email and its warehouse, for the tests of vigil
// sentinel list to fill before they run the command; the test closes the
// store before running it.
func listFixture(t *testing.T, data, email string) (vigil.Store, *vigil.User, *warehouse.Warehouse) {
	t.Helper()
	ctx := context.Background()
	st, err := openStore(ctx, data, "")
	if err != nil {
		t.Fatal(err)
	}
	owner, err := ensureOwner(ctx, st, email)
	if err != nil {
		t.Fatal(err)
	}
	wh, err := openWarehouse(st, warehouse.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return st, owner, wh
}

// checkedSpec returns the name of the sentinel of source src and its
// stored form, checked at now, as vigil sentinel add stores it.
func checkedSpec(t *testing.T, src string, now time.Time) (string, json.RawMessage) {
	t.Helper()
	parsed, err := spec.ParseSentinel("test", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ch, err := spec.NewChecker(now).Check(parsed)
	if err != nil {
		t.Fatal(err)
	}
	js, err := json.Marshal(ch)
	if err != nil {
		t.Fatal(err)
	}
	return parsed.Name.Name, js
}
