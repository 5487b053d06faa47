package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/monitor"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/spec"
)

func init() {
	register(&command{
		name:    "bench monitor",
		summary: "measure vigil serve's pipeline: checks/s for unchanged pages (304 and 200) and changed pages, and memory a sentinel",
		run:     runBenchMonitor,
	})
}

// benchSite is the local web server of the benchmark: two releases of a
// site, served under /p/<i>/<page> for sentinel i.
type benchSite struct {
	a, b        map[string][]byte // release A and B by page name
	etagA       map[string]string
	etagB       map[string]string
	names       []string // the pages that differ between A and B
	release     atomic.Int32
	conditional atomic.Bool
}

func (s *benchSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.Path, "/p/")
	if !ok {
		http.NotFound(w, r)
		return
	}
	_, name, _ := strings.Cut(rest, "/")
	pages, etags := s.a, s.etagA
	if s.release.Load() == 1 {
		pages, etags = s.b, s.etagB
	}
	body, ok := pages[name]
	if !ok {
		http.NotFound(w, r)
		return
	}
	if s.conditional.Load() {
		w.Header().Set("ETag", etags[name])
		if r.Header.Get("If-None-Match") == etags[name] {
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	w.Write(body)
}

func etagOf(b []byte) string {
	h := sha256.Sum256(b)
	return `"` + hex.EncodeToString(h[:8]) + `"`
}

// loadReleases reads the HTML pages of two release directories and keeps
// those present in both that differ.
func loadReleases(dir string) (a, b map[string][]byte, err error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	var rels []string
	for _, e := range entries {
		if e.IsDir() {
			rels = append(rels, e.Name())
		}
	}
	sort.Strings(rels)
	if len(rels) < 2 {
		return nil, nil, fmt.Errorf("--site %s: want two release directories, found %v", dir, rels)
	}
	read := func(root string) (map[string][]byte, error) {
		out := map[string][]byte{}
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".html") {
				return err
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(root, path)
			out[strings.ReplaceAll(rel, string(filepath.Separator), "_")] = b
			return nil
		})
		return out, err
	}
	if a, err = read(filepath.Join(dir, rels[0])); err != nil {
		return nil, nil, err
	}
	if b, err = read(filepath.Join(dir, rels[1])); err != nil {
		return nil, nil, err
	}
	return a, b, nil
}

// syntheticReleases generates n pages of about size bytes and a second
// release in which every page has a few edits (a word changed, a list item
// added, a link changed).
func syntheticReleases(n, size int, seed uint64) (a, b map[string][]byte) {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	words := strings.Fields("monitor change version page delta sentinel notify fetch schedule keyword phrase table list link image " +
		"warehouse store diff tree node insert delete update move release history archive crawl importance")
	a, b = map[string][]byte{}, map[string][]byte{}
	for i := range n {
		var pa, pb bytes.Buffer
		head := fmt.Sprintf("<!DOCTYPE html><html><head><title>Page %d</title></head><body><h1>Page %d</h1>\n", i, i)
		pa.WriteString(head)
		pb.WriteString(head)
		for p := 0; pa.Len() < size; p++ {
			var para strings.Builder
			for range 12 + rng.IntN(20) {
				para.WriteString(words[rng.IntN(len(words))])
				para.WriteByte(' ')
			}
			line := fmt.Sprintf("<p id=\"p%d\">%s<a href=\"/doc/%d.html\">see %d</a></p>\n", p, para.String(), rng.IntN(500), p)
			pa.WriteString(line)
			switch {
			case p%9 == 4:
				pb.WriteString(strings.Replace(line, "see", "read", 1))
			case p%13 == 6:
				pb.WriteString(line + "<ul><li>new item " + strconv.Itoa(p) + "</li></ul>\n")
			default:
				pb.WriteString(line)
			}
		}
		pa.WriteString("</body></html>\n")
		pb.WriteString("<p>Last updated " + strconv.Itoa(i) + "</p></body></html>\n")
		name := fmt.Sprintf("page%03d.html", i)
		a[name], b[name] = pa.Bytes(), pb.Bytes()
	}
	return a, b
}

