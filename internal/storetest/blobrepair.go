package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// testBlobRepair holds that an append whose blob repairs the stored one
// of its hash (vigil.Append.RepairBlob: the warehouse found it corrupt)
// replaces it, though it is larger, so that every version kept in full
// with that content reads the new bytes; that a plain append keeps the
// smaller as before; and that a refused repair changes nothing.
func testBlobRepair(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	a, err := s.EnsureResource(ctx, "http://a.example/")
	must(t, err)
	b, err := s.EnsureResource(ctx, "http://b.example/")
	must(t, err)
	// A corrupt blob, smaller than any good encoding (a truncated one).
	va1 := appendBody(t, s, a, 0, t0, "same")
	must(t, s.ReplaceBody(ctx, &vigil.StoredBody{VersionID: va1.ID, Encoding: vigil.BodyFull},
		&vigil.Blob{Hash: va1.ContentHash, Size: va1.Size, Data: []byte("z")}))
	blobData := func(want string) {
		t.Helper()
		blob, err := s.FindBlob(ctx, va1.ContentHash)
		must(t, err)
		if string(blob.Data) != want || blob.Size != 4 {
			t.Fatalf("blob %q of size %d, want %q of size 4", blob.Data, blob.Size, want)
		}
	}
	blobData("z")
	appendWith := func(r *vigil.Resource, prev int64, at time.Time, data string, repair bool) (*vigil.Version, error) {
		v := &vigil.Version{ResourceID: r.ID, FetchedAt: at, Status: 200, Size: 4, ContentHash: va1.ContentHash}
		err := s.AppendVersion(ctx, &vigil.Append{Version: v, PrevID: prev, RepairBlob: repair,
			Blob: &vigil.Blob{Hash: v.ContentHash, Size: v.Size, Data: []byte(data)}})
		return v, err
	}
	// Without RepairBlob the smaller is kept.
	vb1, err := appendWith(b, 0, t0, "z:same, encoded anew", false)
	must(t, err)
	blobData("z")
	// A repair refused (the head is another) stores nothing of it.
	_, err = appendWith(a, 0, t0.Add(time.Hour), "z:same, encoded anew", true)
	wantCode(t, err, vigil.ECONFLICT)
	blobData("z")
	// A repair replaces it for every version that shares it.
	va2, err := appendWith(a, va1.ID, t0.Add(time.Hour), "z:same, encoded anew", true)
	must(t, err)
	blobData("z:same, encoded anew")
	for _, v := range []*vigil.Version{va1, va2, vb1} {
		body, err := s.Body(ctx, v.ID)
		must(t, err)
		if body.Encoding != vigil.BodyFull {
			t.Errorf("version %d: body %s, want full", v.ID, body.Encoding)
		}
	}
	st, err := s.Stats(ctx)
	must(t, err)
	if st.Blobs != 1 || st.Versions != 3 {
		t.Errorf("after the repair: %+v, want one blob of three versions", st)
	}
	// A smaller good encoding is kept after it, as before.
	_, err = appendWith(b, vb1.ID, t0.Add(time.Hour), "z:same", false)
	must(t, err)
	blobData("z:same")
}
