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
		// Recorded at the store's clock, after the sentinel's creation,
		// as a check's record is: the sentinel was not edited since
		// (TestSiteCompareFailsEdited).
		if err := db.RecordChecks(ctx, []*vigil.CheckRecord{{SentinelID: sen.ID, CheckedAt: time.Now().UTC(), NextCheck: now.Add(time.Hour),
			State: states[sen.ID], Site: site}}); err != nil {
			t.Fatal(err)
		}
	}
	keep(bad)

	site.Set(docsRelease("Run the new installer.", "Ask us.", true), nil)
	checkWhenDue(t, m, sen, &now)
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
	wantGuideChanged(t, db, sen, site.URL("/docs/guide.html"), "the guide changed while the crawls could not be compared")
}

// TestSiteCompareFailsEdited: a reference that can never be compared
// again (it reads but does not validate) fails every check, its last
// error saying to edit the sentinel to start from a new reference; an
// edit that leaves the crawl as it was (the sentinel saved unchanged)
// makes the next crawl the new reference, reporting nothing and failing
// no more, and the check after compares with it. Pausing and resuming
// the sentinel, and asking for a check now (none sets its UpdatedAt, as
// an edit does), leave a good
// reference alone: the change made meanwhile is reported; nor do they
// replace a reference that cannot be compared, which still fails the
// check after them, saying to edit. Before, such
// a reference was kept for ever, an edit that did not change the crawl
// included, and the sentinel failed at every check.
func TestSiteCompareFailsEdited(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, docsRelease("Run the installer.", "Ask us.", true))
	start := site.URL("/docs/")
	// The checks' clock, a day behind the store's, which stamps edits: a
	// check's record comes before any edit made after it, as it would.
	now := time.Now().UTC().Add(-24 * time.Hour)
	src := "Create Sentinel docs Using site " + start + " Every interactive"
	sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", src)
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
	rec.Snapshot.Pages[0].Links = append(rec.Snapshot.Pages[0].Links, crawl.Link{Target: "http://elsewhere.example/x", Label: "Out"})
	bad := mustEncode(t, rec)
	states, err := db.SentinelStates(ctx, []int64{sen.ID})
	if err != nil {
		t.Fatal(err)
	}
	// Recorded at the store's clock, after the sentinel's creation, as a
	// check's record is.
	if err := db.RecordChecks(ctx, []*vigil.CheckRecord{{SentinelID: sen.ID, CheckedAt: time.Now().UTC(), NextCheck: now.Add(time.Hour),
		State: states[sen.ID], Site: bad}}); err != nil {
		t.Fatal(err)
	}

	// Not edited since the reference: each check fails, saying what to
	// do; so does one after a pause, a resume and a check now, which are
	// no edits.
	for i := range 2 {
		if i == 1 {
			setStatuses(t, db, sen, now)
		}
		checkWhenDue(t, m, sen, &now)
		msg := stateSummary(t, db, sen).CheckErrors[start]
		for _, want := range []string{"could not be compared with its last crawl", "stays the reference until the sentinel is edited",
			"edit the sentinel (saving it unchanged will do) to start from a new reference"} {
			if !strings.Contains(msg, want) {
				t.Errorf("the last error: %q, want it to say %q", msg, want)
			}
		}
		if raw, _, err := db.SiteSnapshot(ctx, sen.ID); err != nil || !bytes.Equal(raw, bad) {
			t.Fatalf("the reference was replaced before the sentinel was edited (%v)", err)
		}
	}

	// Saved unchanged: the next crawl is the new reference.
	site.Set(docsRelease("Run the new installer.", "Ask us.", true), nil)
	editSpec(t, db, u, sen, src, now)
	cur, err := db.FindSentinelByID(ctx, sen.ID)
	if err != nil {
		t.Fatal(err)
	}
	checkWhenDue(t, m, cur, &now)
	if sum := stateSummary(t, db, cur); len(sum.CheckErrors) != 0 || len(sum.FailingSince) != 0 {
		t.Errorf("after the edit: errors %v, failing since %v; want none", sum.CheckErrors, sum.FailingSince)
	}
	if cs := changesOf(t, db, cur); len(cs) != 0 {
		t.Errorf("%d changes from the check that took a new reference, want none", len(cs))
	}
	raw, _, err := db.SiteSnapshot(ctx, sen.ID)
	if err != nil || bytes.Equal(raw, bad) {
		t.Fatalf("the reference that cannot be compared was kept after the edit (%v)", err)
	}
	if r, err := decodeSite(raw); err != nil {
		t.Fatal(err)
	} else if _, err := r.Snapshot.Table(crawl.ByContent); err != nil {
		t.Fatalf("the new reference does not make a table: %v", err)
	}

	// Paused and resumed: the good reference stays, and the change made
	// meanwhile is reported.
	site.Set(docsRelease("Run the newest installer.", "Ask us.", true), nil)
	setStatuses(t, db, sen, now)
	checkWhenDue(t, m, cur, &now)
	if sum := stateSummary(t, db, cur); len(sum.CheckErrors) != 0 {
		t.Errorf("after the resume: errors %v; want none", sum.CheckErrors)
	}
	wantGuideChanged(t, db, cur, site.URL("/docs/guide.html"), "after the resume: the guide changed")
}

// setStatuses pauses sentinel s, resumes it and asks for a check of it
// at now, as the API and the dashboard do (SetSentinelStatus): none of
// them is an edit.
func setStatuses(t *testing.T, db vigil.Store, s *vigil.Sentinel, now time.Time) {
	t.Helper()
	ctx := context.Background()
	cur, err := db.FindSentinelByID(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []vigil.SentinelStatus{vigil.SentinelPaused, vigil.SentinelActive, vigil.SentinelActive} {
		next := cur.NextCheck
		if st == vigil.SentinelActive {
			next = now
		}
		if err := db.SetSentinelStatus(ctx, s.ID, st, next); err != nil {
			t.Fatal(err)
		}
	}
}

// checkWhenDue moves the clock *now to when sentinel s is due, as its
// last check or edit left it, and checks it with m. Unlike makeDue, it
// does not update the sentinel, which sets its UpdatedAt as an edit does.
func checkWhenDue(t *testing.T, m *Monitor, s *vigil.Sentinel, now *time.Time) {
	t.Helper()
	cur, err := m.Store.FindSentinelByID(context.Background(), s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if cur.NextCheck.After(*now) {
		*now = cur.NextCheck.Add(time.Second)
	}
	runOnce(t, m, 1)
}

// wantGuideChanged fails t unless the sentinel's changes are one, naming
// the page guide alone (why says what changed it).
func wantGuideChanged(t *testing.T, db vigil.Store, s *vigil.Sentinel, guide, why string) {
	t.Helper()
	cs := changesOf(t, db, s)
	if len(cs) != 1 {
		t.Fatalf("%d changes, want 1 (%s)", len(cs), why)
	}
	if recs := siteRecords(t, cs[0]); len(recs) != 1 || recs[0].Page == nil || recs[0].Page.URL != guide {
		t.Errorf("records %+v, want the guide alone", recs)
	}
}
