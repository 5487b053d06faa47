package warehouse_test

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/internal/zstd"
)

// panickyCodec is the zstd codec whose fast compression panics while
// panics is set, as a bug in the codec would.
type panickyCodec struct {
	*zstd.Codec
	panics atomic.Bool
}

func (c *panickyCodec) CompressFast(body []byte) ([]byte, error) {
	if c.panics.Load() {
		panic("compress http://user:SECRET@example.com/page: index out of range")
	}
	return c.Codec.CompressFast(body)
}

// TestPutCompressionPanics: a panic in compressing a new version's body,
// on the goroutine Put compresses it on, fails the write with the panic
// (a *vigil.PanicError, its URL cut to its host, its stack kept), and
// nothing of it is stored: the page's newest version is the one before,
// which reads back whole, and the next write, the bug gone, is stored.
func TestPutCompressionPanics(t *testing.T) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	z, err := zstd.New(0)
	if err != nil {
		t.Fatal(err)
	}
	codec := &panickyCodec{Codec: z}
	w, err := warehouse.New(db, warehouse.Options{Codec: codec})
	if err != nil {
		t.Fatal(err)
	}
	const url = "http://example.com/page"
	first := put(t, w, url, 0, []byte("<html><body><p>first</p></body></html>"))
	codec.panics.Store(true)
	_, err = w.Put(ctx, &warehouse.Fetch{URL: url, FetchedAt: t0.Add(2 * 3600e9), Status: 200, ContentType: "text/html",
		Charset: "utf-8", Body: []byte("<html><body><p>second</p></body></html>")})
	var pe *vigil.PanicError
	if !errors.As(err, &pe) || err.Error() != "compress: panic: compress http://user:xxxxx@example.com/…: index out of range" {
		t.Fatalf("Put = %v; want the compression's panic", err)
	}
	if strings.Contains(err.Error(), "SECRET") || !strings.Contains(string(pe.Stack), "CompressFast") {
		t.Errorf("the panic's secret shows, or its stack is not kept: %v\n%s", err, pe.Stack)
	}
	_, v, err := db.LatestVersionByURL(ctx, url)
	if err != nil || v.ID != first.ID {
		t.Fatalf("newest version %+v, %v; want the first, nothing of the failed write stored", v, err)
	}
	if body, err := w.Body(ctx, v.ID); err != nil || !strings.Contains(string(body), "first") {
		t.Errorf("the first version reads %q, %v", body, err)
	}
	codec.panics.Store(false)
	third := put(t, w, url, 3, []byte("<html><body><p>third</p></body></html>"))
	if third.Seq != first.Seq+1 {
		t.Errorf("the next write is version %d; want %d", third.Seq, first.Seq+1)
	}
}
