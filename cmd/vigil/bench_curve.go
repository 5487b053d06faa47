package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"time"

	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/simulate"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
)

// curveSizes are the pair sizes of "vigil bench diff --curve", as fractions
// of --size: from a fortieth of it to twice it.
var curveSizes = []curveSize{{1, 40}, {1, 20}, {1, 10}, {1, 5}, {2, 5}, {1, 1}, {2, 1}}

// curveSize is a fraction of --size.
type curveSize struct{ num, den int }

// runDiffCurve times the default algorithm on pairs of growing size and
// prints its CPU time per MB of input at each, against the pair a tenth of
// large, then the machine's memory latency for working sets of the same
// sizes. The linear growth bar compares two points of this curve. The
// diff's work is linear (its instruction count is, see BENCHMARKS.md);
// its time per MB rises with the latency of the memory its working set
// lives in, from the caches at a fraction of a MB to main memory, whose
// latency itself rises with the span read (page walks).
func runDiffCurve(ctx context.Context, w io.Writer, shape simulate.Shape, large int, rate float64, runs int) error {
	fmt.Fprintf(w, "diff time per MB of document by pair size, the size of one document (default algorithm, best of %d runs, CPU time, GOMAXPROCS=%d)\n",
		runs, runtime.GOMAXPROCS(0))
	// Every pair is made before any is timed, and the runs go over all
	// sizes in turn, so that a machine that slows down for a while slows
	// every size alike. Each pair is read from its files for its run
	// alone (see pairFiles).
	dir, err := os.MkdirTemp("", "vigil-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	type point struct {
		pair pairFiles
		mb   float64
		best time.Duration
	}
	points := make([]point, len(curveSizes))
	for k, s := range curveSizes {
		p, err := writePair(dir, fmt.Sprint(k), shape, large*s.num/s.den, rate)
		if err != nil {
			return err
		}
		points[k] = point{pair: p, mb: float64(p.size) / 2 / (1 << 20), best: time.Duration(1<<63 - 1)}
	}
	for r := 0; r < runs; r++ {
		for k := range points {
			if err := ctx.Err(); err != nil {
				return errInterrupted
			}
			d, err := points[k].pair.timeVigil()
			if err != nil {
				return err
			}
			points[k].best = min(points[k].best, d)
		}
	}
	base := points[slices.Index(curveSizes, curveSize{1, 10})] // the pair a tenth of large
	perMB := func(p point) float64 { return ms2(p.best) / p.mb }
	for _, p := range points {
		fmt.Fprintf(w, "%6.2f MB pair: diff %8.1f ms | %6.2f ms per MB (%.2fx the %.1f MB pair's)\n",
			p.mb, ms2(p.best), perMB(p), perMB(p)/perMB(base), base.mb)
	}
	fmt.Fprintf(w, "this machine's latency of dependent random reads, by size of the memory read (a diff holds about 8 times the size of its pair):\n")
	// From 1 MB up to the working set of the largest pair.
	for mb := 1; mb>>1 < 16*large>>20; mb <<= 1 {
		// The least of three: other tenants of a shared cache only add.
		fmt.Fprintf(w, "%5d MB: %6.1f ns\n", mb, min(readLatency(mb<<20), readLatency(mb<<20), readLatency(mb<<20)))
	}
	return nil
}

// readLatency returns the mean time of a read whose address depends on the
// previous one, over a random cycle through an array of size bytes: the
// latency of whichever level of the memory hierarchy holds that much.
func readLatency(size int) float64 {
	n := size / 4
	next := make([]uint32, n)
	// Sattolo's algorithm: a random permutation with a single cycle.
	for i := range next {
		next[i] = uint32(i)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for i := n - 1; i > 0; i-- {
		j := rng.IntN(i)
		next[i], next[j] = next[j], next[i]
	}
	const steps = 1 << 21
	p := uint32(0)
	start := time.Now()
	for range steps {
		p = next[p]
	}
	elapsed := time.Since(start)
	runtime.KeepAlive(p) // the chase's result is used: it is not optimised away
	return float64(elapsed.Nanoseconds()) / steps
}

// timeVigil reads and parses the pair as flat trees and returns the CPU
// time of diffing them with the default algorithm, after a collection.
func (p pairFiles) timeVigil() (time.Duration, error) {
	var docs [2]*tree.Flat
	for k, name := range []string{p.old, p.new} {
		b, err := os.ReadFile(name)
		if err != nil {
			return 0, err
		}
		if docs[k], err = markup.ParseXMLFlat(bytes.NewReader(b), nil); err != nil {
			return 0, fmt.Errorf("%s: %w", name, err)
		}
	}
	d, _, err := timeDiff(docs[0], docs[1], treediff.Vigil)
	return d, err
}
