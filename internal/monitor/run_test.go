package monitor

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/internal/zstd"
	"github.com/vigil-web/vigil/spec"
)

// gatedFetcher serves one page whose body the test sets; while a gate is
// armed, each fetch reports that it started and waits for the gate.
type gatedFetcher struct {
	mu      sync.Mutex
	body    string
	gate    chan struct{}
	started chan struct{}
}

func (f *gatedFetcher) set(body string, gate chan struct{}) {
	f.mu.Lock()
	f.body, f.gate = body, gate
	f.mu.Unlock()
}

func (f *gatedFetcher) Fetch(ctx context.Context, req *vigil.FetchRequest) (*vigil.FetchResult, error) {
	f.mu.Lock()
	gate := f.gate
	f.mu.Unlock()
	if gate != nil {
		f.started <- struct{}{}
		select {
		case <-gate:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	f.mu.Lock()
	body := f.body
	f.mu.Unlock()
	return &vigil.FetchResult{URL: req.URL, Status: 200, ContentType: "text/html", Charset: "utf-8",
		Body: []byte(body), FetchedAt: time.Now()}, nil
}

// TestRunChecksSentinelOnceAtATime is the regression test of a flaky
// TestWebAPI: "check now" while the sentinel's previous check was still in
// flight (a loaded machine) made Run claim it again and check it twice at
// once on the same committed state. Both checks fetched the new content,
// stored it twice (two versions, same body) and reported the change twice,
// each against the stale reference. A sentinel claimed while its check is
// in flight must wait for that check's commit, then be checked on the new
// state.
func TestRunChecksSentinelOnceAtATime(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	now := time.Now().UTC()
	src := "Create Sentinel news Using http://example.test/news Monitor any change Fetch 1 hour\n"
	sen := createSentinel(t, db, spec.NewChecker(now), u, "news", src)

	const (
		bridge = `<html><body><h1>News</h1><p>The bridge opened.</p></body></html>`
		river  = `<html><body><h1>News</h1><p>The bridge opened.</p><p>The river rose by two metres.</p></body></html>`
	)
	f := &gatedFetcher{body: bridge, started: make(chan struct{}, 16)}
	var committed atomic.Int64
	m := &Monitor{Store: db, Warehouse: wh, Fetcher: f, Policy: schedule.Policy{MinInterval: time.Minute},
		Committed: func(n int) { committed.Add(int64(n)) }}
	kick := make(chan struct{}, 1)
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { m.Run(rctx, 5*time.Millisecond, kick); close(done) }()
	defer func() { cancel(); <-done }()

	wait := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(2 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
		}
	}
	// What the web API's check-now does.
	checkNow := func() {
		t.Helper()
		s, err := db.FindSentinelByID(ctx, sen.ID)
		if err != nil {
			t.Fatal(err)
		}
		s.NextCheck = time.Now().UTC()
		if err := db.UpdateSentinel(ctx, s); err != nil {
			t.Fatal(err)
		}
		select {
		case kick <- struct{}{}:
		default:
		}
	}
	claimed := func() bool { // the claim moved the next check a lease ahead
		s, err := db.FindSentinelByID(ctx, sen.ID)
		return err == nil && s.NextCheck.After(time.Now().Add(time.Minute))
	}

	wait("the first check", func() bool { return committed.Load() == 1 })

	// The page changes; the check is slow (held at its fetch) and the
	// user asks for a check again meanwhile.
	gate := make(chan struct{})
	f.set(river, gate)
	checkNow()
	<-f.started
	checkNow()
	wait("the second claim", claimed)
	select { // without the fix, the second check starts here
	case <-f.started:
	case <-time.After(300 * time.Millisecond):
	}
	f.set(river, nil)
	close(gate)
	wait("both checks", func() bool { return committed.Load() >= 3 })

	rid := int64(0)
	if r, err := db.FindResourceByURL(ctx, "http://example.test/news"); err != nil {
		t.Fatal(err)
	} else {
		rid = r.ID
	}
	vs, _, err := db.FindVersions(ctx, vigil.VersionFilter{ResourceID: rid})
	if err != nil {
		t.Fatal(err)
	}
	if len(vs) != 2 {
		t.Errorf("%d versions, want 2 (bridge, river): %+v", len(vs), vs)
	}
	changes, _, err := db.FindChanges(ctx, vigil.ChangeFilter{SentinelID: sen.ID})
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) != 1 {
		for _, c := range changes {
			t.Logf("change %d: %d -> %d %s", c.ID, c.FromVersion, c.ToVersion, c.Summary)
		}
		t.Fatalf("%d changes, want 1", len(changes))
	}
	if c := changes[0]; c.FromVersion != vs[0].ID || c.ToVersion != vs[len(vs)-1].ID {
		t.Errorf("change %d -> %d, want %d -> %d", c.FromVersion, c.ToVersion, vs[0].ID, vs[len(vs)-1].ID)
	}
}

