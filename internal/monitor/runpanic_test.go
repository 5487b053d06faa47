package monitor

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/spec"
)

// panickingStore is a Store whose claim of due sentinels, record of
// checks or release of claims panics the first time, as a bug in the store's adapter would,
// its value naming a URL with a secret.
type panickingStore struct {
	Store
	claim, record, release atomic.Bool
}

func (s *panickingStore) ReleaseSentinels(ctx context.Context, leases []vigil.SentinelLease, now time.Time) (int, error) {
	if s.release.CompareAndSwap(true, false) {
		panic("release: bad row from postgres://vigil:SECRET@db.example.test/vigil")
	}
	return s.Store.ReleaseSentinels(ctx, leases, now)
}

func (s *panickingStore) ClaimDueSentinels(ctx context.Context, now time.Time, lease time.Duration, n int) ([]*vigil.Sentinel, error) {
	if s.claim.CompareAndSwap(true, false) {
		panic("claim: bad row from postgres://vigil:SECRET@db.example.test/vigil")
	}
	return s.Store.ClaimDueSentinels(ctx, now, lease, n)
}

func (s *panickingStore) RecordChecks(ctx context.Context, recs []*vigil.CheckRecord) error {
	if s.record.CompareAndSwap(true, false) {
		panic("record: bad row from postgres://vigil:SECRET@db.example.test/vigil")
	}
	return s.Store.RecordChecks(ctx, recs)
}

// TestRunStepPanicRecovered: a panic in Run's own steps, outside the
// checks' guard (the claim of due sentinels, the committer's record of
// checks), does not stop Run, nor the process: it is logged at Error
// level, its value redacted and its stack kept, and counted by where it
// struck (PanicClaim, PanicCommit); the claim is tried again at the next
// poll, and a later check is committed.
func TestRunStepPanicRecovered(t *testing.T) {
	for _, in := range []string{PanicClaim, PanicCommit} {
		t.Run(in, func(t *testing.T) {
			ctx := context.Background()
			db, wh, u := testStore(t)
			const url = "https://a.example.test/"
			clock := time.Now().UTC().Truncate(time.Minute)
			s := createSentinel(t, db, spec.NewChecker(clock), u, "a", "Create Sentinel a Using "+url+" Monitor any change\n")
			st := &panickingStore{Store: db}
			st.claim.Store(in == PanicClaim)
			st.record.Store(in == PanicCommit)
			var logs syncBuffer
			var mu sync.Mutex
			var panics []string
			var committed atomic.Int64
			m := &Monitor{Store: st, Warehouse: wh, Fetcher: &pagesFetcher{pages: map[string]string{url: "<p>a</p>"}},
				Policy: schedule.Policy{MinInterval: time.Minute}, Now: func() time.Time { return clock }, Logger: slogJSON(&logs),
				Panicked:  func(in string) { mu.Lock(); panics = append(panics, in); mu.Unlock() },
				Committed: func(n int) { committed.Add(int64(n)) }}
			rctx, stop := context.WithCancel(ctx)
			done := make(chan error, 1)
			go func() { done <- m.Run(rctx, 5*time.Millisecond, nil) }()
			wait := func(what string, ok func() bool) {
				t.Helper()
				for deadline := time.Now().Add(10 * time.Second); !ok(); time.Sleep(5 * time.Millisecond) {
					if time.Now().After(deadline) {
						stop()
						t.Fatalf("%s: not within 10s", what)
					}
				}
			}
			if in == PanicCommit {
				// The record lost, its sentinel is checked again, once due.
				wait("the panic", func() bool { mu.Lock(); defer mu.Unlock(); return len(panics) > 0 })
				wait("the check's end", func() bool { return !m.Checking(s.ID) })
				makeDue(t, db, s, clock)
			}
			wait("a commit", func() bool { return committed.Load() > 0 })
			stop()
			if err := <-done; !errors.Is(err, context.Canceled) {
				t.Errorf("Run = %v; want it stopped by its context", err)
			}
			mu.Lock()
			defer mu.Unlock()
			if len(panics) != 1 || panics[0] != in {
				t.Errorf("panics counted %v; want [%s]", panics, in)
			}
			log := logs.String()
			if !strings.Contains(log, `"panic":"panic: `) || !strings.Contains(log, `"stack":"goroutine`) || !strings.Contains(log, `"in":"`+in+`"`) {
				t.Errorf("the panic is not logged with its value, stack and where:\n%s", log)
			}
			if strings.Contains(log, "SECRET") {
				t.Errorf("the panic's secret is logged:\n%s", log)
			}
			cur, err := db.FindSentinelByID(ctx, s.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !cur.LastCheck.Equal(clock) {
				t.Errorf("the sentinel was last checked %v; want %v, checked after the panic", cur.LastCheck, clock)
			}
		})
	}
}

// TestRunBatchPanicKeepsStartedChecks: a panic in starting a round's
// checks (here in giving back a site for which no slot was free, after the
// other site's crawl started) abandons only the sentinels whose check was
// not handed on: the site given back is no longer in flight, while the
// site being crawled still is, until its record is committed, so that it
// is not claimed and checked a second time meanwhile.
func TestRunBatchPanicKeepsStartedChecks(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, docsRelease("Install.", "Free.", true))
	gated, open := gatedSite(t, site)
	now := time.Now().UTC().Truncate(time.Microsecond) // as the stores keep it
	var sites []*vigil.Sentinel
	for _, name := range []string{"a", "b"} {
		sites = append(sites, createSentinel(t, db, spec.NewChecker(now), u, name, "Create Sentinel "+name+" Using site "+gated.URL+"/docs/ Every interactive"))
	}
	st := &panickingStore{Store: db}
	st.release.Store(true)
	var logs syncBuffer
	var mu sync.Mutex
	var panics []string
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	m.Store, m.Workers, m.Logger = st, 2, slogJSON(&logs) // one site slot
	m.Panicked = func(in string) { mu.Lock(); panics = append(panics, in); mu.Unlock() }
	rctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { m.Run(rctx, time.Hour, nil); close(done) }()
	defer func() { open(); cancel(); <-done }()
	wait := func(what string, ok func() bool) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !ok(); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not within 10s", what)
			}
		}
	}
	wait("the panic", func() bool { mu.Lock(); defer mu.Unlock(); return len(panics) > 0 })
	// The panic's sentinels abandoned (one call for them all): one of
	// the two is no longer in flight.
	wait("the abandon", func() bool { return !m.Checking(sites[0].ID) || !m.Checking(sites[1].ID) })
	var checking []int64
	for _, s := range sites {
		if m.Checking(s.ID) {
			checking = append(checking, s.ID)
		}
	}
	if len(checking) != 1 {
		t.Fatalf("sentinels in flight after the panic: %v; want the one whose crawl runs, not the one given back", checking)
	}
	mu.Lock()
	if len(panics) != 1 || panics[0] != PanicClaim {
		t.Errorf("panics counted %v; want [%s]", panics, PanicClaim)
	}
	mu.Unlock()
	// Its crawl ends: its record committed, it is no longer in flight.
	open()
	wait("the crawl's commit", func() bool { return !m.Checking(checking[0]) })
	cur, err := db.FindSentinelByID(ctx, checking[0])
	if err != nil {
		t.Fatal(err)
	}
	if !cur.LastCheck.Equal(now) {
		t.Errorf("the site crawled was last checked %v; want %v", cur.LastCheck, now)
	}
}
