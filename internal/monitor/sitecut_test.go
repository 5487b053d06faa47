package monitor

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/spec"
)

// TestSiteCrawlCutIsTheLastError: a site's check cut at its claim's lease
// stores no version saying so (the start page was read well), so its
// state keeps why it failed, the sentinel's last error (Summary's
// CheckErrors), as the dashboard, the API and vigil sentinel list show a
// failed fetch's; a check within the lease ends it. Before, the sentinel
// failed at every check with no error shown but in the log.
func TestSiteCrawlCutIsTheLastError(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	pages := crawltest.Release{}
	index := `<html><body>`
	for i := range 12 {
		p := "/p" + strconv.Itoa(i) + ".html"
		index += `<a href="` + p + `">` + p + `</a> `
		pages[p] = []byte(`<html><body><p>Page ` + strconv.Itoa(i) + `.</p></body></html>`)
	}
	pages["/index.html"] = []byte(index + `</body></html>`)
	site := crawltest.NewSite(t, pages)
	now := time.Now().UTC()
	sen := createSentinel(t, db, spec.NewChecker(now), u, "slow", "Create Sentinel slow Using site "+site.URL("/")+" Every interactive")
	summary := func() StateSummary {
		t.Helper()
		states, err := db.SentinelStates(ctx, []int64{sen.ID})
		if err != nil {
			t.Fatal(err)
		}
		return Summary(states[sen.ID], sen)
	}

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
