package sqlite_test

import (
	"context"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/internal/storetest"
)

// TestOutboxClaimWorkConformance counts a claim's work in the pages the
// store's write connection reads (sqlite.PagesRead).
func TestOutboxClaimWorkConformance(t *testing.T) {
	storetest.RunOutboxClaimWork(t, func(t *testing.T) (vigil.Store, storetest.ClaimWork) {
		return open(t), pagesOfClaim
	})
}

// pagesOfClaim runs claim on s and returns the pages it read.
func pagesOfClaim(t *testing.T, s vigil.Store, claim func(vigil.OutboxStore)) int64 {
	t.Helper()
	ctx := context.Background()
	db := s.(*sqlite.DB)
	before, err := sqlite.PagesRead(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	claim(db)
	after, err := sqlite.PagesRead(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	return after - before
}

// TestOutboxClaimLimitWorkConformance counts the pages of a claim
// (pagesOfClaim) among many entries to many addresses.
func TestOutboxClaimLimitWorkConformance(t *testing.T) {
	storetest.RunOutboxClaimLimitWork(t, func(t *testing.T) (vigil.Store, storetest.ClaimWork) {
		return open(t), pagesOfClaim
	})
}
