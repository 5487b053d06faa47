package monitor

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/spec"
)

// carryRelease is a site whose guide alone links to a deep page: the
// deep page is reached only through the guide.
func carryRelease(guide string) crawltest.Release {
	return crawltest.Release{
		"/docs/index.html": []byte(`<html><head><title>Docs</title></head><body><a href="guide.html">Guide</a> <a href="faq.html">FAQ</a></body></html>`),
		"/docs/guide.html": []byte(`<html><head><title>Guide</title></head><body><p>` + guide + `</p><a href="deep.html">Deep</a></body></html>`),
		"/docs/faq.html":   []byte(`<html><head><title>FAQ</title></head><body><p>Free.</p></body></html>`),
		"/docs/deep.html":  []byte(`<html><head><title>Deep</title></head><body><p>Deep.</p></body></html>`),
	}
}

// setFailing makes the site answer status at path (0: its file again).
func setFailing(site *crawltest.Site, path string, status int) {
	site.Mu.Lock()
	defer site.Mu.Unlock()
	if site.Failing == nil {
		site.Failing = map[string]int{}
	}
	site.Failing[path] = status
}

// storedSite returns the previous crawl a sentinel keeps.
func storedSite(t *testing.T, db *sqlite.DB, s *vigil.Sentinel) *siteRecord {
	t.Helper()
	raw, _, err := db.SiteSnapshot(context.Background(), s.ID)
	if err != nil {
		t.Fatalf("sentinel %s's site snapshot: %v", s.Name, err)
	}
	rec, err := decodeSite(raw)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// TestSiteCarryMomentary: a page answering 503 once between two good
// crawls is neither removed nor added again, nor is the page reached only
// through it: the check reports no change, and the crawl it keeps marks
// both pages carried over, with their versions of the last good read.
// A page gone (404) is removed at once.
func TestSiteCarryMomentary(t *testing.T) {
	for _, tc := range []struct {
		status int
		want   string // the records of the check while the guide fails
	}{
		{503, ""},
		{404, "delete URL/docs/deep.html, delete URL/docs/guide.html"},
	} {
		t.Run(fmt.Sprint("HTTP ", tc.status), func(t *testing.T) {
			db, wh, u := testStore(t)
			site := crawltest.NewSite(t, carryRelease("Install."))
			now := time.Now().UTC()
			sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", "Create Sentinel docs Using site "+site.URL("/docs/")+" depth 3 pages 20 Every interactive")
			m := siteMonitor(db, wh, fetch.Options{}, &now)
			runOnce(t, m, 1)
			first := storedSite(t, db, sen)
			guide, deep := site.URL("/docs/guide.html"), site.URL("/docs/deep.html")

			setFailing(site, "/docs/guide.html", tc.status)
			checkAnHourLater(t, m, db, sen, &now)
			cs := changesOf(t, db, sen)
			got := ""
			if len(cs) == 1 {
				got = strings.ReplaceAll(pageURLs(t, cs[0]), site.URL(""), "URL")
			}
			if len(cs) > 1 || got != tc.want {
				t.Fatalf("guide failing with %d: %d changes %q, want %q", tc.status, len(cs), got, tc.want)
			}
			if tc.status == 404 {
				if note := siteRecords(t, cs[0])[1].Page.Note; note != "now failing: HTTP 404" {
					t.Errorf("guide's note %q", note)
				}
				return
			}
			second := storedSite(t, db, sen)
			for _, u := range []string{guide, deep} {
				p := second.Snapshot.Page(u)
				if p == nil || p.Failed() || p.Carried == nil || !p.Carried.Read.Equal(first.Snapshot.Started) || p.Carried.Crawls != 1 ||
					second.Versions[u] != first.Versions[u] || second.Versions[u] == 0 {
					t.Errorf("%s in the crawl kept: %+v, version %d (was %d)", u, p, second.Versions[u], first.Versions[u])
				}
			}
			if f := second.Snapshot.Page(guide).Carried.Failure(); f != "HTTP 503" {
				t.Errorf("guide's failure %q", f)
			}

			setFailing(site, "/docs/guide.html", 0)
			checkAnHourLater(t, m, db, sen, &now)
			if cs := changesOf(t, db, sen); len(cs) != 0 {
				t.Errorf("guide read again: %d changes (%s), want none", len(cs), pageURLs(t, cs[0]))
			}
			if st := storedSite(t, db, sen).Snapshot.Stats(); st.Carried != 0 || st.Failures != 0 {
				t.Errorf("guide read again: %+v", st)
			}
		})
	}
}

// TestSiteCarryBound: a page failing for more than crawl.MaxCarriedCrawls
// checks in a row is removed, with the pages reached only through it. The
// record's note says since when it fails and when it was last read in its
// owner's zone as it is at the check, as the message that tells it does
// (messageTime, job.location), named by the zone's abbreviation, UTC for an
// owner without a zone on a deployment without one: the note is written once, with the change, and
// read as stored on the dashboard, in the feed and in the messages. It
// said them in RFC 3339 UTC.
func TestSiteCarryBound(t *testing.T) {
	// "A>B": saved in zone A, then its owner sets B: the note is in B.
	for _, zones := range []string{"", "Asia/Tokyo", "America/New_York", "America/New_York>Asia/Tokyo"} {
		zone, then, moved := strings.Cut(zones, ">")
		name := strings.ReplaceAll(zones, "/", "_")
		if name == "" {
			name = "none"
		}
		t.Run(name, func(t *testing.T) {
			db, wh, u := testStore(t)
			site := crawltest.NewSite(t, carryRelease("Install."))
			now := time.Now().UTC()
			src := "Create Sentinel docs Using site " + site.URL("/docs/") + " depth 3 pages 20 Every interactive"
			var sen *vigil.Sentinel
			if zone == "" {
				sen = createSentinel(t, db, spec.NewChecker(now), u, "docs", src)
			} else {
				if err := db.SetUserTimeZone(context.Background(), u.ID, zone); err != nil {
					t.Fatal(err)
				}
				sen = saveIn(t, db, u, nil, src, now)
			}
			if moved {
				if err := db.SetUserTimeZone(context.Background(), u.ID, then); err != nil {
					t.Fatal(err)
				}
				zone = then
			}
			loc, err := vigil.ZoneOr(zone, time.UTC)
			if err != nil {
				t.Fatal(err)
			}
			m := siteMonitor(db, wh, fetch.Options{}, &now)
			runOnce(t, m, 1)
			setFailing(site, "/docs/guide.html", 503)
			for i := 1; i <= crawl.MaxCarriedCrawls; i++ {
				checkAnHourLater(t, m, db, sen, &now)
				if cs := changesOf(t, db, sen); len(cs) != 0 {
					t.Fatalf("check %d failing: %d changes (%s)", i, len(cs), pageURLs(t, cs[0]))
				}
			}
			c := storedSite(t, db, sen).Snapshot.Page(site.URL("/docs/guide.html")).Carried
			checkAnHourLater(t, m, db, sen, &now)
			cs := changesOf(t, db, sen)
			if len(cs) != 1 {
				t.Fatalf("check %d failing: %d changes, want 1", crawl.MaxCarriedCrawls+1, len(cs))
			}
			if got, want := pageURLs(t, cs[0]), "delete "+site.URL("/docs/deep.html")+", delete "+site.URL("/docs/guide.html"); got != want {
				t.Errorf("records %s, want %s", got, want)
			}
			const layout = "2006-01-02 15:04 MST"
			want := fmt.Sprintf("now failing: HTTP 503, failing %d crawls in a row since %s, last read %s", crawl.MaxCarriedCrawls+1,
				c.Since.In(loc).Format(layout), c.Read.In(loc).Format(layout))
			if note := siteRecords(t, cs[0])[1].Page.Note; note != want {
				t.Errorf("guide's note %q, want %q", note, want)
			}
			if abbr, _ := c.Since.In(loc).Zone(); !strings.Contains(want, " "+abbr+",") {
				t.Errorf("want %q does not name the zone %s", want, abbr)
			}
		})
	}
}

// TestSiteCarryThenGone: a page carried over once (503), then gone (404),
// is removed "now failing: HTTP 404", as a page gone at once is: only a
// page still failing for a moment past the bounds of carrying it is said
// to be failing since the first of those crawls.
func TestSiteCarryThenGone(t *testing.T) {
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, carryRelease("Install."))
	now := time.Now().UTC()
	sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", "Create Sentinel docs Using site "+site.URL("/docs/")+" depth 3 pages 20 Every interactive")
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	runOnce(t, m, 1)
	setFailing(site, "/docs/guide.html", 503)
	checkAnHourLater(t, m, db, sen, &now)
	if cs := changesOf(t, db, sen); len(cs) != 0 {
		t.Fatalf("guide failing with 503: %d changes (%s)", len(cs), pageURLs(t, cs[0]))
	}
	setFailing(site, "/docs/guide.html", 404)
	checkAnHourLater(t, m, db, sen, &now)
	cs := changesOf(t, db, sen)
	if len(cs) != 1 {
		t.Fatalf("guide gone: %d changes, want 1", len(cs))
	}
	if note := siteRecords(t, cs[0])[1].Page.Note; note != "now failing: HTTP 404" {
		t.Errorf("guide's note %q, want %q", note, "now failing: HTTP 404")
	}
}

