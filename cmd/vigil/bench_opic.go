package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/vigil-web/vigil/opic"
)

func init() {
	register(&command{
		name:    "bench opic",
		summary: "evaluate on-line page importance (OPIC) against PageRank",
		run:     runBenchOpic,
		// Computation alone, with nothing to clean up: Ctrl-C ends it at once.
		exitOnInterrupt: true,
	})
}

// The targets of issue 8, printed against the measures.
const (
	opicTargetTopError   = 0.05      // greedy, top 10 %, after 3 reads a page, 1 000 000 pages
	opicTargetReadsPage  = 3         // reads a page for the error target
	opicTargetPages      = 1_000_000 // graph size of the error target
	opicTargetStateBytes = 32        // per-page state
	opicTargetReadsSec   = 1_000_000 // simulated page reads a second, one core
	opicPageRankTol      = 1e-10     // L1 change at which the reference PageRank stops
)

// opicBench is the configuration of one run of the bench.
type opicBench struct {
	w           io.Writer
	pages       []int
	checkpoints []int
	alpha       float64
	seed        uint64
	site        string
	change      float64
	adaptPages  int
	static      int // passes before the change
	after       []int
}

func runBenchOpic(ctx context.Context, env *environment, args []string) (int, error) {
	fset := flag.NewFlagSet("bench opic", flag.ContinueOnError)
	fset.SetOutput(env.stderr)
	pages := fset.String("pages", "100000", "comma-separated sizes of the synthetic power-law graphs (e.g. 100000,1000000)")
	checkpoints := fset.String("reads", "1,2,3,5,10", "comma-separated reads a page at which errors are measured")
	alpha := fset.Float64("alpha", opic.DefaultAlpha, "share of cash sent to the virtual page (0.15 = PageRank damping 0.85)")
	seed := fset.Uint64("seed", 1, "seed of the graph generator and the Random policy")
	site := fset.String("site", "", "folder of a site with two releases (e.g. /work/shared/corpus/site-git-htmldocs)")
	change := fset.Float64("change", 0.1, "fraction of pages whose in-degree doubles or halves in the changing-graph run")
	adapt := fset.Int("adaptive-pages", 100000, "size of the graph of the changing-graph run (0 to skip it)")
	static := fset.Int("static-passes", 10, "passes over the graph before the change")
	after := fset.String("after", "1,2,4,6,10", "comma-separated passes after the change at which errors are measured")
	fset.Usage = func() {
		fmt.Fprintln(env.stderr, "Usage: vigil bench opic [flags]\n\nCompares OPIC's on-line estimates with the off-line PageRank on synthetic\npower-law graphs, on a changing graph, and on a real site's link graph.\n\nFlags:")
		fset.PrintDefaults()
	}
	if err := fset.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, nil
		}
		return exitError, errUsageShown
	}
	if fset.NArg() > 0 {
		fmt.Fprintf(env.stderr, "vigil bench opic: unexpected argument %q\n", fset.Arg(0))
		fset.Usage()
		return exitError, errUsageShown
	}
	b := &opicBench{w: env.stdout, alpha: *alpha, seed: *seed, site: *site, change: *change,
		adaptPages: *adapt, static: *static}
	var err error
	if b.pages, err = opicInts(*pages, 2); err != nil {
		return exitError, fmt.Errorf("--pages: %w", err)
	}
	if b.checkpoints, err = opicInts(*checkpoints, 1); err != nil {
		return exitError, fmt.Errorf("--reads: %w", err)
	}
	if b.after, err = opicInts(*after, 1); err != nil {
		return exitError, fmt.Errorf("--after: %w", err)
	}
	// Checked now, not by the library once the graphs are built.
	if !(*alpha >= 0 && *alpha < 1) {
		return exitError, fmt.Errorf("--alpha %v: want a share from 0 up to but not including 1", *alpha)
	}
	if !(*change >= 0 && *change <= 1) {
		return exitError, fmt.Errorf("--change %v: want a fraction between 0 and 1", *change)
	}
	if *adapt != 0 && *adapt < 2 || *static < 1 {
		return exitError, fmt.Errorf("--adaptive-pages must be 0 or at least 2, --static-passes at least 1")
	}
	if b.site != "" {
		// Checked now, not once the synthetic graphs, minutes long at
		// the default sizes, are measured.
		if _, err := opicReleases(b.site); err != nil {
			return exitError, err
		}
	}
	if err := b.run(ctx); err != nil {
		return exitError, err
	}
	return exitOK, nil
}

