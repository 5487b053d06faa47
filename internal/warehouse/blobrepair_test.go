package warehouse_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/internal/zstd"
)

// TestPutRepairsCorruptSharedBlob holds that a Put of content whose
// stored blob is corrupt (it does not decompress, or not to its hash)
// stores the good bytes in its place, so that the version that shared it
// reads again with the new one, where the new version shared the corrupt
// blob and was as unreadable as the old.
func TestPutRepairsCorruptSharedBlob(t *testing.T) {
	ctx := context.Background()
	codec, err := zstd.New(0)
	if err != nil {
		t.Fatal(err)
	}
	body := []byte("<p>the same content, fetched twice</p>")
	good, err := codec.Compress(body)
	if err != nil {
		t.Fatal(err)
	}
	other, err := codec.Compress([]byte("<p>other content</p>"))
	if err != nil {
		t.Fatal(err)
	}
	corruptions := map[string][]byte{
		"not zstd":      []byte("x"),
		"truncated":     good[:len(good)-4],
		"zero bytes":    {},
		"other content": other,
	}
	for name, corrupt := range corruptions {
		for _, sameURL := range []bool{true, false} {
			where := map[bool]string{true: "same page", false: "other page"}[sameURL]
			t.Run(name+", "+where, func(t *testing.T) {
				w, db := newWarehouse(t, warehouse.Options{})
				v1 := put(t, w, "http://example.com/", 0, body)
				if err := db.ReplaceBody(ctx, &vigil.StoredBody{VersionID: v1.ID, Encoding: vigil.BodyFull},
					&vigil.Blob{Hash: v1.ContentHash, Size: v1.Size, Data: corrupt}); err != nil {
					t.Fatal(err)
				}
				if blob, err := db.FindBlob(ctx, v1.ContentHash); err != nil || !bytes.Equal(blob.Data, corrupt) {
					t.Fatalf("blob %q, %v: the corruption did not take", blob.Data, err)
				}
				url := "http://example.com/"
				if !sameURL {
					url = "http://other.example/"
				}
				v2, err := w.Put(ctx, &warehouse.Fetch{URL: url, FetchedAt: t0.Add(time.Hour), Status: 200,
					ContentType: "text/html", Body: body})
				if err != nil {
					t.Fatalf("Put of the same content: %v", err)
				}
				for _, v := range []*vigil.Version{v1, v2} {
					got, err := w.Body(ctx, v.ID)
					if err != nil || !bytes.Equal(got, body) {
						t.Errorf("version %d reads %q, %v; want %q", v.ID, got, err, body)
					}
				}
			})
		}
	}
}
