package main

import (
	"context"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
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
