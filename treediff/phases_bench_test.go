package treediff

import (
	"bytes"
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/simulate"
)

// BenchmarkDiffPhases times the Vigil algorithm phase by phase on a 1 MB
// and a 10 MB pair of each shape (10 % of nodes changed), parsing excluded,
// and reports each phase in ms/op next to the time to parse both documents,
// and the megabytes each phase allocates, so that the growth of each phase
// from 1 to 10 MB can be read off:
//
//	go test -run '^$' -bench DiffPhases -benchtime 5x ./treediff
//
// Run it with GOGC=off to see the algorithm's own cost without the
// collector's; BENCHMARKS.md has the figures.
func BenchmarkDiffPhases(b *testing.B) {
	for _, shape := range simulate.Shapes {
		for _, size := range []int{1 << 20, 10 << 20} {
			benchmarkPhases(b, shape, size)
		}
	}
}

// benchmarkPhases is BenchmarkDiffPhases on one pair.
func benchmarkPhases(b *testing.B, shape simulate.Shape, size int) {
	old, newDoc := pair(b, shape, size, 0.1)
	var x, y bytes.Buffer
	if err := markup.WriteXML(&x, old, nil); err != nil {
		b.Fatal(err)
	}
	if err := markup.WriteXML(&y, newDoc, nil); err != nil {
		b.Fatal(err)
	}
	old, newDoc = nil, nil
	b.Run(fmt.Sprintf("%s/%dMB", shape, size>>20), func(b *testing.B) {
		pipeline, err := phases(Vigil)
		if err != nil {
			b.Fatal(err)
		}
		spent := map[string]time.Duration{}
		allocated := map[string]uint64{}
		var ms runtime.MemStats
		timed := func(name string, f func()) {
			runtime.ReadMemStats(&ms)
			before := ms.TotalAlloc
			start := time.Now()
			f()
			spent[name] += time.Since(start)
			runtime.ReadMemStats(&ms)
			allocated[name] += ms.TotalAlloc - before
		}
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			runtime.GC()
			start := time.Now()
			o, err := markup.ParseXMLFlat(bytes.NewReader(x.Bytes()), nil)
			if err != nil {
				b.Fatal(err)
			}
			n, err := markup.ParseXMLFlat(bytes.NewReader(y.Bytes()), nil)
			if err != nil {
				b.Fatal(err)
			}
			spent["parse"] += time.Since(start)
			runtime.GC()
			b.StartTimer()
			var m *matching
			timed("measure", func() {
				m = newMatching(o, n, nil)
				m.pair(m.old.Root(), m.new.Root())
			})
			for _, p := range pipeline {
				timed(p.name(), func() { p.run(m) })
			}
			timed("delta", func() { _, err = m.buildDelta(true) })
			if err != nil {
				b.Fatal(err)
			}
		}
		for name, d := range spent {
			b.ReportMetric(float64(d)/float64(b.N)/1e6, fmt.Sprintf("%s-ms/op", name))
		}
		for name, n := range allocated {
			b.ReportMetric(float64(n)/float64(b.N)/1e6, fmt.Sprintf("%s-MB/op", name))
		}
	})
}