func runBenchMonitor(ctx context.Context, env *environment, args []string) (int, error) {
	fs := newDescribedFlags(env, "bench monitor", "[flags]",
		"Bench monitor measures vigil serve's pipeline against a loopback server\n"+
			"of a site (--site, or a synthetic one): checks per second for unchanged\n"+
			"pages (answered 304, and 200) and for changed pages, and the memory a\n"+
			"sentinel takes.")
	site := fs.String("site", "", "directory with two release directories of a site (e.g. /work/shared/corpus/site-git-htmldocs); default: a synthetic site")
	pages := fs.Int("pages", 64, "synthetic site: number of pages")
	size := fs.Int("size", 8000, "synthetic site: page size in bytes")
	n := fs.Int("sentinels", 2000, "sentinels in the timed rounds, each on its own URL")
	memN := fs.Int("memory-sentinels", 100_000, "sentinels for the memory measure (0 skips it)")
	workers := fs.Int("workers", 16, "pages fetched and compared at once")
	batch := fs.Int("batch", 256, "sentinels claimed at a time")
	dataDir := fs.String("data", "", "data directory (default: a temporary one, removed afterwards)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the timed rounds to this file")
	memProfile := fs.String("memprofile", "", "write a heap profile at the peak of the memory round to this file")
	if help, err := parseFlags(fs, args); help || err != nil {
		return exitOK, err
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"pages", *pages}, {"size", *size}, {"sentinels", *n}, {"workers", *workers}, {"batch", *batch}} {
		if f.v < 1 {
			// The monitor would take 0 workers or batch for its default.
			return exitError, fmt.Errorf("--%s %d: want at least 1", f.name, f.v)
		}
	}
	if *memN < 0 {
		return exitError, fmt.Errorf("--memory-sentinels %d: want 0 (skip the measure) or more", *memN)
	}
	var relA, relB map[string][]byte
	var err error
	what := ""
	if *site != "" {
		if relA, relB, err = loadReleases(*site); err != nil {
			return exitError, err
		}
		what = "site " + *site
	} else {
		relA, relB = syntheticReleases(*pages, *size, 1)
		what = fmt.Sprintf("synthetic site, %d pages of %d bytes", *pages, *size)
	}
	srv := &benchSite{a: relA, b: relB, etagA: map[string]string{}, etagB: map[string]string{}}
	var bytesA int
	for name, body := range relA {
		srv.etagA[name] = etagOf(body)
		if nb, ok := relB[name]; ok {
			srv.etagB[name] = etagOf(nb)
			if !bytes.Equal(body, nb) {
				srv.names = append(srv.names, name)
				bytesA += len(body)
			}
		}
	}
	sort.Strings(srv.names)
	if len(srv.names) == 0 {
		return exitError, fmt.Errorf("the two releases have no changed page in common")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return exitError, err
	}
	hs := &http.Server{Handler: srv}
	go hs.Serve(ln)
	defer hs.Close()
	base := "http://" + ln.Addr().String()

	dir := *dataDir
	if dir == "" {
		if dir, err = os.MkdirTemp("", "vigil-bench-monitor"); err != nil {
			return exitError, err
		}
		defer os.RemoveAll(dir)
	}
	w := bufio.NewWriter(env.stdout)
	defer w.Flush()
	fmt.Fprintf(w, "vigil bench monitor: %s; %d changed pages (mean %d bytes); %d sentinels, each on its own URL; %d workers; SQLite; GOMAXPROCS %d\n",
		what, len(srv.names), bytesA/len(srv.names), *n, *workers, runtime.GOMAXPROCS(0))
	w.Flush()

	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		return exitError, err
	}
	defer db.Close()
	wh, err := monitorWarehouse(db, warehouse.Options{})
	if err != nil {
		return exitError, err
	}
	if err := benchAddSentinels(ctx, db, base, srv.names, 0, *n); err != nil {
		return exitError, err
	}
	clock := &benchClock{t: time.Now()}
	fetcher := fetch.New(fetch.Options{AllowPrivateNetworks: true, HostConcurrency: *workers, HostDelay: 0, TotalTimeout: 30 * time.Second})
	mon := &monitor.Monitor{
		Store: db, Warehouse: wh, Fetcher: fetcher, Logger: slog.New(slog.DiscardHandler),
		Policy: schedule.Policy{MinInterval: time.Second}, Batch: *batch, Workers: *workers, Now: clock.now,
	}
	var committed atomic.Int64
	mon.Committed = func(k int) { committed.Add(int64(k)) }
	// A round runs the monitor as vigil serve does (Monitor.Run: claims,
	// page groups on the workers, a committer writing check records in
	// groups) until every sentinel was checked once.
	round := func(name string) (float64, error) {
		clock.advance(time.Hour) // every sentinel falls due
		committed.Store(0)
		start := time.Now()
		cpu0 := cpuTime()
		rctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() { mon.Run(rctx, 2*time.Millisecond, nil); close(done) }()
		for committed.Load() < int64(*n) && ctx.Err() == nil {
			time.Sleep(time.Millisecond)
		}
		el := time.Since(start)
		cancel()
		<-done
		total := int(committed.Load())
		if total < *n {
			return 0, fmt.Errorf("round %s: %d of %d sentinels checked", name, total, *n)
		}
		cpu := cpuTime() - cpu0
		rate := float64(total) / el.Seconds()
		perCheck := float64(cpu.Microseconds()) / float64(max(total, 1))
		capacity := float64(runtime.GOMAXPROCS(0)) * 1e6 / max(perCheck, 1)
		fmt.Fprintf(w, "%-34s %7d checks in %6.2fs: %7.0f checks/s wall, %5.0f µs CPU a check = %6.0f checks/s on %d idle cores; load %s\n",
			name, total, el.Seconds(), rate, perCheck, capacity, runtime.GOMAXPROCS(0), loadAverage())
		w.Flush()
		return rate, nil
	}
	srv.conditional.Store(true)
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return exitError, err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return exitError, err
		}
		defer f.Close()
		defer pprof.StopCPUProfile()
	}
	if _, err := round("first sighting (release A, stored)"); err != nil {
		return exitError, err
	}
	r304, err := round("unchanged, answered 304")
	if err != nil {
		return exitError, err
	}
	srv.conditional.Store(false)
	r200, err := round("unchanged, answered 200")
	if err != nil {
		return exitError, err
	}
	srv.release.Store(1)
	rChanged, err := round("changed (release B): full path")
	if err != nil {
		return exitError, err
	}
	changes, _, err := db.FindChanges(ctx, vigil.ChangeFilter{Limit: 1})
	if err != nil {
		return exitError, err
	}
	_, nChanges, _ := db.FindChanges(ctx, vigil.ChangeFilter{})
	_, nOutbox, _ := db.FindNotifications(ctx, vigil.NotificationFilter{})
	fmt.Fprintf(w, "changed round: %d change records, %d outbox entries", nChanges, nOutbox)
	if len(changes) > 0 {
		fmt.Fprintf(w, " (e.g. %q)", changes[0].Summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "targets (wall clock): changed >= 1000 checks/s: %s (%.0f); unchanged >= 5000 checks/s: 304 %s (%.0f), 200 %s (%.0f)\n",
		targetVerdict(rChanged >= 1000), rChanged, targetVerdict(r304 >= 5000), r304, targetVerdict(r200 >= 5000), r200)
	w.Flush()

	if *memN > 0 {
		if err := benchMemory(ctx, w, db, wh, base, srv, *memN, *n, *workers, *batch, clock, *memProfile); err != nil {
			return exitError, err
		}
	}
	return exitOK, nil
}

