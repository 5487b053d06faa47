package monitor

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/spec"
)

// hostBusyFetcher answers every page but those of one host, whose requests
// never get their turn, and counts the fetches of each URL.
type hostBusyFetcher struct {
	mu    sync.Mutex
	busy  string // host part of the URLs that are busy
	count map[string]int
}

func (f *hostBusyFetcher) Fetch(ctx context.Context, req *vigil.FetchRequest) (*vigil.FetchResult, error) {
	if strings.Contains(req.URL, f.busy) {
		return nil, fmt.Errorf("fetch %s: %w: waiting for host %s: %w", req.URL, vigil.ErrHostBusy, f.busy, context.DeadlineExceeded)
	}
	f.mu.Lock()
	f.count[req.URL]++
	f.mu.Unlock()
	return &vigil.FetchResult{URL: req.URL, Status: 200, ContentType: "text/html", Charset: "utf-8",
		Body: []byte("<html><body><p>same</p></body></html>"), FetchedAt: time.Now()}, nil
}

// TestCheckOneHostBusy: a daily sentinel on two pages, one of whose hosts
// stays busy, is checked at its interval, its other page read once: the
// whole sentinel was deferred, and checked again (with its other page)
// every minute. A sentinel whose every page's host is busy is deferred,
// a minute, then longer in a row (TestCheckHostBusyDeferred).
func TestCheckOneHostBusy(t *testing.T) {
	db, wh, u := testStore(t)
	clock := time.Now().UTC().Truncate(time.Minute)
	s := createSentinel(t, db, spec.NewChecker(clock), u, "two", `Create Sentinel two Using http://quiet.test/p OR http://busy.test/p
Monitor any change
Fetch 1 day`)
	f := &hostBusyFetcher{busy: "nothing-is-busy", count: map[string]int{}}
	now := clock
	m := &Monitor{Store: db, Warehouse: wh, Fetcher: f, Policy: schedule.Policy{Jitter: 0.01},
		Now: func() time.Time { return now }}
	runOnce(t, m, 1) // both pages read: the sentinel's first versions
	makeDue(t, db, s, now.Add(24*time.Hour))
	now = now.Add(24 * time.Hour)
	clock = now
	f.busy, f.count = "busy.test", map[string]int{} // from now on, busy.test never gives a turn
	for now.Before(clock.Add(time.Hour)) {
		if n, err := m.RunOnce(context.Background()); err != nil {
			t.Fatal(err)
		} else if n == 0 {
			now = now.Add(10 * time.Second)
			continue
		}
		cur, err := db.FindSentinelByID(context.Background(), s.ID)
		if err != nil {
			t.Fatal(err)
		}
		now = cur.NextCheck.Add(time.Second)
	}
	if n := f.count["http://quiet.test/p"]; n > 2 {
		t.Errorf("a sentinel that says Fetch 1 day fetched its answering page %d times in an hour while its other page's host was busy", n)
	}
}
