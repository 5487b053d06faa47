package postgres_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/postgres"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/internal/zstd"
)

// TestConcurrentWriters runs two warehouses, as two worker processes would,
// each with its own pool, writing versions of the same resources at once:
// the store's row lock and ECONFLICT keep every chain whole.
func TestConcurrentWriters(t *testing.T) {
	ctx := context.Background()
	_, d := openDSN(t)
	var ws []*warehouse.Warehouse
	for range 2 {
		db, err := postgres.Open(ctx, d)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		codec, _ := zstd.New(0)
		w, err := warehouse.New(db, warehouse.Options{Codec: codec, FullEvery: 3})
		if err != nil {
			t.Fatal(err)
		}
		ws = append(ws, w)
	}
	hist := warehouse.SyntheticHistory(20, 4000, 0.05, 9)
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for wi, w := range ws {
		for g := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 10 {
					url := fmt.Sprintf("http://r%d.example/", i%2)
					body := hist[(wi*20+g*10+i)%len(hist)]
					if _, err := w.Put(ctx, &warehouse.Fetch{URL: url, FetchedAt: time.Now(), Status: 200, ContentType: "text/html", Body: body}); err != nil {
						errs <- err
					}
				}
			}()
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	st := ws[0].Store()
	total := 0
	for i := range 2 {
		r, err := st.FindResourceByURL(ctx, fmt.Sprintf("http://r%d.example/", i))
		if err != nil {
			t.Fatal(err)
		}
		vs, n, err := st.FindVersions(ctx, vigil.VersionFilter{ResourceID: r.ID})
		if err != nil {
			t.Fatal(err)
		}
		total += n
		for _, v := range vs {
			b, err := ws[1].Body(ctx, v.ID)
			if err != nil || warehouse.Hash(b) != v.ContentHash {
				t.Fatalf("resource %d version %d: %v", r.ID, v.Seq, err)
			}
		}
	}
	if total != 40 {
		t.Fatalf("%d versions, want 40", total)
	}
}