// opicInts parses a comma-separated list of integers >= lo, sorted.
func opicInts(s string, lo int) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		v, err := strconv.Atoi(f)
		if err != nil || v < lo {
			return nil, fmt.Errorf("%q: want integers >= %d", f, lo)
		}
		out = append(out, v)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("empty list")
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// opicSpeed accumulates simulated reads and the time they took.
type opicSpeed struct {
	reads     int
	cpu, wall time.Duration
}

func (s opicSpeed) perCPUSecond() float64 {
	if s.cpu <= 0 {
		return s.perWallSecond()
	}
	return float64(s.reads) / s.cpu.Seconds()
}

func (s opicSpeed) perWallSecond() float64 {
	if s.wall <= 0 {
		return 0
	}
	return float64(s.reads) / s.wall.Seconds()
}

// opicThreadCPU returns the CPU time of the calling OS thread (Linux), or
// -1 where it cannot be read. The simulation locks its goroutine to a
// thread, so this is the time of one core, whatever else the machine runs.
func opicThreadCPU() time.Duration {
	b, err := os.ReadFile("/proc/thread-self/stat")
	if err != nil {
		return -1
	}
	s := string(b)
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
	return time.Duration(u+k) * 10 * time.Millisecond // USER_HZ = 100
}

// opicSimulate reads `reads` pages chosen by pol on graph g, timing them.
func opicSimulate(o *opic.OPIC, pol opic.Policy, g opic.LinkGraph, reads int, sp *opicSpeed) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0, w0 := opicThreadCPU(), time.Now()
	for range reads {
		p, ok := pol.Next()
		if !ok {
			return fmt.Errorf("no live page to read")
		}
		if err := o.Read(p, g.Links(p)); err != nil {
			return err
		}
	}
	sp.wall += time.Since(w0)
	if c0 >= 0 {
		sp.cpu += opicThreadCPU() - c0
	}
	sp.reads += reads
	return nil
}

// opicPolicy returns the named crawl policy over o.
func opicPolicy(name string, o *opic.OPIC, seed uint64) opic.Policy {
	switch name {
	case "greedy":
		return opic.NewGreedy(o)
	case "random":
		return opic.NewRandom(o, seed)
	}
	return opic.NewCycle(o)
}

var opicPolicies = []string{"greedy", "cycle", "random"}

// opicErrors are the measures of an estimate against the reference.
type opicErrors struct {
	all, top, spearman float64
}

func opicMeasure(est, ref []float64, top []int, rank bool) opicErrors {
	e := opicErrors{all: opic.MeanRelativeError(est, ref), top: opic.SubsetRelativeError(est, ref, top)}
	if rank {
		e.spearman = opic.Spearman(est, ref)
	}
	return e
}

func (b *opicBench) printf(format string, args ...any) { fmt.Fprintf(b.w, format, args...) }

func (b *opicBench) run(ctx context.Context) error {
	b.printf("opic bench: alpha %g, seed %d, %s %s/%s, %d CPUs, %s\n", b.alpha, b.seed, runtime.Version(),
		runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), time.Now().UTC().Format("2006-01-02"))
	b.printf("errors are mean relative errors against PageRank (damping %.2f) over all pages and over the top 10 %%;\n", 1-b.alpha)
	b.printf("spearman is the rank correlation over all pages. OPIC estimates, normalised over the real pages: (H+C-C0)/Z,\n")
	b.printf("the history moved one step along the links (Lemma 7.3.3), and the seed's (H+C)/(Z+1) (the same ranks: C0 is uniform).\n")
	var speeds map[string]*opicSpeed // on the largest graph
	speedPages := 0
	targetTop, targetSeedTop := -1.0, -1.0
	targetTopPages := 0
	for _, n := range b.pages {
		if err := ctx.Err(); err != nil {
			return err
		}
		speeds, speedPages = map[string]*opicSpeed{}, n
		top, seedTop, err := b.synthetic(n, speeds)
		if err != nil {
			return err
		}
		if n >= targetTopPages && top >= 0 {
			targetTop, targetSeedTop, targetTopPages = top, seedTop, n
		}
	}
	if b.adaptPages > 0 {
		if err := ctx.Err(); err != nil {
			return err
		}
		g, err := opic.PowerLaw(b.adaptPages, opic.InDegreeExponent, b.seed)
		if err != nil {
			return err
		}
		g2, changed, err := opic.Rewire(g, b.change, b.seed+1)
		if err != nil {
			return err
		}
		b.printf("\n== changing graph: powerlaw-%d, greedy, %d passes, then %.0f %% of pages (%d) get their in-degree doubled or halved\n",
			b.adaptPages, b.static, 100*b.change, len(changed))
		if err := b.adaptive(ctx, g, g2, nil); err != nil {
			return err
		}
	}
	if b.site != "" {
		if err := b.siteBench(ctx); err != nil {
			return err
		}
	}
	b.targets(targetTop, targetSeedTop, targetTopPages, speeds, speedPages)
	return nil
}

