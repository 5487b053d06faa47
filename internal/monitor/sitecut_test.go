package monitor

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/internal/zstd"
	"github.com/vigil-web/vigil/spec"
)

// TestSiteCrawlCutIsTheLastError: a site's check cut at its claim's lease
// stores no version saying so (the start page was read well), so its
// state keeps why it failed, the sentinel's last error (Summary's
// CheckErrors), as the dashboard, the API and vigil sentinel list show a
// failed fetch's; a check within the lease ends it. Before, the sentinel
// failed at every check with no error shown but in the log.
func TestSiteCrawlCutIsTheLastError(t *testing.T) {
	db, wh, u := testStore(t)
	site := twelvePageSite(t)
	now := time.Now().UTC()
	sen := createSentinel(t, db, spec.NewChecker(now), u, "slow", "Create Sentinel slow Using site "+site.URL("/")+" Every interactive")
	summary := func() StateSummary { return stateSummary(t, db, sen) }

	// 13 requests 100ms apart: longer than the lease of a second.
	m := siteMonitor(db, wh, fetch.Options{HostDelay: 100 * time.Millisecond}, &now)
	m.Lease = time.Second
	runOnce(t, m, 1)
	sum := summary()
	if got := sum.CheckErrors[site.URL("/")]; !strings.Contains(got, "the check of the site did not end within") {
		t.Errorf("the last error after a check cut at its lease: %q, want why it was cut", got)
	}
	if !sum.FailingSince[site.URL("/")].Equal(now) {
		t.Errorf("failing since %v, want %v", sum.FailingSince[site.URL("/")], now)
	}

	// Within the lease, the check works: no error is left.
	m2 := siteMonitor(db, wh, fetch.Options{HostDelay: 100 * time.Millisecond}, &now)
	m2.Lease = time.Minute
	checkAnHourLater(t, m2, db, sen, &now)
	if sum := summary(); len(sum.CheckErrors) != 0 || len(sum.FailingSince) != 0 {
		t.Errorf("after a check within the lease: errors %v, failing since %v; want none", sum.CheckErrors, sum.FailingSince)
	}
}

// failingAppends is a warehouse store that cannot append a version of
// one resource (a full disk, a lost connection).
type failingAppends struct {
	ResourceStore
	rid atomic.Int64
}

func (f *failingAppends) AppendVersion(ctx context.Context, a *vigil.Append) error {
	if a.Version.ResourceID == f.rid.Load() {
		return errors.New("database or disk is full")
	}
	return f.ResourceStore.AppendVersion(ctx, a)
}

// TestSitePagesNotStoredIsTheLastError: a site check that read a page it
// could not store fails, and says so where a failed fetch is said (the
// sentinel's last error, and since when), naming the page and why; it
// was only logged. Once the page is stored again, the error goes.
func TestSitePagesNotStoredIsTheLastError(t *testing.T) {
	ctx := context.Background()
	db, _, u := testStore(t)
	store := &failingAppends{ResourceStore: CachedResources(db)}
	codec, err := zstd.New(0)
	if err != nil {
		t.Fatal(err)
	}
	wh, err := warehouse.New(store, warehouse.Options{Codec: codec})
	if err != nil {
		t.Fatal(err)
	}
	site := crawltest.NewSite(t, crawltest.Release{
		"/index.html": []byte(`<html><body><a href="/a.html">a</a> <a href="/b.html">b</a></body></html>`),
		"/a.html":     []byte(`<html><body><p>A.</p></body></html>`),
		"/b.html":     []byte(`<html><body><p>B.</p></body></html>`),
	})
	res, err := db.EnsureResource(ctx, site.URL("/b.html"))
	if err != nil {
		t.Fatal(err)
	}
	store.rid.Store(res.ID)
	now := time.Now().UTC()
	sen := createSentinel(t, db, spec.NewChecker(now), u, "full", "Create Sentinel full Using site "+site.URL("/")+" Every interactive")
	summary := func() StateSummary { return stateSummary(t, db, sen) }
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	runOnce(t, m, 1)
	sum := summary()
	want := "1 page of the site read but not stored, the first: " + site.URL("/b.html") + ": store version: database or disk is full"
	if got := sum.CheckErrors[site.URL("/")]; !strings.Contains(got, want) {
		t.Errorf("the last error: %q, want %q", got, want)
	}
	if !sum.FailingSince[site.URL("/")].Equal(now) {
		t.Errorf("failing since %v, want %v", sum.FailingSince[site.URL("/")], now)
	}

	store.rid.Store(0)
	checkAnHourLater(t, m, db, sen, &now)
	if sum := summary(); len(sum.CheckErrors) != 0 || len(sum.FailingSince) != 0 {
		t.Errorf("after a check that stored every page: errors %v, failing since %v; want none", sum.CheckErrors, sum.FailingSince)
	}
}

// stateSummary reads the state of sentinel s and summarises it.
func stateSummary(t *testing.T, db *sqlite.DB, s *vigil.Sentinel) StateSummary {
	t.Helper()
	states, err := db.SentinelStates(context.Background(), []int64{s.ID})
	if err != nil {
		t.Fatal(err)
	}
	return Summary(states[s.ID], s)
}
