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
		"fetched after 2262":  {Status: 200, FetchedAt: time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC)},
		"link without target": {Status: 200, Links: []*vigil.Link{{Target: ""}}},
		"link of no type":     {Status: 200, Links: []*vigil.Link{{Target: "http://example.com/b", Type: "sideways"}}},
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) {
			w, db := newWarehouse(t, warehouse.Options{})
			f.URL, f.Body = "http://example.com/refused", []byte("<p>x</p>")
			if f.FetchedAt.IsZero() {
				f.FetchedAt = t0
			}
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

// TestLastModifiedOutOfRangeStoredAsNone holds that a server's
// Last-Modified no store keeps (past 2262) is stored as none, as an ETag
// that is no text is, and the fetch stored all the same.
func TestLastModifiedOutOfRangeStoredAsNone(t *testing.T) {
	ctx := context.Background()
	w, db := newWarehouse(t, warehouse.Options{})
	v, err := w.Put(ctx, &warehouse.Fetch{URL: "http://example.com/", FetchedAt: t0, Status: 200,
		LastModified: time.Date(3000, 1, 1, 0, 0, 0, 0, time.UTC), Body: []byte("<p>x</p>")})
	if err != nil {
		t.Fatal(err)
	}
	got, err := db.FindVersionByID(ctx, v.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !got.LastModified.IsZero() || !v.LastModified.IsZero() {
		t.Errorf("Last-Modified stored as %s (returned %s), want none", got.LastModified, v.LastModified)
	}
}