// TestFetchPageTwoWorkers: two workers (monitors with their own page
// locks and warehouses) on one store that fetch the same new content of a
// page at once store it once, and both take that version as the page's.
func TestFetchPageTwoWorkers(t *testing.T) {
	ctx := context.Background()
	db, wh, _ := testStore(t)
	codec, err := zstd.New(0)
	if err != nil {
		t.Fatal(err)
	}
	wh2, err := warehouse.New(CachedResources(db), warehouse.Options{Codec: codec})
	if err != nil {
		t.Fatal(err)
	}
	const url = "http://example.test/news"
	gate := make(chan struct{})
	f := &gatedFetcher{body: `<html><body><p>The bridge opened.</p></body></html>`, gate: gate, started: make(chan struct{}, 2)}
	workers := []*Monitor{{Store: db, Warehouse: wh, Fetcher: f}, {Store: db, Warehouse: wh2, Fetcher: f}}
	pages := make(chan *page, 2)
	for _, m := range workers {
		m.init()
		go func() { pages <- m.fetchPage(ctx, url, false, time.Now()) }()
	}
	<-f.started
	<-f.started // both fetches are in flight, each worker having seen no version
	close(gate)
	p1, p2 := <-pages, <-pages
	if p1.cur == nil || p2.cur == nil {
		t.Fatalf("fetch failed: %q, %q", p1.err, p2.err)
	}
	if p1.cur.ID != p2.cur.ID {
		t.Errorf("the workers found versions %d and %d of one body, want one version", p1.cur.ID, p2.cur.ID)
	}
	if vs, _, err := db.FindVersions(ctx, vigil.VersionFilter{ResourceID: p1.resource}); err != nil || len(vs) != 1 {
		t.Errorf("%d versions stored (err %v), want 1", len(vs), err)
	}
}

// TestFetchPageOneAtATime is the regression test of another flaky
// TestWebAPI: two sentinels on one page, claimed in two batches, were
// checked at once. Both fetched the page against the head they had read
// before, and both stored its content: two versions of one body. The
// second check of a page waits for the first and finds its version.
func TestFetchPageOneAtATime(t *testing.T) {
	ctx := context.Background()
	db, wh, _ := testStore(t)
	const url = "http://example.test/news"
	gate := make(chan struct{})
	f := &gatedFetcher{body: `<html><body><p>The bridge opened.</p></body></html>`, gate: gate, started: make(chan struct{}, 2)}
	m := &Monitor{Store: db, Warehouse: wh, Fetcher: f}
	m.init()

	pages := make(chan *page, 2)
	for range 2 {
		go func() { pages <- m.fetchPage(ctx, url, false, time.Now()) }()
	}
	<-f.started
	select {
	case <-f.started:
		t.Error("a second fetch of the page started while the first was in flight")
	case <-time.After(200 * time.Millisecond):
	}
	f.set(f.body, nil)
	close(gate)
	p1, p2 := <-pages, <-pages
	if p1.cur == nil || p2.cur == nil {
		t.Fatalf("fetch failed: %q, %q", p1.err, p2.err)
	}
	if p1.cur.ID != p2.cur.ID {
		t.Errorf("the checks found versions %d and %d of one body, want one version", p1.cur.ID, p2.cur.ID)
	}
	r, err := db.FindResourceByURL(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	if vs, _, err := db.FindVersions(ctx, vigil.VersionFilter{ResourceID: r.ID}); err != nil || len(vs) != 1 {
		t.Errorf("%d versions stored (err %v), want 1", len(vs), err)
	}
	if len(m.pages.m) != 0 {
		t.Errorf("%d page locks left after the fetches", len(m.pages.m))
	}
}

// TestRunReleasesClaimsOnStop: sentinels Run claimed and was still
// checking when its context ended are due again at once, not when their
// lease ends; a sentinel it had checked keeps the next check it was given.
func TestRunReleasesClaimsOnStop(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	checker := spec.NewChecker(time.Now().UTC())
	page := `<html><body><h1>News</h1><p>The bridge opened.</p></body></html>`
	f := &gatedFetcher{body: page, started: make(chan struct{}, 16)}
	var committed atomic.Int64
	m := &Monitor{Store: db, Warehouse: wh, Fetcher: f, Policy: schedule.Policy{MinInterval: time.Minute},
		Lease: time.Hour, Committed: func(n int) { committed.Add(int64(n)) }}
	checked := createSentinel(t, db, checker, u, "checked", "Create Sentinel checked Using http://example.test/checked Monitor any change Fetch 1 hour\n")

	kick := make(chan struct{}, 1)
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- m.Run(rctx, 5*time.Millisecond, kick) }()
	for deadline := time.Now().Add(10 * time.Second); committed.Load() < 1; time.Sleep(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting for the first check")
		}
	}

	// Two more sentinels are claimed; their fetches hang until the stop.
	f.set(page, make(chan struct{}))
	var held []*vigil.Sentinel
	for _, name := range []string{"a", "b"} {
		held = append(held, createSentinel(t, db, checker, u, name,
			"Create Sentinel "+name+" Using http://example.test/"+name+" Monitor any change Fetch 1 hour\n"))
	}
	kick <- struct{}{}
	for range held {
		select {
		case <-f.started:
		case <-time.After(10 * time.Second):
			t.Fatal("timed out waiting for the held fetches")
		}
	}
	for _, s := range held {
		if cur, err := db.FindSentinelByID(ctx, s.ID); err != nil {
			t.Fatal(err)
		} else if time.Until(cur.NextCheck) < 30*time.Minute {
			t.Fatalf("%s: next check %v, want a lease an hour ahead", s.Name, cur.NextCheck)
		}
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Run = %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return")
	}
	stopped := time.Now()
	for _, s := range held {
		cur, err := db.FindSentinelByID(ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		if cur.NextCheck.After(stopped) {
			t.Errorf("%s: next check %v after the stop at %v: its claim was not released", s.Name, cur.NextCheck, stopped)
		}
	}
	cur, err := db.FindSentinelByID(ctx, checked.ID)
	if err != nil {
		t.Fatal(err)
	}
	if time.Until(cur.NextCheck) < 30*time.Second {
		t.Errorf("checked: next check %v, want the one its check gave (about an hour ahead)", cur.NextCheck)
	}
}

