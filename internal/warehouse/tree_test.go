package warehouse_test

import (
	"context"
	"testing"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
)

// TestCallerDelta stores the delta a caller (the monitor) computed, without
// diffing again, and Diff gives it back.
func TestCallerDelta(t *testing.T) {
	ctx := context.Background()
	w, db := newWarehouse(t, warehouse.Options{}) // TreeDeltas off: only the caller's delta is kept
	hist := warehouse.SyntheticHistory(3, 6000, 0.05, 11)
	v1 := put(t, w, "http://example.com/", 0, hist[0])
	old, err := w.Document(ctx, v1.ID)
	if err != nil {
		t.Fatal(err)
	}
	cur, _, err := markup.ParseBytes(hist[1], nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := treediff.Diff(old, cur, nil)
	if err != nil {
		t.Fatal(err)
	}
	v2, err := w.Put(ctx, &warehouse.Fetch{URL: "http://example.com/", FetchedAt: t0.Add(1), Status: 200, ContentType: "text/html",
		Body: hist[1], Delta: d, DeltaFrom: v1.ID})
	if err != nil {
		t.Fatal(err)
	}
	b, err := db.Body(ctx, v1.ID)
	if err != nil || len(b.TreeDelta) == 0 {
		t.Fatalf("no tree delta stored: %v", err)
	}
	diffLeads(t, w, v1.ID, v2.ID)
	// A delta from a version that is no longer the newest is ignored.
	v3, err := w.Put(ctx, &warehouse.Fetch{URL: "http://example.com/", FetchedAt: t0.Add(2), Status: 200, ContentType: "text/html",
		Body: hist[2], Delta: d, DeltaFrom: v1.ID})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := db.Body(ctx, v2.ID); len(b.TreeDelta) != 0 {
		t.Fatalf("stale delta stored on version %d (v3 %d)", v2.ID, v3.ID)
	}
}

// TestStoredDeltaThatNoLongerFits: a stored tree delta built from another
// reading of the older version (as a parser change would make it) is not
// returned; Diff diffs the versions again.
func TestStoredDeltaThatNoLongerFits(t *testing.T) {
	ctx := context.Background()
	w, _ := newWarehouse(t, warehouse.Options{})
	hist := warehouse.SyntheticHistory(2, 6000, 0.05, 12)
	v1 := put(t, w, "http://example.com/", 0, hist[0])
	// The caller's delta, from v1 read with all its white space.
	old, _, err := markup.ParseBytes(hist[0], &markup.Options{Whitespace: markup.Keep})
	if err != nil {
		t.Fatal(err)
	}
	old.AssignXIDs()
	cur, _, err := markup.ParseBytes(hist[1], &markup.Options{Whitespace: markup.Keep})
	if err != nil {
		t.Fatal(err)
	}
	d, err := treediff.Diff(old, cur, nil)
	if err != nil {
		t.Fatal(err)
	}
	v2, err := w.Put(ctx, &warehouse.Fetch{URL: "http://example.com/", FetchedAt: t0.Add(1), Status: 200, ContentType: "text/html",
		Body: hist[1], Delta: d, DeltaFrom: v1.ID})
	if err != nil {
		t.Fatal(err)
	}
	from, _ := w.Document(ctx, v1.ID)
	if _, err := delta.Apply(from, d); err == nil {
		t.Fatal("the caller's delta fits the version as the warehouse reads it: nothing to test")
	}
	diffLeads(t, w, v1.ID, v2.ID)
}

// diffLeads checks that the warehouse's Diff from one version to another,
// applied to the first as Document reads it, gives the second.
func diffLeads(t *testing.T, w *warehouse.Warehouse, from, to int64) {
	t.Helper()
	ctx := context.Background()
	got, err := w.Diff(ctx, from, to)
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := w.Document(ctx, from)
	res, err := delta.Apply(doc, got)
	if err != nil {
		t.Fatalf("Diff gave a delta that does not fit: %v", err)
	}
	want, _ := w.Document(ctx, to)
	if diff := tree.Diff(res.Root, want.Root, tree.Content); diff != "" {
		t.Fatal(diff)
	}
}
