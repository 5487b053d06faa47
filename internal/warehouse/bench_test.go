package warehouse_test

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// BenchmarkPut writes new versions of a 100 KB page changing 1 % a version
// on SQLite (k = 16, no tree deltas): the write-throughput target is 500
// versions a second.
func BenchmarkPut(b *testing.B) {
	for _, tree := range []bool{false, true} {
		b.Run(fmt.Sprintf("tree=%v", tree), func(b *testing.B) {
			ctx := context.Background()
			w, _ := newWarehouse(b, warehouse.Options{FullEvery: 16, TreeDeltas: tree})
			hist := warehouse.SyntheticHistory(200, 100_000, 0.01, 7)
			i := 0
			cpu0 := processCPU()
			for b.Loop() {
				_, err := w.Put(ctx, &warehouse.Fetch{URL: "http://example.com/", FetchedAt: t0.Add(time.Duration(i) * time.Second),
					Status: 200, ContentType: "text/html", Body: hist[i%len(hist)]})
				if err != nil {
					b.Fatal(err)
				}
				i++
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "versions/s")
			b.ReportMetric(float64(b.N)/(processCPU()-cpu0).Seconds(), "versions/CPU-s")
		})
	}
}

// BenchmarkRead reads back versions of a 100-version history of a 100 KB
// page: the newest, and the one farthest from a full copy (k-1 patches).
// The latency target is under 10 ms with k = 16.
func BenchmarkRead(b *testing.B) {
	for _, k := range []int{16, 64} {
		ctx := context.Background()
		w, _ := newWarehouse(b, warehouse.Options{FullEvery: k})
		hist := warehouse.SyntheticHistory(100, 100_000, 0.01, 42)
		var vs []*vigil.Version
		for i, body := range hist {
			vs = append(vs, put(b, w, "http://example.com/", i, body))
		}
		for _, tc := range []struct {
			name string
			v    *vigil.Version
		}{{"newest", vs[99]}, {"worst", vs[0]}} {
			b.Run(fmt.Sprintf("k=%d/%s", k, tc.name), func(b *testing.B) {
				for b.Loop() {
					if _, err := w.Body(ctx, tc.v.ID); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// processCPU returns the process's CPU time: on a shared machine, versions
// per CPU-second say what a write costs, whatever else runs.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