// loadAverage returns the 1-minute load average from /proc/loadavg.
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}

func targetVerdict(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT met"
}

// benchMemory adds sentinels up to total and runs one round of 304 checks
// over all of them, measuring the heap the monitor keeps and the peak
// resident size of the process, per sentinel.
func benchMemory(ctx context.Context, w *bufio.Writer, db *sqlite.DB, wh *warehouse.Warehouse, base string, srv *benchSite,
	total, have, workers, batch int, clock *benchClock, memProfile string) error {
	srv.release.Store(0)
	srv.conditional.Store(true)
	start := time.Now()
	if err := benchAddSentinels(ctx, db, base, srv.names, have, total); err != nil {
		return err
	}
	fmt.Fprintf(w, "memory: %d sentinels added in %.1fs\n", total-have, time.Since(start).Seconds())
	w.Flush()
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	fetcher := fetch.New(fetch.Options{AllowPrivateNetworks: true, HostConcurrency: workers, TotalTimeout: 30 * time.Second})
	mon := &monitor.Monitor{
		Store: db, Warehouse: wh, Fetcher: fetcher, Logger: slog.New(slog.DiscardHandler),
		Policy: schedule.Policy{MinInterval: time.Second}, Batch: batch, Workers: workers, Now: clock.now,
	}
	clock.advance(time.Hour)
	var peakHeap uint64
	checked := 0
	t0 := time.Now()
	for {
		k, err := mon.RunOnce(ctx)
		if err != nil {
			return err
		}
		if k == 0 {
			break
		}
		checked += k
		if checked%(batch*16) < batch {
			// Sample the live heap (after a collection) every 16 batches.
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peakHeap && memProfile != "" {
				if f, err := os.Create(memProfile); err == nil {
					pprof.WriteHeapProfile(f)
					f.Close()
				}
			}
			peakHeap = max(peakHeap, m.HeapAlloc)
		}
	}
	el := time.Since(t0)
	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	retained := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	hwm := processPeakRSS()
	fmt.Fprintf(w, "memory: %d sentinels checked (first sighting, then stored) in %.1fs (%.0f checks/s)\n", checked, el.Seconds(), float64(checked)/el.Seconds())
	fmt.Fprintf(w, "memory: heap kept after the round %.0f B a sentinel; peak live heap during the round %.0f MB (%.0f B a sentinel); peak RSS of the whole process %.0f MB (%.0f B a sentinel)\n",
		float64(retained)/float64(total), float64(peakHeap)/1e6, float64(peakHeap)/float64(total), float64(hwm)/1e6, float64(hwm)/float64(total))
	fmt.Fprintf(w, "target: at most 4 KB a sentinel at %d sentinels (peak RSS): %s\n", total, targetVerdict(hwm/int64(total) <= 4096))
	return nil
}