// synthetic runs the policies on a power-law graph of n pages and returns
// greedy's top-10 % errors at opicTargetReadsPage reads a page, with
// (H+C-C0)/Z and with (H+C)/(Z+1) (-1 if not measured).
func (b *opicBench) synthetic(n int, speeds map[string]*opicSpeed) (float64, float64, error) {
	start := time.Now()
	g, err := opic.PowerLaw(n, opic.InDegreeExponent, b.seed)
	if err != nil {
		return 0, 0, err
	}
	name := fmt.Sprintf("powerlaw-%d", n)
	b.printf("\n== graph %s: %d pages, %d links, %d dangling, in-degree exponent %g (built in %s)\n",
		name, g.Len(), g.Edges(), g.Dangling(), opic.InDegreeExponent, time.Since(start).Round(time.Millisecond))
	return b.policies(name, g, speeds)
}

// policies runs every crawl policy and the off-line iteration on g and
// prints the error table.
func (b *opicBench) policies(name string, g *opic.Graph, speeds map[string]*opicSpeed) (float64, float64, error) {
	start := time.Now()
	ref, iters, err := opic.PageRank(g, b.alpha, opicPageRankTol, 1000)
	if err != nil {
		return 0, 0, err
	}
	b.printf("pagerank of %s: %d iterations to an L1 change below %g (%s)\n", name, iters, opicPageRankTol, time.Since(start).Round(time.Millisecond))
	top := opic.TopPages(ref, 0.1)
	tw := tabwriter.NewWriter(b.w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "reads/page\tpolicy\terr all %%\terr top10 %%\tspearman\t(H+C)/(Z+1): all %%\ttop10 %%\tZ/pass\t\n")
	greedyTop, greedySeedTop := -1.0, -1.0
	var est, seedEst []float64
	for _, pol := range opicPolicies {
		o, err := opic.New(g.Len(), opic.Config{Alpha: b.alpha})
		if err != nil {
			return 0, 0, err
		}
		p := opicPolicy(pol, o, b.seed)
		sp := speeds[pol]
		if sp == nil {
			sp = &opicSpeed{}
			speeds[pol] = sp
		}
		done := 0
		for _, k := range b.checkpoints {
			if err := opicSimulate(o, p, g, (k-done)*g.Len(), sp); err != nil {
				return 0, 0, err
			}
			done = k
			est = o.Importances(est, opic.EstimatePropagated)
			e := opicMeasure(est, ref, top, true)
			seedEst = o.Importances(seedEst, opic.EstimateSeed)
			es := opicMeasure(seedEst, ref, top, false)
			fmt.Fprintf(tw, "%d\t%s\t%.2f\t%.2f\t%.4f\t%.2f\t%.2f\t%.3f\t\n", k, pol, 100*e.all, 100*e.top, e.spearman,
				100*es.all, 100*es.top, o.Z()/float64(k))
			if pol == "greedy" && k == opicTargetReadsPage {
				greedyTop, greedySeedTop = e.top, es.top
			}
		}
	}
	// The off-line computation, charged n reads an iteration (seed §7.6.2).
	x := make([]float64, g.Len())
	next := make([]float64, g.Len())
	for i := range x {
		x[i] = 1 / float64(len(x))
	}
	done := 0
	for _, k := range b.checkpoints {
		for ; done < k; done++ {
			opic.PowerStep(g, b.alpha, x, next)
			x, next = next, x
		}
		e := opicMeasure(x, ref, top, true)
		fmt.Fprintf(tw, "%d\t%s\t%.2f\t%.2f\t%.4f\t\t\t\t\n", k, "offline", 100*e.all, 100*e.top, e.spearman)
	}
	tw.Flush()
	return greedyTop, greedySeedTop, nil
}

