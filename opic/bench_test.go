package opic

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
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

// benchState is a crawl in its steady state, kept across the runs of a
// benchmark so that only the first run pays for leaving the uniform start
// (where every cash increase climbs the whole Greedy heap).
type benchState struct {
	o   *OPIC
	pol Policy
}

var benchStates = map[string]*benchState{}

// benchmarkReads measures simulated page reads (policy choice plus Read)
// on the 1 000 000-page power-law graph, after one pass over it, and
// reports reads per second of wall time and, on Linux, per second of the
// thread's CPU time (robust on a shared machine).
func benchmarkReads(b *testing.B, name string, h History, policy func(*OPIC) Policy) {
	g := graphForBench(b)
	st := benchStates[name]
	if st == nil {
		o, err := New(g.Len(), Config{Alpha: DefaultAlpha, History: h})
		if err != nil {
			b.Fatal(err)
		}
		st = &benchState{o: o, pol: policy(o)}
		for range g.Len() {
			p, _ := st.pol.Next()
			o.Read(p, g.Links(p))
		}
		benchStates[name] = st
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0 := threadCPU()
	b.ResetTimer()
	for b.Loop() {
		p, _ := st.pol.Next()
		st.o.Read(p, g.Links(p))
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "reads/s")
	if cpu := threadCPU() - cpu0; cpu0 >= 0 && cpu > 100*time.Millisecond {
		b.ReportMetric(float64(b.N)/cpu.Seconds(), "reads/cpu-s")
	}
}

// threadCPU returns the CPU time of the calling thread from
// /proc/thread-self/stat (Linux; 10 ms ticks), or -1.
func threadCPU() time.Duration {
	buf, err := os.ReadFile("/proc/thread-self/stat")
	if err != nil {
		return -1
	}
	s := string(buf)
	i := strings.LastIndexByte(s, ')')
	if i < 0 || i+2 > len(s) {
		return -1
	}
	f := strings.Fields(s[i+2:])
	if len(f) < 13 {
		return -1
	}
	u, err1 := strconv.ParseInt(f[11], 10, 64)
	k, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return -1
	}
	return time.Duration(u+k) * 10 * time.Millisecond
}

func BenchmarkReadGreedy(b *testing.B) {
	benchmarkReads(b, "greedy", Cumulative{}, func(o *OPIC) Policy { return NewGreedy(o) })
}

func BenchmarkReadRandom(b *testing.B) {
	benchmarkReads(b, "random", Cumulative{}, func(o *OPIC) Policy { return NewRandom(o, 1) })
}

func BenchmarkReadCycle(b *testing.B) {
	benchmarkReads(b, "cycle", Cumulative{}, func(o *OPIC) Policy { return NewCycle(o) })
}

func BenchmarkReadGreedyInterpolation(b *testing.B) {
	benchmarkReads(b, "greedy-interpolation", Interpolation{Window: 8}, func(o *OPIC) Policy { return NewGreedy(o) })
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
