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

// TestPutAfterUnreadableHead holds that a newest version whose stored
// body cannot be read (corrupt) does not block the versions after it:
// a Put stores its body whole and leaves the unreadable one as it is,
// where it failed to read it for a patch, at every Put of the page.
func TestPutAfterUnreadableHead(t *testing.T) {
	ctx := context.Background()
	// The newest version's blob replaced by a smaller one (the store
	// keeps the smaller of two encodings of one blob) that is no zstd.
	cases := map[string][]byte{"corrupt blob": []byte("x"), "zero bytes": {}}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			w, db := newWarehouse(t, warehouse.Options{})
			bodies := [][]byte{[]byte("<p>one</p>"), []byte("<p>two</p>"), []byte("<p>three</p>"), []byte("<p>four</p>")}
			v1 := put(t, w, "http://example.com/", 0, bodies[0])
			if err := db.ReplaceBody(ctx, &vigil.StoredBody{VersionID: v1.ID, Encoding: vigil.BodyFull},
				&vigil.Blob{Hash: v1.ContentHash, Size: v1.Size, Data: data}); err != nil {
				t.Fatal(err)
			}
			// A warehouse without the head's body in its cache.
			codec, err := zstd.New(0)
			if err != nil {
				t.Fatal(err)
			}
			w2, err := warehouse.New(db, warehouse.Options{Codec: codec})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := w2.Body(ctx, v1.ID); err == nil {
				t.Fatal("the corrupt body reads")
			}
			var vs []*vigil.Version
			for i, body := range bodies[1:] {
				v, err := w2.Put(ctx, &warehouse.Fetch{URL: "http://example.com/", FetchedAt: t0.Add(time.Duration(i+1) * time.Hour),
					Status: 200, ContentType: "text/html", Body: body})
				if err != nil {
					t.Fatalf("Put %d after an unreadable head: %v", i+2, err)
				}
				vs = append(vs, v)
			}
			for i, v := range vs {
				got, err := w2.Body(ctx, v.ID)
				if err != nil || !bytes.Equal(got, bodies[i+1]) {
					t.Errorf("version %d reads %q, %v; want %q", v.Seq, got, err, bodies[i+1])
				}
			}
		})
	}
}