// opicHistory is one history policy of the changing-graph run; window
// sizes are in passes over the graph and become Z units once the Z a pass
// is known.
type opicHistory struct {
	name   string
	make   func(zPass float64) opic.History
	passes float64 // window in passes (0: none)
}

func opicHistories() []opicHistory {
	interp := func(p float64) opicHistory {
		return opicHistory{fmt.Sprintf("interpolation %g passes", p), func(z float64) opic.History {
			return opic.Interpolation{Window: p * z}
		}, p}
	}
	variable := func(k int) opicHistory {
		return opicHistory{fmt.Sprintf("variable window %d measures", k), func(float64) opic.History {
			return opic.VariableWindow{K: k}
		}, 0}
	}
	fixed := func(p float64, m int) opicHistory {
		name := fmt.Sprintf("fixed window %g passes", p)
		if m > 0 {
			name = fmt.Sprintf("improved fixed window %g passes, min %d", p, m)
		}
		return opicHistory{name, func(z float64) opic.History { return opic.FixedWindow{Window: p * z, Min: m} }, p}
	}
	return []opicHistory{
		{"cumulative (static OPIC)", func(float64) opic.History { return opic.Cumulative{} }, 0},
		interp(2), interp(4), interp(8),
		variable(4), variable(8), variable(16),
		fixed(8, 0), fixed(4, 3),
	}
}

// adaptive runs greedy OPIC with every history policy on g for b.static
// passes, switches to g2 and measures how fast each follows. remap, when
// given, maps the pages of g and g2 by name (pages of g2 not in g are added
// when first linked); otherwise both graphs share ids.
func (b *opicBench) adaptive(ctx context.Context, g, g2 *opic.Graph, remap *opicRemap) error {
	ref1, _, err := opic.PageRank(g, b.alpha, opicPageRankTol, 1000)
	if err != nil {
		return err
	}
	ref2, _, err := opic.PageRank(g2, b.alpha, opicPageRankTol, 1000)
	if err != nil {
		return err
	}
	top1, top2 := opic.TopPages(ref1, 0.1), opic.TopPages(ref2, 0.1)
	b.printf("the old and new PageRank differ by %.2f %% (all) and %.2f %% (top 10 %%): the error of not following at all\n",
		100*opic.MeanRelativeError(ref1, ref2), 100*opic.SubsetRelativeError(ref1, ref2, top2))
	tw := tabwriter.NewWriter(b.w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "history\tmeasures/page\tstatic all %%\tstatic top10 %%\t")
	for _, k := range b.after {
		fmt.Fprintf(tw, "+%d all/top10 %%\t", k)
	}
	fmt.Fprintf(tw, "passes to top10 <= %.0f %%\t\n", 100*opicTargetTopError)
	zPass := 0.0
	var est []float64
	for _, h := range opicHistories() {
		if err := ctx.Err(); err != nil {
			return err
		}
		hist := h.make(zPass)
		if h.passes > 0 && zPass == 0 {
			return fmt.Errorf("window in passes before Z a pass is known")
		}
		o, err := opic.New(g.Len(), opic.Config{Alpha: b.alpha, History: hist})
		if err != nil {
			return err
		}
		pol := opic.NewGreedy(o)
		var sp opicSpeed
		if err := opicSimulate(o, pol, g, b.static*g.Len(), &sp); err != nil {
			return err
		}
		if zPass == 0 {
			zPass = o.Z() / float64(b.static)
		}
		est = o.Importances(est, opic.EstimatePropagated)
		st := opicMeasure(est, ref1, top1, false)
		label := h.name
		if h.passes > 0 {
			label = fmt.Sprintf("%s (T=%.3g Z)", h.name, h.passes*zPass)
		}
		fmt.Fprintf(tw, "%s\t%.1f\t%.2f\t%.2f\t", label, o.Measures(), 100*st.all, 100*st.top)
		var cur opic.LinkGraph = g2
		if remap != nil {
			cur = remap.bind(o)
		}
		done, follow := 0, ""
		for _, k := range b.after {
			if err := opicSimulate(o, pol, cur, (k-done)*g2.Len(), &sp); err != nil {
				return err
			}
			done = k
			est = o.Importances(est, opic.EstimatePropagated)
			if remap != nil {
				est = remap.project(est)
			}
			e := opicMeasure(est, ref2, top2, false)
			fmt.Fprintf(tw, "%.2f/%.2f\t", 100*e.all, 100*e.top)
			if follow == "" && e.top <= opicTargetTopError {
				follow = strconv.Itoa(k)
			}
		}
		if follow == "" {
			follow = fmt.Sprintf("> %d", done)
		}
		fmt.Fprintf(tw, "%s\t\n", follow)
	}
	tw.Flush()
	b.printf("Z grows by %.3f a pass with greedy. Estimates: (H+C-C0)/Z for cumulative history, the as-of-now estimate of the\n", zPass)
	b.printf("others. Window policies other than interpolation keep several measures a page and are for comparison only.\n")
	return nil
}