// TestSiteCarryShared: two sentinels of one site, sharing one crawl, whose
// previous crawls read the guide in two versions: each carries its own
// version over, with its own time of the read, and the shared crawl keeps
// none; when the guide is read again, the sentinel that had the older
// version reports the guide changed, the other nothing.
func TestSiteCarryShared(t *testing.T) {
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, carryRelease("Install."))
	now := time.Now().UTC()
	checker := spec.NewChecker(now)
	a := createSentinel(t, db, checker, u, "a", "Create Sentinel a Using site "+site.URL("/docs/")+" depth 3 pages 20 Every interactive")
	b := createSentinel(t, db, checker, u, "b", "Create Sentinel b Using site "+site.URL("/docs/")+" depth 3 pages 20 Every interactive")
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	runOnceWithin(t, m, 2)

	// b alone reads the guide's second version.
	site.Set(carryRelease("Install with go get."), nil)
	now = now.Add(time.Hour)
	makeDue(t, db, b, now)
	notDue(t, db, a, now)
	runOnceWithin(t, m, 1)
	if cs := changesOf(t, db, b); len(cs) != 1 {
		t.Fatalf("b: %d changes, want 1 (the guide)", len(cs))
	}
	refA, refB := storedSite(t, db, a), storedSite(t, db, b)
	guide := site.URL("/docs/guide.html")
	if refA.Versions[guide] == refB.Versions[guide] {
		t.Fatalf("a and b read the same version of the guide")
	}

	// The guide fails: one crawl serves both.
	setFailing(site, "/docs/guide.html", 503)
	now = now.Add(time.Hour)
	makeDue(t, db, a, now)
	makeDue(t, db, b, now)
	before := siteHits(site, nil)
	runOnceWithin(t, m, 2)
	requestedOnce(t, "the failing round", siteHits(site, before))
	for _, tc := range []struct {
		s   *vigil.Sentinel
		ref *siteRecord
	}{{a, refA}, {b, refB}} {
		if cs := changesOf(t, db, tc.s); len(cs) != map[*vigil.Sentinel]int{a: 0, b: 1}[tc.s] {
			t.Errorf("sentinel %s: %d changes while the guide fails", tc.s.Name, len(cs))
		}
		got := storedSite(t, db, tc.s)
		p, was := got.Snapshot.Page(guide), tc.ref.Snapshot.Page(guide)
		if p.Carried == nil || p.Hash != was.Hash || got.Versions[guide] != tc.ref.Versions[guide] || !p.Carried.Read.Equal(tc.ref.Snapshot.Started) {
			t.Errorf("sentinel %s carried %+v (%+v), version %d; want its own: hash %s, version %d, read %s", tc.s.Name, p, p.Carried,
				got.Versions[guide], was.Hash, tc.ref.Versions[guide], tc.ref.Snapshot.Started)
		}
	}
	m.siteCrawls.mu.Lock()
	for _, c := range m.siteCrawls.recent {
		if n := c.record.Snapshot.Stats().Carried; n != 0 {
			t.Errorf("the shared crawl holds %d pages carried over", n)
		}
	}
	m.siteCrawls.mu.Unlock()

	// Read again: a sees the guide's change it had not seen.
	setFailing(site, "/docs/guide.html", 0)
	now = now.Add(time.Hour)
	makeDue(t, db, a, now)
	makeDue(t, db, b, now)
	runOnceWithin(t, m, 2)
	if cs := changesOf(t, db, a); len(cs) != 1 || pageURLs(t, cs[0]) != "update "+guide {
		t.Errorf("a, the guide read again: %d changes", len(cs))
	}
	if cs := changesOf(t, db, b); len(cs) != 1 {
		t.Errorf("b, the guide read again: %d changes, want only the first", len(cs))
	}
}

