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
