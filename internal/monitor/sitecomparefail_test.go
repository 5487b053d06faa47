package monitor

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/spec"
)

// TestSiteCompareFails: a check whose crawl cannot be compared with the
// previous one (here a reference that reads but does not validate: a link
// out of its scope, to a URL with a password) fails, saying why as the
// sentinel's last error, its URLs redacted; it reports nothing and keeps
// the previous crawl as the reference, so that once the reference can be
// compared again the change made meanwhile is reported. Before, the
// failure was only logged: the sentinel showed no error, and looked as if
// its site never changed.
func TestSiteCompareFails(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, docsRelease("Run the installer.", "Ask us.", true))
	start := site.URL("/docs/")
	now := time.Now().UTC()
	sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", "Create Sentinel docs Using site "+start+" Every interactive")
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	runOnce(t, m, 1) // the reference

	good, _, err := db.SiteSnapshot(ctx, sen.ID)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := decodeSite(good)
	if err != nil {
		t.Fatal(err)
	}
	const secret = "s3cret-pw"
	rec.Snapshot.Pages[0].Links = append(rec.Snapshot.Pages[0].Links, crawl.Link{Target: "http://user:" + secret + "@elsewhere.example/x", Label: "Out"})
	bad := mustEncode(t, rec)
	keep := func(site []byte) {
		t.Helper()
		states, err := db.SentinelStates(ctx, []int64{sen.ID})
		if err != nil {
			t.Fatal(err)
		}
		if err := db.RecordChecks(ctx, []*vigil.CheckRecord{{SentinelID: sen.ID, CheckedAt: now, NextCheck: now.Add(time.Hour),
			State: states[sen.ID], Site: site}}); err != nil {
			t.Fatal(err)
		}
	}
	keep(bad)

	site.Set(docsRelease("Run the new installer.", "Ask us.", true), nil)
	checkAnHourLater(t, m, db, sen, &now)
	sum := stateSummary(t, db, sen)
	msg := sum.CheckErrors[start]
	for _, want := range []string{"could not be compared with its last crawl", "stays the reference", "out of the query's scope", "user:xxxxx@elsewhere.example"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the last error: %q, want it to say %q", msg, want)
		}
	}
	if strings.Contains(msg, secret) {
		t.Errorf("the last error shows the password: %q", msg)
	}
	if sum.FailingSince[start].IsZero() {
		t.Errorf("no run of failures: %+v", sum)
	}
	if cs := changesOf(t, db, sen); len(cs) != 0 {
		t.Errorf("%d changes from a check that could not compare, want none", len(cs))
	}
	if raw, _, err := db.SiteSnapshot(ctx, sen.ID); err != nil || !bytes.Equal(raw, bad) {
		t.Errorf("the reference was replaced by the check that could not compare (%v)", err)
	}

	// The reference readable again, the next check compares with it and
	// reports the change made meanwhile.
	keep(good)
	checkAnHourLater(t, m, db, sen, &now)
	if sum := stateSummary(t, db, sen); len(sum.CheckErrors) != 0 || len(sum.FailingSince) != 0 {
		t.Errorf("after a check that compared: errors %v, failing since %v; want none", sum.CheckErrors, sum.FailingSince)
	}
	cs := changesOf(t, db, sen)
	if len(cs) != 1 {
		t.Fatalf("%d changes, want 1 (the guide changed while the crawls could not be compared)", len(cs))
	}
	if recs := siteRecords(t, cs[0]); len(recs) != 1 || recs[0].Page == nil || recs[0].Page.URL != site.URL("/docs/guide.html") {
		t.Errorf("records %+v, want the guide alone", recs)
	}
}