// busyFetcher serves a page, or, while busy, fails as a fetcher does
// whose request to the page's host never got its turn.
type busyFetcher struct {
	gatedFetcher
	busy bool
}

func (f *busyFetcher) Fetch(ctx context.Context, req *vigil.FetchRequest) (*vigil.FetchResult, error) {
	if f.busy {
		return nil, fmt.Errorf("fetch %s: %w: waiting for host example.test: %w", req.URL, vigil.ErrHostBusy, context.DeadlineExceeded)
	}
	return f.gatedFetcher.Fetch(ctx, req)
}

// TestFetchPageHostBusy: a page whose request waited in vain for its
// host's turn (behind a slow page of the same site) was not read: no
// failure is stored in its history, which showed "waiting for host ...:
// context deadline exceeded" between two reads of a page that never
// failed; the next read is the same version.
func TestFetchPageHostBusy(t *testing.T) {
	ctx := context.Background()
	db, wh, _ := testStore(t)
	const url = "http://example.test/news"
	f := &busyFetcher{gatedFetcher: gatedFetcher{body: `<html><body><p>The bridge opened.</p></body></html>`}}
	m := &Monitor{Store: db, Warehouse: wh, Fetcher: f}
	m.init()
	first := m.fetchPage(ctx, url, false, time.Now())
	if first.cur == nil {
		t.Fatalf("fetch failed: %q", first.err)
	}
	f.busy = true
	if pg := m.fetchPage(ctx, url, false, time.Now()); pg.cur != nil || !strings.Contains(pg.err, "waiting for host") {
		t.Errorf("busy host: page %+v, want no version and the error", pg)
	}
	f.busy = false
	again := m.fetchPage(ctx, url, false, time.Now())
	if again.cur == nil || again.cur.ID != first.cur.ID {
		t.Errorf("read again: %+v, want version %d", again, first.cur.ID)
	}
	if vs, _, err := db.FindVersions(ctx, vigil.VersionFilter{ResourceID: first.resource}); err != nil || len(vs) != 1 {
		for _, v := range vs {
			t.Logf("version %d: error %q", v.ID, v.Error)
		}
		t.Errorf("%d versions stored (err %v), want 1", len(vs), err)
	}
}

// TestCheckHostBusyDeferred: a sentinel whose page's fetch waited in vain
// for its host's turn is checked again a minute later, not after a
// failure's back-off (twice its interval), and its contacts are not told of
// a failure.
func TestCheckHostBusyDeferred(t *testing.T) {
	db, wh, u := testStore(t)
	clock := time.Now().UTC().Truncate(time.Minute)
	s := createSentinel(t, db, spec.NewChecker(clock), u, "news", `Create Sentinel news Using http://example.test/news
Monitor any change
Fetch 1 day`)
	f := &busyFetcher{gatedFetcher: gatedFetcher{body: `<html><body><p>The bridge opened.</p></body></html>`}, busy: true}
	m := &Monitor{Store: db, Warehouse: wh, Fetcher: f, Policy: schedule.Policy{Jitter: 0.01},
		Now: func() time.Time { return clock }}
	runOnce(t, m, 1)
	cur, err := db.FindSentinelByID(context.Background(), s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d := cur.NextCheck.Sub(clock); d < 50*time.Second || d > 70*time.Second {
		t.Errorf("next check in %v after a busy host, want about a minute", d)
	}
	if msgs := messagesOf(t, db, u, s); len(msgs) != 0 {
		t.Errorf("%d messages after a busy host, want none", len(msgs))
	}
}
