package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/vigil-web/vigil/delta"
	"github.com/vigil-web/vigil/markup"
	"github.com/vigil-web/vigil/simulate"
	"github.com/vigil-web/vigil/tree"
	"github.com/vigil-web/vigil/treediff"
)

func init() {
	register(&command{
		name:    "bench diff",
		summary: "measure diff speed against parsing, linear growth, and peak memory",
		run:     runBenchDiff,
	})
	register(&command{
		name:    "bench diff-memory",
		summary: "(internal) parse and diff two files once and print the peak memory and the diff's CPU time",
		run:     runBenchDiffMemory,
	})
	register(&command{
		name:    "bench simulate",
		summary: "write a generated document, a changed version and the exact delta",
		run:     runBenchSimulate,
		// Computation alone, with nothing to clean up: Ctrl-C ends it at once.
		exitOnInterrupt: true,
	})
}

// serialisedPair returns a generated document and a changed version, both
// as XML bytes.
func serialisedPair(shape simulate.Shape, size int, rate float64, seed uint64) ([]byte, []byte, *delta.Delta, error) {
	old, err := simulate.Generate(shape, size, seed)
	if err != nil {
		return nil, nil, nil, err
	}
	newDoc, perfect, err := simulate.Change(old, simulate.Spread(rate), seed+1)
	if err != nil {
		return nil, nil, nil, err
	}
	var a, b bytes.Buffer
	if err := markup.WriteXML(&a, old, nil); err != nil {
		return nil, nil, nil, err
	}
	if err := markup.WriteXML(&b, newDoc, nil); err != nil {
		return nil, nil, nil, err
	}
	return a.Bytes(), b.Bytes(), perfect, nil
}

// errInterrupted is the error of a benchmark stopped by an interrupt
// between two timed runs.
var errInterrupted = errors.New("interrupted")

// pairFiles is a generated pair written to files: the timed runs read
// each pair from its files just before timing it, so that only that pair
// is in memory, as in "vigil diff". (Holding the large pair's input while
// timing the small one would raise the collector's heap goal for the
// small pair's diff alone: it would run without a collection, where
// "vigil diff" on the same files collects as often, for its size, as on
// the large pair.)
type pairFiles struct {
	old, new string
	size     int // bytes of both documents
}

// writePair writes a generated pair (seed 1) to two files of dir whose
// names start with name.
func writePair(dir, name string, shape simulate.Shape, size int, rate float64) (pairFiles, error) {
	a, b, _, err := serialisedPair(shape, size, rate, 1)
	if err != nil {
		return pairFiles{}, err
	}
	p := pairFiles{old: filepath.Join(dir, name+"-old.xml"), new: filepath.Join(dir, name+"-new.xml"), size: len(a) + len(b)}
	if err := os.WriteFile(p.old, a, 0o644); err != nil {
		return pairFiles{}, err
	}
	if err := os.WriteFile(p.new, b, 0o644); err != nil {
		return pairFiles{}, err
	}
	return p, nil
}

// sample reads the pair and times one run of it (see timeRun).
func (p pairFiles) sample() (sample, error) {
	a, err := os.ReadFile(p.old)
	if err != nil {
		return sample{}, err
	}
	b, err := os.ReadFile(p.new)
	if err != nil {
		return sample{}, err
	}
	return timeRun(a, b)
}

// cpuTime returns the CPU time (user and system) the process has used so
// far. Timing by CPU time rather than by the clock keeps the measure honest
// on a shared machine, where other processes take the cores away.
func cpuTime() time.Duration {
	ru := rusage()
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// pageFaults returns the number of page faults the process has taken so
// far that read nothing from disk: pages the kernel had to find and clear
// for memory new to the process, or given back to the OS and used again.
func pageFaults() int64 { return int64(rusage().Minflt) }

// rusage returns the process's resource usage so far, zero if it cannot
// be read.
func rusage() syscall.Rusage {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return syscall.Rusage{}
	}
	return ru
}

// bestOf runs f n times and returns the least CPU time it took, the usual
// way to take a timing on a shared machine.
func bestOf(n int, f func() error) (time.Duration, error) {
	best := time.Duration(1<<63 - 1)
	for i := 0; i < n; i++ {
		runtime.GC()
		start := cpuTime()
		if err := f(); err != nil {
			return 0, err
		}
		if d := cpuTime() - start; d < best {
			best = d
		}
	}
	return best, nil
}

