package web

import (
	"testing"

	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/internal/zstd"
)

// useWarehouse gives s a warehouse over its store, compressing with zstd
// as vigil serve does, and returns it.
func useWarehouse(t testing.TB, s *Server) *warehouse.Warehouse {
	t.Helper()
	codec, err := zstd.New(0)
	if err != nil {
		t.Fatal(err)
	}
	w, err := warehouse.New(s.Store, warehouse.Options{Codec: codec})
	if err != nil {
		t.Fatal(err)
	}
	s.Warehouse = w
	return w
}