// targets prints the measures against the targets of the issue.
func (b *opicBench) targets(top, seedTop float64, topPages int, speeds map[string]*opicSpeed, speedPages int) {
	b.printf("\n== targets\n")
	switch {
	case top < 0:
		b.printf("target greedy top-10%% error after %d reads/page: not measured (add %d to --reads)\n", opicTargetReadsPage, opicTargetReadsPage)
	case topPages < opicTargetPages:
		b.printf("target greedy top-10%% error after %d reads/page on %d pages: %.2f %% with (H+C-C0)/Z, %.2f %% with (H+C)/(Z+1), measured on %d pages only (run with --pages %d) (target <= %.0f %%)\n",
			opicTargetReadsPage, opicTargetPages, 100*top, 100*seedTop, topPages, opicTargetPages, 100*opicTargetTopError)
	default:
		b.printf("target greedy top-10%% error after %d reads/page on %d pages: %.2f %% with (H+C-C0)/Z (target <= %.0f %%): %s; the seed's (H+C)/(Z+1): %.2f %%: %s\n",
			opicTargetReadsPage, topPages, 100*top, 100*opicTargetTopError, opicVerdict(top <= opicTargetTopError),
			100*seedTop, opicVerdict(seedTop <= opicTargetTopError))
	}
	mem, enc := opicStateBytes()
	b.printf("target per-page state: %d B in memory, at most %d B with the greedy heap, %d B encoded (target <= %d B): %s\n",
		mem, mem+8, enc, opicTargetStateBytes, opicVerdict(mem+8 <= opicTargetStateBytes && enc <= opicTargetStateBytes))
	for _, pol := range opicPolicies {
		sp := speeds[pol]
		if sp == nil || sp.reads == 0 {
			continue
		}
		b.printf("target simulated page reads/s on one core, %s on %d pages: %.2fM reads per CPU second (%.2fM per wall second, %d reads) (target >= %.0fM): %s\n",
			pol, speedPages, sp.perCPUSecond()/1e6, sp.perWallSecond()/1e6, sp.reads, opicTargetReadsSec/1e6, opicVerdict(sp.perCPUSecond() >= opicTargetReadsSec))
	}
}

// opicStateBytes measures the per-page state: heap bytes of a 100 000-page
// state, and the encoded bytes a page. The heap is measured three times
// and the least kept: what other goroutines of the process allocate while
// it is measured (a test binary runs daemons beside it) can only add.
func opicStateBytes() (mem, enc int) {
	const n = 100_000
	mem = -1
	var o *opic.OPIC
	for range 3 {
		var before, after runtime.MemStats
		o = nil // the last try's state is not counted in before
		runtime.GC()
		runtime.ReadMemStats(&before)
		o, _ = opic.New(n, opic.Config{Alpha: opic.DefaultAlpha})
		runtime.GC()
		runtime.ReadMemStats(&after)
		m := int((int64(after.HeapAlloc) - int64(before.HeapAlloc) + n/2) / n)
		if mem < 0 || m < mem {
			mem = m
		}
		runtime.KeepAlive(o)
	}
	var buf bytes.Buffer
	o.WriteTo(&buf)
	return mem, (buf.Len() - opic.EncodedSize(0) + n/2) / n
}

func opicVerdict(ok bool) string {
	if ok {
		return "PASS"
	}
	return "MISSED"
}