// sample is one timed run on one pair: parsing both documents, then
// diffing them with each algorithm, back to back, so that a machine that
// speeds up or slows down between runs disturbs the three alike.
type sample struct {
	parse, vigil, xydiff time.Duration
	// faults is the number of page faults the vigil diff took.
	faults int64
}

// timeRun parses the pair and diffs it with both algorithms, timing each
// step by CPU time after a collection (the parse's garbage is not the
// diff's). It parses and diffs as vigil diff does an XML pair: flat trees
// (the parser reads its own copy of the input, as of a file), DiffFlat.
// Every shape is parsed as XML, the generated text page too (vigil diff
// would read that one as HTML).
func timeRun(a, b []byte) (sample, error) {
	var s sample
	parse := func(timed *time.Duration) (*tree.Flat, *tree.Flat, error) {
		runtime.GC()
		start := cpuTime()
		old, err := markup.ParseXMLFlat(bytes.NewReader(a), nil)
		if err != nil {
			return nil, nil, err
		}
		newDoc, err := markup.ParseXMLFlat(bytes.NewReader(b), nil)
		if timed != nil {
			*timed = cpuTime() - start
		}
		return old, newDoc, err
	}
	for _, alg := range []treediff.Algorithm{treediff.Vigil, treediff.XyDiff} {
		var timed *time.Duration
		if alg == treediff.Vigil {
			timed = &s.parse
		}
		old, newDoc, err := parse(timed)
		if err != nil {
			return s, err
		}
		d, faults, err := timeDiff(old, newDoc, alg)
		if err != nil {
			return s, err
		}
		if alg == treediff.Vigil {
			s.vigil, s.faults = d, faults
		} else {
			s.xydiff = d
		}
	}
	return s, nil
}

// timeDiff returns the CPU time of diffing a pair with an algorithm, after
// a collection, and the page faults the diff took.
func timeDiff(old, new *tree.Flat, alg treediff.Algorithm) (time.Duration, int64, error) {
	runtime.GC()
	faults := pageFaults()
	start := cpuTime()
	if _, err := treediff.DiffFlat(old, new, &treediff.Options{Algorithm: alg}); err != nil {
		return 0, 0, err
	}
	d := cpuTime() - start
	return d, pageFaults() - faults, nil
}

// faultsOf returns the page faults of the samples' vigil diffs.
func faultsOf(samples []sample) []int64 {
	f := make([]int64, len(samples))
	for i, s := range samples {
		f[i] = s.faults
	}
	return f
}

// best returns the least of the times f picks from samples.
func best(samples []sample, f func(sample) time.Duration) time.Duration {
	b := f(samples[0])
	for _, s := range samples[1:] {
		b = min(b, f(s))
	}
	return b
}

// medianRatio returns the median over runs of num(run) / den(run).
func medianRatio(runs int, num, den func(run int) time.Duration) float64 {
	r := make([]float64, runs)
	for i := range r {
		r[i] = ratioOf(num(i), den(i))
	}
	slices.Sort(r)
	if runs%2 == 1 {
		return r[runs/2]
	}
	return (r[runs/2-1] + r[runs/2]) / 2
}

// peakRSS returns the process's peak resident set size in bytes, from
// /proc/self/status, or 0 where that is not available.
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb << 10
		}
	}
	return 0
}

