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
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/spec"
)

// panickingStore is a Store whose claim of due sentinels or record of
// checks panics the first time, as a bug in the store's adapter would,
// its value naming a URL with a secret.
type panickingStore struct {
	Store
	claim, record atomic.Bool
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
