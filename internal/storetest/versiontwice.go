package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// testVersionAppendTwice checks that an append of a fetch the resource
// holds already (the same fetch time, content, status and error) stores
// nothing and gives the stored version, whatever its PrevID: two imports
// of one file at once, each having read the page's history before the
// other appended, stored every version twice.
func testVersionAppendTwice(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	r, err := s.EnsureResource(ctx, "http://example.com/twice")
	must(t, err)
	v1 := appendBody(t, s, r, 0, t0, "one")
	v2 := appendBody(t, s, r, v1.ID, t0.Add(time.Hour), "two")

	for _, prev := range []int64{0, v1.ID, v2.ID} { // a stale head, and the true one
		again := appendBody(t, s, r, prev, t0, "one")
		if again.ID != v1.ID || again.Seq != v1.Seq {
			t.Errorf("append of version %d's fetch again (prev %d): version %d seq %d, want %d seq %d", v1.ID, prev, again.ID, again.Seq, v1.ID, v1.Seq)
		}
	}
	// Not the same fetch: another body at the same time, the same body
	// at another time, another status.
	other := appendBody(t, s, r, v2.ID, t0, "one, changed")
	later := appendBody(t, s, r, other.ID, t0.Add(2*time.Hour), "one")
	failed := &vigil.Version{ResourceID: r.ID, FetchedAt: t0.Add(2 * time.Hour), Status: 503, ContentHash: later.ContentHash, Size: later.Size}
	fa := &vigil.Append{Version: failed, PrevID: later.ID, Blob: &vigil.Blob{Hash: later.ContentHash, Size: later.Size, Data: []byte("z:one")}, Existing: true}
	must(t, s.AppendVersion(ctx, fa))
	if fa.Existing {
		t.Errorf("an append that stored version %d says it was stored already (Existing)", failed.ID)
	}
	// Existing says which append of one fetch stored it: the head's
	// fetch again, newest as it is, included.
	a := &vigil.Append{Version: &vigil.Version{ResourceID: r.ID, FetchedAt: t0.Add(2 * time.Hour), Status: 503, ContentHash: later.ContentHash, Size: later.Size},
		PrevID: later.ID, Blob: &vigil.Blob{Hash: later.ContentHash, Size: later.Size, Data: []byte("z:one")}}
	must(t, s.AppendVersion(ctx, a))
	if !a.Existing || a.Version.ID != failed.ID {
		t.Errorf("append of the newest version's fetch again: version %d, Existing %v; want %d, true", a.Version.ID, a.Existing, failed.ID)
	}
	if other.ID == v1.ID || later.ID == v1.ID || failed.ID == later.ID {
		t.Fatalf("versions of other fetches taken for stored ones: %d %d %d", other.ID, later.ID, failed.ID)
	}

	// Concurrent appends of one fetch, each on the head it read: one
	// version.
	const n = 8
	ids := make([]int64, n)
	wrote := make([]bool, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			v := &vigil.Version{ResourceID: r.ID, FetchedAt: t0.Add(3 * time.Hour), Status: 200, ContentType: "text/html",
				Size: 5, ContentHash: Hash([]byte("three"))}
			a := &vigil.Append{Version: v, PrevID: failed.ID, Blob: &vigil.Blob{Hash: v.ContentHash, Size: v.Size, Data: []byte("z:three")}}
			err := s.AppendVersion(ctx, a)
			if err != nil {
				t.Errorf("concurrent append: %v", err)
			}
			ids[i], wrote[i] = v.ID, err == nil && !a.Existing
		})
	}
	wg.Wait()
	stores := 0
	for _, w := range wrote {
		if w {
			stores++
		}
	}
	if stores != 1 {
		t.Errorf("%d concurrent appends of one fetch: %d say they stored it, want 1", n, stores)
	}
	for _, id := range ids {
		if id != ids[0] {
			t.Errorf("concurrent appends of one fetch gave versions %v, want one", ids)
			break
		}
	}
	_, total, err := s.FindVersions(ctx, vigil.VersionFilter{ResourceID: r.ID})
	must(t, err)
	if total != 6 {
		t.Fatalf("%d versions stored, want 6", total)
	}
}