func runBenchDiff(ctx context.Context, env *environment, args []string) (int, error) {
	fs := newDescribedFlags(env, "bench diff", "[flags]",
		"Bench diff measures the diff engine on generated documents: its time\n"+
			"against the time to parse them (CPU, one core), its growth with their\n"+
			"size (in one process and in fresh ones), Vigil's matching against the\n"+
			"seed's XyDiff, and its peak memory. With --curve it prints instead the\n"+
			"time per MB from --size/40 to twice --size, and the memory latency.")
	shape := fs.String("shape", string(simulate.Records), "document shape: records, deep, flatlist or text")
	large := fs.Int("size", 10<<20, "size in bytes of the large document")
	rate := fs.Float64("rate", 0.1, "share of nodes changed, spread over deletes, updates, inserts and moves")
	runs := fs.Int("runs", 5, "timed runs; each times every measure once")
	procs := fs.Int("procs", 1, "GOMAXPROCS while measuring (the speed bar is for one core)")
	memory := fs.Bool("memory", true, "measure the peak memory of one parse and diff, and the growth, in child processes")
	curve := fs.Bool("curve", false, "instead, print the diff's time per MB at sizes from --size/40 to 2 x --size")
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	if err := wantArgs(fs, 0); err != nil {
		return exitError, err
	}
	if *runs < 1 || *procs < 1 || *large < 10 || *curve && *large < 40 {
		return exitError, fmt.Errorf("--runs and --procs must be at least 1, and --size at least 10 (40 with --curve)")
	}
	if err := checkSimulation(*shape, *rate); err != nil {
		return exitError, err
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(*procs))
	// The heap of the runs, as vigil diff has it (reserveHugeHeap): each
	// run holds the pairs it reads, their trees, and the garbage of the
	// diff of the seed's algorithm, which allocates several times what
	// Vigil's does; the curve goes to twice --size.
	reserveHugeHeap(benchHeapFactor * int64(*large))
	w := bufio.NewWriter(env.stdout)
	defer w.Flush()
	if *curve {
		if err := runDiffCurve(ctx, w, simulate.Shape(*shape), *large, *rate, *runs); err != nil {
			return exitError, err
		}
		return exitOK, nil
	}
	fmt.Fprintf(w, "vigil bench diff: shape %s, %d%% of nodes changed, CPU times of %d runs, GOMAXPROCS=%d\n",
		*shape, int(*rate*100), *runs, runtime.GOMAXPROCS(0))
	fmt.Fprintf(w, "each run times, for the small pair then the large one, parsing both documents and diffing them with each algorithm;\n")
	fmt.Fprintf(w, "times are the best of the runs, ratios the median of the runs' own ratios\n")
	dir, err := os.MkdirTemp("", "vigil-bench-")
	if err != nil {
		return exitError, err
	}
	defer os.RemoveAll(dir)
	small := *large / 10
	var inputs [2]int
	var pairs [2]pairFiles
	for k, size := range []int{small, *large} {
		if pairs[k], err = writePair(dir, fmt.Sprint(k), simulate.Shape(*shape), size, *rate); err != nil {
			return exitError, err
		}
		inputs[k] = pairs[k].size
	}
	var samples [2][]sample
	for r := 0; r < *runs; r++ {
		for k := range pairs {
			if err := ctx.Err(); err != nil {
				return exitError, errInterrupted
			}
			s, err := pairs[k].sample()
			if err != nil {
				return exitError, err
			}
			samples[k] = append(samples[k], s)
		}
	}
	parseOf := func(s sample) time.Duration { return s.parse }
	vigilOf := func(s sample) time.Duration { return s.vigil }
	xydiffOf := func(s sample) time.Duration { return s.xydiff }
	ratio := func(k int, num, den func(sample) time.Duration) float64 {
		return medianRatio(*runs, func(r int) time.Duration { return num(samples[k][r]) }, func(r int) time.Duration { return den(samples[k][r]) })
	}
	for k := range pairs {
		fmt.Fprintf(w, "%6.1f MB pair: parse both %8.1f ms | diff vigil %8.1f ms (%.2fx parse) | diff xydiff %8.1f ms (%.2fx parse) | vigil/xydiff %.2f\n",
			float64(inputs[k])/2/(1<<20), ms2(best(samples[k], parseOf)), ms2(best(samples[k], vigilOf)), ratio(k, vigilOf, parseOf),
			ms2(best(samples[k], xydiffOf)), ratio(k, xydiffOf, parseOf), ratio(k, vigilOf, xydiffOf))
	}
	growth := medianRatio(*runs, func(r int) time.Duration { return samples[1][r].vigil }, func(r int) time.Duration { return samples[0][r].vigil })
	fmt.Fprintf(w, "linear growth: diff of the %s pair takes %.2fx the %s pair (target <= 12; sizes differ by 10x)\n",
		sizeName(*large), growth, sizeName(small))
	fmt.Fprintf(w, "speed bar: vigil diff of the large pair takes %.2fx the time to parse both (target < 2)\n", ratio(1, vigilOf, parseOf))
	fmt.Fprintf(w, "default vs plain xydiff: %.2fx on the small pair, %.2fx on the large one (target <= 1.5)\n",
		ratio(0, vigilOf, xydiffOf), ratio(1, vigilOf, xydiffOf))
	// A large diff whose memory the runtime gave back to the OS while the
	// small pair ran faults it in again: 7 400 faults added some 100 ms
	// to a 200 ms diff on one build machine, and so to its run's ratio
	// (BENCHMARKS.md, session 46).
	fmt.Fprintf(w, "page faults of the vigil diffs, run by run: %v on the small pair, %v on the large one\n",
		faultsOf(samples[0]), faultsOf(samples[1]))
	w.Flush()
	if !*memory {
		return exitOK, nil
	}
	// The same pairs, each parsed and diffed once in a process of its own,
	// as vigil diff runs: there every diff finds its memory new, where in
	// the runs above the small diff reuses what the large one left.
	var fresh [2][]time.Duration
	var rss int64
	for r := 0; r < *runs; r++ {
		for k := range pairs {
			if err := ctx.Err(); err != nil {
				return exitError, errInterrupted
			}
			peak, d, err := runFreshDiff(ctx, pairs[k], *procs)
			if err != nil {
				return exitError, err
			}
			fresh[k] = append(fresh[k], d)
			if k == 1 {
				rss = max(rss, peak)
			}
		}
	}
	fmt.Fprintf(w, "in fresh processes (one parse and diff each, as vigil diff runs): diff of the %s pair takes %.2fx the %s pair\n",
		sizeName(*large), medianRatio(*runs, func(r int) time.Duration { return fresh[1][r] }, func(r int) time.Duration { return fresh[0][r] }), sizeName(small))
	if rss > 0 {
		fmt.Fprintf(w, "peak memory of one parse and diff, in a fresh process: %.0f MB for %.1f MB of input (%.1fx; target < 10x)\n",
			float64(rss)/(1<<20), float64(inputs[1])/(1<<20), float64(rss)/float64(inputs[1]))
	}
	return exitOK, nil
}