// TestSiteCarryReported: a check that reports a change while pages are
// kept from the last crawl says so in the change's summary, and so in the
// message's subject, naming the page that failed and why: "1 page failed
// and 1 not fetched (kept from the last crawl): URL (HTTP 503)": the guide
// failed, the deep page only it links to was not fetched. Counted alone,
// the reader could not tell which page the crawl did not read.
func TestSiteCarryReported(t *testing.T) {
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, carryRelease("Install."))
	now := time.Now().UTC()
	sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", "Create Sentinel docs Using site "+site.URL("/docs/")+
		" depth 3 pages 20 Notify By email owner@example.test Every immediate")
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	runOnce(t, m, 1)
	r := carryRelease("Install.")
	r["/docs/faq.html"] = []byte(`<html><head><title>FAQ</title></head><body><p>Free, and open.</p></body></html>`)
	site.Set(r, nil)
	setFailing(site, "/docs/guide.html", 503)
	checkAnHourLater(t, m, db, sen, &now)
	cs := changesOf(t, db, sen)
	if len(cs) != 1 {
		t.Fatalf("%d changes, want 1 (the FAQ)", len(cs))
	}
	want := "site " + site.URL("/docs/") + ": 1 page changed; 1 page failed and 1 not fetched (kept from the last crawl): " +
		site.URL("/docs/guide.html") + " (HTTP 503)"
	if cs[0].Summary != want || pageURLs(t, cs[0]) != "update "+site.URL("/docs/faq.html") {
		t.Errorf("change %q (%s), want %q", cs[0].Summary, pageURLs(t, cs[0]), want)
	}
	if msgs := messagesOf(t, db, u, sen); len(msgs) != 1 || msgs[0].Subject != "[Vigil] docs: "+want {
		t.Errorf("messages %d, want 1 with the summary", len(msgs))
	}
}