// benchAddSentinels creates sentinels from..to-1, sentinel i on
// /p/<i>/<page i mod len(pages)>, watching any change, notifying a webhook
// immediately.
func benchAddSentinels(ctx context.Context, db *sqlite.DB, base string, pages []string, from, to int) error {
	u, err := ensureOwner(ctx, db, "bench@example.test")
	if err != nil {
		return err
	}
	now := time.Now().UTC()
	c := spec.NewChecker(now)
	for i := from; i < to; i++ {
		src := fmt.Sprintf("Create Sentinel b%d Using %s/p/%d/%s Monitor any change Fetch 1 second From Now To Now + 52 week Notify By webhook http://127.0.0.1:9/hook Every immediate\n",
			i, base, i, pages[i%len(pages)])
		s, err := spec.ParseSentinel("", []byte(src))
		if err != nil {
			return err
		}
		ch, err := c.Check(s)
		if err != nil {
			return err
		}
		js, err := ch.MarshalJSON()
		if err != nil {
			return err
		}
		sen := &vigil.Sentinel{OwnerID: u.ID, Name: s.Name.Name, Source: src, Spec: js, Status: vigil.SentinelActive, NextCheck: now}
		if err := db.CreateSentinel(ctx, sen); err != nil {
			return err
		}
	}
	return nil
}

type benchClock struct {
	mu atomic.Int64
	t  time.Time
}

func (c *benchClock) now() time.Time { return c.t.Add(time.Duration(c.mu.Load())) }

func (c *benchClock) advance(d time.Duration) { c.mu.Add(int64(d)) }

// processPeakRSS returns the process's peak resident set size in bytes (VmHWM),
// or 0 where /proc is not available.
func processPeakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			f := strings.Fields(rest)
			if len(f) > 0 {
				kb, _ := strconv.ParseInt(f[0], 10, 64)
				return kb * 1024
			}
		}
	}
	return 0
}