// runFreshDiff runs "vigil bench diff-memory" on a pair in a child
// process and returns its peak resident size, which counts one parse and
// one diff, not the generation or the timed runs, and the CPU time of its
// diff, measured with GOMAXPROCS procs as the runs in one process are.
func runFreshDiff(ctx context.Context, p pairFiles, procs int) (int64, time.Duration, error) {
	if testing.Testing() {
		// Inside a test binary, os.Executable is the test binary itself:
		// running it would run the tests again, recursively.
		return 0, 0, errors.New("the measures in child processes need the vigil binary, not a test binary (use --memory=false in tests)")
	}
	self, err := os.Executable()
	if err != nil {
		return 0, 0, err
	}
	out, err := freshDiffCommand(ctx, self, p, procs).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) && len(ee.Stderr) > 0 {
			return 0, 0, fmt.Errorf("bench diff-memory: %w: %s", err, strings.TrimSpace(string(ee.Stderr)))
		}
		return 0, 0, fmt.Errorf("bench diff-memory: %w", err)
	}
	var rss, ns int64
	if _, err := fmt.Sscan(string(out), &rss, &ns); err != nil {
		return 0, 0, fmt.Errorf("bench diff-memory: output %q: %w", out, err)
	}
	return rss, time.Duration(ns), nil
}

// freshDiffCommand is the child process of runFreshDiff: self (the vigil
// binary) running "bench diff-memory" on p with GOMAXPROCS procs, whatever
// the environment's, so that its diff's CPU time is taken as the runs in
// one process take theirs.
func freshDiffCommand(ctx context.Context, self string, p pairFiles, procs int) *exec.Cmd {
	cmd := exec.CommandContext(ctx, self, "bench", "diff-memory", p.old, p.new)
	cmd.Env = append(os.Environ(), fmt.Sprintf("GOMAXPROCS=%d", procs))
	return cmd
}

func runBenchDiffMemory(ctx context.Context, env *environment, args []string) (int, error) {
	if len(args) != 2 {
		fmt.Fprintln(env.stderr, "Usage: vigil bench diff-memory OLD NEW")
		if wantsHelp(args) {
			return exitOK, nil
		}
		return exitError, errUsageShown
	}
	// Read, parsed and diffed as vigil diff does, with its memory limit and
	// its heap in huge pages.
	flags := &docFlags{whitespace: "normalize", parse: "auto", maxBytes: markup.DefaultMaxBytes}
	reserveHugeHeap(sizeInputsReadingPipe(env, flags.maxBytes, args...))
	var docs [2]*tree.Flat
	var size int64
	for i, name := range args {
		doc, n, _, err := loadFlat(env, name, flags)
		if err != nil {
			return exitError, err
		}
		docs[i], size = doc, size+int64(n)
	}
	limitDiffMemory(size)
	// Timed as the runs in one process are: CPU time, after a collection.
	runtime.GC()
	start := cpuTime()
	if _, err := treediff.DiffFlat(docs[0], docs[1], nil); err != nil {
		return exitError, err
	}
	d := cpuTime() - start
	fmt.Fprintln(env.stdout, peakRSS(), d.Nanoseconds())
	return exitOK, nil
}

