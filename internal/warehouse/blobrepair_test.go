package warehouse_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
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

// countingCodec is the zstd codec counting the blobs it decompresses.
type countingCodec struct {
	*zstd.Codec
	decompressed atomic.Int64
}

func (c *countingCodec) Decompress(data []byte) ([]byte, error) {
	c.decompressed.Add(1)
	return c.Codec.Decompress(data)
}

// TestPutUnchangedDoesNotReadBlob holds that the repair of a corrupt blob
// costs an unchanged fetch nothing once its blob is known good: the Puts
// of a page that does not change read and decompress its stored blob once
// at most, where every Put read it whole, decompressed and hashed it; and
// that a blob found corrupt by a read after that is repaired all the same
// by the next Put of its content.
func TestPutUnchangedDoesNotReadBlob(t *testing.T) {
	ctx := context.Background()
	z, err := zstd.New(0)
	if err != nil {
		t.Fatal(err)
	}
	codec := &countingCodec{Codec: z}
	db, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	w, err := warehouse.New(db, warehouse.Options{Codec: codec})
	if err != nil {
		t.Fatal(err)
	}
	body := []byte("<p>a page that does not change</p>")
	var vs []*vigil.Version
	for i := range 10 {
		vs = append(vs, put(t, w, "http://example.com/", i, body))
	}
	if n := codec.decompressed.Load(); n > 1 {
		t.Errorf("10 Puts of unchanged content decompressed %d blobs, want 1 at most", n)
	}
	// Corrupt after it was found good: the read that fails tells the
	// warehouse, and the next Put repairs it.
	if err := db.ReplaceBody(ctx, &vigil.StoredBody{VersionID: vs[0].ID, Encoding: vigil.BodyFull},
		&vigil.Blob{Hash: vs[0].ContentHash, Size: vs[0].Size, Data: []byte("x")}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Body(ctx, vs[0].ID); err == nil {
		t.Fatal("the corrupt blob reads")
	}
	v := put(t, w, "http://example.com/", 10, body)
	for _, v := range append(vs, v) {
		if got, err := w.Body(ctx, v.ID); err != nil || !bytes.Equal(got, body) {
			t.Errorf("version %d reads %q, %v; want %q", v.ID, got, err, body)
		}
	}
}

// TestBodyOfBlobWithOtherContent holds that a full body whose blob
// decompresses to bytes of another hash (another page's, a bit flipped in
// a store that compresses nothing) is unreadable, not read as that other
// page, and that the warehouse then forgets it found the blob good, so
// that the next Put of the content repairs it.
func TestBodyOfBlobWithOtherContent(t *testing.T) {
	ctx := context.Background()
	codec, err := zstd.New(0)
	if err != nil {
		t.Fatal(err)
	}
	other, err := codec.Compress([]byte("<p>x</p>")) // smaller: the store keeps it
	if err != nil {
		t.Fatal(err)
	}
	w, db := newWarehouse(t, warehouse.Options{})
	body := []byte("<p>a page</p>")
	v1 := put(t, w, "http://example.com/", 0, body)
	put(t, w, "http://example.com/", 1, body) // the blob found good once
	if err := db.ReplaceBody(ctx, &vigil.StoredBody{VersionID: v1.ID, Encoding: vigil.BodyFull},
		&vigil.Blob{Hash: v1.ContentHash, Size: v1.Size, Data: other}); err != nil {
		t.Fatal(err)
	}
	// Read as a process that has no copy of the page's newest body.
	w, err = warehouse.New(db, warehouse.Options{Codec: codec})
	if err != nil {
		t.Fatal(err)
	}
	got, err := w.Body(ctx, v1.ID)
	if err == nil {
		t.Fatalf("Body read the blob of another content as version %d: %q", v1.ID, got)
	}
	if want := fmt.Sprintf("version %d:", v1.ID); !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "hash") {
		t.Errorf("error %q: want it to name %q and the hash", err, want)
	}
	v3 := put(t, w, "http://other.example/", 2, body)
	for _, v := range []*vigil.Version{v1, v3} {
		if got, err := w.Body(ctx, v.ID); err != nil || !bytes.Equal(got, body) {
			t.Errorf("after a Put of the content, version %d reads %q, %v; want %q", v.ID, got, err, body)
		}
	}
}