// TestSiteSummaryCarried: the summary counts the pages kept from the last
// crawl that failed and those not fetched apart, each once, and names the
// pages that failed with their failures, three at most, their passwords
// hidden.
func TestSiteSummaryCarried(t *testing.T) {
	a := "https://example.org/docs/a.html (HTTP 503)"
	b := "https://example.org/docs/b.html (HTTP 500)"
	c := "https://example.org/docs/c.html (timeout)"
	d := "https://example.org/docs/d.html (HTTP 502)"
	for name, tc := range map[string]struct {
		failed     []string
		notFetched int
		want       string
	}{
		"none":                {nil, 0, ""},
		"one failed":          {[]string{a}, 0, "; 1 page failed (kept from the last crawl): " + a},
		"two failed":          {[]string{a, b}, 0, "; 2 pages failed (kept from the last crawl): " + a + ", " + b},
		"one of each":         {[]string{a}, 1, "; 1 page failed and 1 not fetched (kept from the last crawl): " + a},
		"two and three":       {[]string{a, b}, 3, "; 2 pages failed and 3 not fetched (kept from the last crawl): " + a + ", " + b},
		"not fetched only":    {nil, 2, "; 2 pages not fetched (kept from the last crawl)"},
		"three named at most": {[]string{a, b, c, d, a}, 0, "; 5 pages failed (kept from the last crawl): " + a + ", " + b + ", " + c + " and 2 more"},
	} {
		base := siteSummary("https://example.org/docs/", nil, nil, 0)
		if got := siteSummary("https://example.org/docs/", nil, tc.failed, tc.notFetched); got != base+tc.want {
			t.Errorf("%s: %q, want %q", name, got, base+tc.want)
		}
	}
}