func ms2(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func ratioOf(a, b time.Duration) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func runBenchSimulate(ctx context.Context, env *environment, args []string) (int, error) {
	fs := newDescribedFlags(env, "bench simulate", "[flags] DIR",
		"Simulate writes to DIR a generated document (old.xml), a version of it\n"+
			"changed by the change simulator (new.xml) and the exact delta between\n"+
			"them (perfect.xml), which vigil patch applies to old.xml to give\n"+
			"new.xml, and prints the size of the document and of the delta.")
	shape := fs.String("shape", string(simulate.Records), "document shape: records, deep, flatlist or text")
	size := fs.Int("size", 100<<10, "approximate size of the document in bytes")
	rate := fs.Float64("rate", 0.1, "share of nodes changed, spread over the four kinds of change")
	del := fs.Float64("delete", -1, "delete probability; -1 for a quarter of --rate")
	upd := fs.Float64("update", -1, "update probability; -1 for a quarter of --rate")
	ins := fs.Float64("insert", -1, "insert probability; -1 for a quarter of --rate")
	mov := fs.Float64("move", -1, "move probability; -1 for a quarter of --rate")
	seed := fs.Uint64("seed", 1, "random seed; the same seed gives the same files")
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	if err := wantArgs(fs, 1); err != nil {
		return exitError, err
	}
	if *size < 1 {
		return exitError, fmt.Errorf("--size %d: want at least 1", *size)
	}
	if err := checkSimulation(*shape, *rate); err != nil {
		return exitError, err
	}
	rates := simulate.Spread(*rate)
	for _, f := range []struct {
		v   float64
		dst *float64
	}{{*del, &rates.Delete}, {*upd, &rates.Update}, {*ins, &rates.Insert}, {*mov, &rates.Move}} {
		if f.v >= 0 {
			*f.dst = f.v
		}
	}
	old, err := simulate.Generate(simulate.Shape(*shape), *size, *seed)
	if err != nil {
		return exitError, err
	}
	newDoc, perfect, err := simulate.Change(old, rates, *seed+1)
	if err != nil {
		return exitError, err
	}
	dir := fs.Arg(0)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return exitError, err
	}
	perfect.From, perfect.To = "old.xml", "new.xml"
	files := []struct {
		name  string
		write func(io.Writer) error
	}{
		{"old.xml", func(w io.Writer) error { return writeSimulated(w, old) }},
		{"new.xml", func(w io.Writer) error { return writeSimulated(w, newDoc) }},
		{"perfect.xml", func(w io.Writer) error { return delta.EncodeXML(w, perfect) }},
	}
	for _, f := range files {
		if err := createFile(filepath.Join(dir, f.name), f.write); err != nil {
			return exitError, err
		}
	}
	s := perfect.Stats()
	fmt.Fprintf(env.stdout, "wrote %s/{old,new,perfect}.xml: %d nodes; perfect delta: %d inserted, %d deleted, %d moved, %d updated, cost %d\n",
		dir, countNodes(old), s.Inserts, s.Deletes, s.Moves, s.Updates, perfect.Cost(1))
	return exitOK, nil
}

// writeSimulated writes a simulated document as XML, after an XML
// declaration: without one, vigil diff and patch read a document whose root
// is html (the text shape's) as HTML, whose parser rebuilds the misnested
// trees the simulator makes (a p moved into a p), so that old.xml, new.xml
// and perfect.xml no longer agree.
func writeSimulated(w io.Writer, d *tree.Document) error {
	if _, err := io.WriteString(w, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"); err != nil {
		return err
	}
	return markup.WriteXML(w, d, nil)
}

// checkSimulation refuses a shape or a rate of change the simulator does
// not take, by the flags' names, before anything is generated or measured.
func checkSimulation(shape string, rate float64) error {
	if !slices.Contains(simulate.Shapes, simulate.Shape(shape)) {
		return fmt.Errorf("--shape %q: want records, deep, flatlist or text", shape)
	}
	if !(rate >= 0 && rate <= 1) {
		return fmt.Errorf("--rate %v: want a share of nodes between 0 and 1", rate)
	}
	return nil
}

func countNodes(d *tree.Document) int { return d.Root.Size() }

// createFile writes a file through a buffer, reporting the first error.
func createFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(f)
	if err := write(bw); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}

// sizeName writes a document size in MB, or in KB below one MB: "10 MB",
// "100 KB".
func sizeName(n int) string {
	if n >= 1<<20 {
		return fmt.Sprintf("%g MB", math.Round(float64(n)/(1<<20)*10)/10)
	}
	return fmt.Sprintf("%g KB", math.Round(float64(n)/(1<<10)*10)/10)
}
