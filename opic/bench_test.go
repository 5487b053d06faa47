package opic

import (
	"runtime"
	"sync"
	"testing"
)

var (
	benchOnce  sync.Once
	benchGraph *Graph
)

// benchGraphN is the page count of the benchmarks' power-law graph.
const benchGraphN = 1_000_000

func graphForBench(b *testing.B) *Graph {
	benchOnce.Do(func() {
		g, err := PowerLaw(benchGraphN, InDegreeExponent, 1)
		if err != nil {
			b.Fatal(err)
		}
		benchGraph = g
	})
	return benchGraph
}

// benchmarkReads measures simulated page reads (policy choice plus Read)
// on the 1 000 000-page power-law graph and reports reads/s.
func benchmarkReads(b *testing.B, h History, policy func(*OPIC) Policy) {
	g := graphForBench(b)
	o, err := New(g.Len(), Config{Alpha: DefaultAlpha, History: h})
	if err != nil {
		b.Fatal(err)
	}
	pol := policy(o)
	b.ResetTimer()
	for b.Loop() {
		p, _ := pol.Next()
		o.Read(p, g.Links(p))
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "reads/s")
}

func BenchmarkReadGreedy(b *testing.B) {
	benchmarkReads(b, Cumulative{}, func(o *OPIC) Policy { return NewGreedy(o) })
}

func BenchmarkReadRandom(b *testing.B) {
	benchmarkReads(b, Cumulative{}, func(o *OPIC) Policy { return NewRandom(o, 1) })
}

func BenchmarkReadCycle(b *testing.B) {
	benchmarkReads(b, Cumulative{}, func(o *OPIC) Policy { return NewCycle(o) })
}

func BenchmarkReadGreedyInterpolation(b *testing.B) {
	benchmarkReads(b, Interpolation{Window: 8}, func(o *OPIC) Policy { return NewGreedy(o) })
}

// BenchmarkMemoryPerPage measures the heap an OPIC state of 1 000 000 pages
// takes, with and without the Greedy heap, and reports bytes/page.
func BenchmarkMemoryPerPage(b *testing.B) {
	const n = benchGraphN
	var before, after runtime.MemStats
	var bare, greedy float64
	for b.Loop() {
		runtime.GC()
		runtime.ReadMemStats(&before)
		o, _ := New(n, Config{Alpha: DefaultAlpha})
		runtime.GC()
		runtime.ReadMemStats(&after)
		bare = float64(after.HeapAlloc-before.HeapAlloc) / n
		NewGreedy(o)
		runtime.GC()
		runtime.ReadMemStats(&after)
		greedy = float64(after.HeapAlloc-before.HeapAlloc) / n
		runtime.KeepAlive(o)
	}
	b.ReportMetric(bare, "B/page")
	b.ReportMetric(greedy, "B/page-greedy")
}

func BenchmarkEncode(b *testing.B) {
	o, _ := New(benchGraphN, Config{Alpha: DefaultAlpha})
	b.SetBytes(int64(EncodedSize(benchGraphN)))
	for b.Loop() {
		o.WriteTo(discard{})
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func BenchmarkPageRankIteration(b *testing.B) {
	g := graphForBench(b)
	x := make([]float64, g.Len())
	next := make([]float64, g.Len())
	for i := range x {
		x[i] = 1 / float64(len(x))
	}
	for b.Loop() {
		PowerStep(g, DefaultAlpha, x, next)
	}
}
