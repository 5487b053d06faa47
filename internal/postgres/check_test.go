package postgres_test

import (
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/storetest"
)

func TestCheckStoreConformance(t *testing.T) {
	storetest.RunCheckStore(t, func(t *testing.T) interface {
		vigil.Store
		vigil.CheckStore
	} {
		return open(t)
	})
}

// TestClaimBadImportanceConformance: a claim counts an importance not from
// 0 to 1 as vigil.ClaimPriority does.
func TestClaimBadImportanceConformance(t *testing.T) {
	values := []string{"NaN", "Infinity", "-Infinity", "1e300", "-1e300", "-0.5", "1.5"}
	storetest.RunClaimBadImportance(t, values, func(t *testing.T) (interface {
		vigil.Store
		vigil.CheckStore
	}, storetest.ImportanceWriter) {
		db, d := openDSN(t)
		return db, func(t *testing.T, id int64, value string) { setImportance(t, d, "sentinels", id, value) }
	})
}
