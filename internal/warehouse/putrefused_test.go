package warehouse_test

import (
	"context"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestRefusedPutMakesNoResource holds that a Put refused for its input
// leaves the store as it was: no resource made for a version never stored.
func TestRefusedPutMakesNoResource(t *testing.T) {
	ctx := context.Background()
	cases := map[string]*warehouse.Fetch{
		"status out of range": {Status: 1000},
		"negative duration":   {Status: 200, FetchDuration: -time.Second},
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) {
			w, db := newWarehouse(t, warehouse.Options{})
			f.URL, f.FetchedAt, f.Body = "http://example.com/refused", t0, []byte("<p>x</p>")
			v, err := w.Put(ctx, f)
			if vigil.ErrorCode(err) != vigil.EINVALID {
				t.Fatalf("Put stored %+v, %v: want EINVALID", v, err)
			}
			if r, err := db.FindResourceByURL(ctx, f.URL); vigil.ErrorCode(err) != vigil.ENOTFOUND {
				t.Fatalf("after a refused Put the resource is %+v, %v: want none", r, err)
			}
		})
	}
}
