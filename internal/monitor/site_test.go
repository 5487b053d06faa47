package monitor

import (
	"context"
	"encoding/json"
	"errors"
	"hash/crc32"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/intent"
	"github.com/vigil-web/vigil/internal/crawl"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/internal/zstd"
	"github.com/vigil-web/vigil/spec"
)

// docsRelease is a small documentation site: an index linking a guide, a
// FAQ and a page that is about to go away.
func docsRelease(guide, faq string, withOld bool) crawltest.Release {
	index := `<html><head><title>Docs</title></head><body><h1>Docs</h1><ul><li><a href="guide.html">Guide</a></li><li><a href="faq.html">FAQ</a></li>`
	if withOld {
		index += `<li><a href="old.html">Old</a></li>`
	} else {
		index += `<li><a href="new.html">New</a></li>`
	}
	index += `</ul></body></html>`
	r := crawltest.Release{
		"/docs/index.html": []byte(index),
		"/docs/guide.html": []byte(`<html><head><title>Guide</title></head><body><p>` + guide + `</p><a href="index.html">Back</a></body></html>`),
		"/docs/faq.html":   []byte(`<html><head><title>FAQ</title></head><body><p>` + faq + `</p></body></html>`),
	}
	if withOld {
		r["/docs/old.html"] = []byte(`<html><head><title>Old</title></head><body><p>Old things.</p></body></html>`)
	} else {
		r["/docs/new.html"] = []byte(`<html><head><title>New</title></head><body><p>New things.</p></body></html>`)
	}
	return r
}

// siteMonitor returns a monitor of db and wh whose clock reads *now,
// fetching with the options given, loopback allowed.
func siteMonitor(db *sqlite.DB, wh *warehouse.Warehouse, opt fetch.Options, now *time.Time) *Monitor {
	opt.AllowPrivateNetworks = true
	return &Monitor{Store: db, Warehouse: wh, Fetcher: fetch.New(opt), Policy: schedule.Policy{MinInterval: time.Minute},
		Now: func() time.Time { return *now }, Rand: func() float64 { return 0.5 }}
}

// checkAnHourLater moves the clock *now an hour on and checks sentinel
// s, due then, with m.
func checkAnHourLater(t *testing.T, m *Monitor, db *sqlite.DB, s *vigil.Sentinel, now *time.Time) {
	t.Helper()
	*now = now.Add(time.Hour)
	makeDue(t, db, s, *now)
	runOnce(t, m, 1)
}

// siteRecords decodes the page records of a site's change.
func siteRecords(t *testing.T, c *vigil.Change) []intent.Change {
	t.Helper()
	var recs []intent.Change
	if err := json.Unmarshal(c.Records, &recs); err != nil {
		t.Fatalf("records of change %d: %v", c.ID, err)
	}
	return recs
}

// TestSiteSentinel runs a site sentinel end to end on a loopback site,
// with the real fetcher and a SQLite store: the first check is the
// reference; between it and the second, a page goes, one comes, one
// changes where the sentinel's keyword is and one changes elsewhere. The
// second check reports the site's change: the page added, the page
// deleted, and, of the two modified, the one where the keyword changed;
// each page read is a version of its URL in the warehouse.
func TestSiteSentinel(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, docsRelease("Install with go get.", "Is it free? Yes.", true))
	now := time.Now().UTC()
	src := "Create Sentinel docs Using site " + site.URL("/docs/") + " depth 2 pages 20 Monitor keywords {deprecated} Notify By email owner@example.test, webhook https://hooks.example.test/x Every immediate"
	sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", src)
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	m.DashboardLink = func(id int64) string { return "https://vigil.example.test/sentinels/1" }

	runOnce(t, m, 1)
	if cs := changesOf(t, db, sen); len(cs) != 0 {
		t.Fatalf("first crawl reported %d changes, want none (it is the reference)", len(cs))
	}
	raw, _, err := db.SiteSnapshot(ctx, sen.ID)
	if err != nil {
		t.Fatalf("site snapshot after the first check: %v", err)
	}
	first, err := decodeSite(raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(first.Snapshot.Pages) != 4 || len(first.Versions) != 4 {
		t.Fatalf("first crawl: %d pages, %d versions, want 4 and 4", len(first.Snapshot.Pages), len(first.Versions))
	}
	if o := first.Snapshot.Query.Order; o != crawl.OrderImportance {
		t.Errorf("crawled in order %q, want %q: a site cut short by pages keeps its most important pages", o, crawl.OrderImportance)
	}
	if first.Snapshot.Pages[0].Importance <= 0 {
		t.Errorf("start page importance %v, want > 0", first.Snapshot.Pages[0].Importance)
	}
	for url, id := range first.Versions {
		v, err := db.FindVersionByID(ctx, id)
		if err != nil {
			t.Fatalf("version %d of %s: %v", id, url, err)
		}
		body, err := wh.Body(ctx, id)
		if err != nil || !strings.Contains(string(body), "<title>") {
			t.Errorf("body of %s (version %d, resource %d): %.40q, %v", url, id, v.ResourceID, body, err)
		}
	}

	// Nothing changed: a second crawl reports nothing and stores no version.
	checkAnHourLater(t, m, db, sen, &now)
	if cs := changesOf(t, db, sen); len(cs) != 0 {
		t.Fatalf("unchanged site reported %d changes", len(cs))
	}

	site.Set(docsRelease("Install with go get. The v1 API is deprecated.", "Is it free? Yes, and open.", false), nil)
	checkAnHourLater(t, m, db, sen, &now)
	cs := changesOf(t, db, sen)
	if len(cs) != 1 {
		t.Fatalf("changed site reported %d changes, want 1", len(cs))
	}
	c := cs[0]
	wantSummary := "site " + site.URL("/docs/") + ": 1 page added, 1 page removed, 1 page changed"
	if c.Summary != wantSummary {
		t.Errorf("summary %q, want %q", c.Summary, wantSummary)
	}
	recs := siteRecords(t, c)
	type line struct {
		op  intent.Operation
		url string
	}
	var got []line
	for _, r := range recs {
		if r.Kind != intent.KindPage || r.Page == nil {
			t.Fatalf("record %+v is not a page", r)
		}
		got = append(got, line{r.Op, r.Page.URL})
	}
	want := []line{{intent.Insert, site.URL("/docs/new.html")}, {intent.Delete, site.URL("/docs/old.html")}, {intent.Update, site.URL("/docs/guide.html")}}
	if len(got) != len(want) {
		t.Fatalf("records %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("record %d: %v, want %v", i, got[i], want[i])
		}
	}
	guide := recs[2].Page
	if guide.Summary != "keywords {deprecated}: 1 keyword added" || recs[1].Page.Note != "no longer reached" {
		t.Errorf("guide's summary %q, old page's note %q", guide.Summary, recs[1].Page.Note)
	}
	// The guide's two versions are in the warehouse, and its history
	// shows them.
	oldBody, err1 := wh.Body(ctx, guide.OldVersion)
	newBody, err2 := wh.Body(ctx, guide.NewVersion)
	if err1 != nil || err2 != nil || strings.Contains(string(oldBody), "deprecated") || !strings.Contains(string(newBody), "deprecated") {
		t.Errorf("guide's versions %d and %d: %v %v", guide.OldVersion, guide.NewVersion, err1, err2)
	}
	if vs, _, err := db.FindVersions(ctx, vigil.VersionFilter{ResourceID: guide.ResourceID}); err != nil || len(vs) != 2 {
		t.Errorf("guide's history: %d versions, %v; want 2", len(vs), err)
	}
	start, err := db.FindResourceByURL(ctx, site.URL("/docs/"))
	if err != nil || c.ResourceID != start.ID || c.FromVersion != 0 || c.ToVersion == 0 {
		t.Errorf("change on resource %d from %d to %d; want the start page's (%v, %v)", c.ResourceID, c.FromVersion, c.ToVersion, start, err)
	}

	msgs := messagesOf(t, db, u, sen)
	if len(msgs) != 2 { // email and webhook
		t.Fatalf("%d messages, want 2", len(msgs))
	}
	msg := msgs[0]
	for _, part := range []string{
		"found changes on the site " + site.URL("/docs/"),
		"+ page added: " + site.URL("/docs/new.html") + ` "New"`,
		"- page removed: " + site.URL("/docs/old.html") + ` "Old" (no longer reached)`,
		"~ page changed: " + site.URL("/docs/guide.html") + ` "Guide": keywords {deprecated}: 1 keyword added`,
	} {
		if !strings.Contains(msg.Text, part) {
			t.Errorf("message text lacks %q:\n%s", part, msg.Text)
		}
	}
	if !strings.Contains(msg.HTML, `<a href="`+site.URL("/docs/new.html")+`">`) {
		t.Errorf("message HTML does not link the page added:\n%s", msg.HTML)
	}
	if strings.Contains(msg.Text, "faq.html") {
		t.Errorf("message lists the FAQ, whose change is not a keyword's:\n%s", msg.Text)
	}
	if msg.Subject != "[Vigil] docs: "+wantSummary || msg.URL != site.URL("/docs/") {
		t.Errorf("subject %q, URL %q", msg.Subject, msg.URL)
	}
}

// TestSiteSentinelAnyChange: with the default Monitor clause, every
// modified page is reported; a start page that fails is a failed check,
// not a site whose pages were all deleted.
func TestSiteSentinelAnyChange(t *testing.T) {
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, docsRelease("Install.", "Free.", true))
	now := time.Now().UTC()
	sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", "Create Sentinel docs Using site "+site.URL("/docs/")+" Every interactive")
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	runOnce(t, m, 1)

	site.Mu.Lock()
	site.Gone = map[string]bool{"/docs/": true}
	site.Mu.Unlock()
	checkAnHourLater(t, m, db, sen, &now)
	if cs := changesOf(t, db, sen); len(cs) != 0 {
		t.Fatalf("a failing start page reported %d changes", len(cs))
	}
	states, err := db.SentinelStates(context.Background(), []int64{sen.ID})
	if err != nil {
		t.Fatal(err)
	}
	if ps := decodeState(states[sen.ID]).Pages[site.URL("/docs/")]; ps == nil || !ps.FailingSince.Equal(now) {
		t.Errorf("the start page's run of failures: %+v, want one since %v", ps, now)
	}
	// The failure is a version of the start page, as a watched page's is:
	// its history and the dashboard's "last error" show it.
	start, err := db.FindResourceByURL(context.Background(), site.URL("/docs/"))
	if err != nil {
		t.Fatal(err)
	}
	if v, err := db.LatestVersion(context.Background(), start.ID); err != nil || v.Error == "" || v.Status != 404 {
		t.Errorf("the start page's newest version: %+v, %v; want its failure, HTTP 404", v, err)
	}

	site.Mu.Lock()
	site.Gone = nil
	site.Mu.Unlock()
	site.Set(docsRelease("Install again.", "Free of charge.", true), nil)
	checkAnHourLater(t, m, db, sen, &now)
	cs := changesOf(t, db, sen)
	if len(cs) != 1 {
		t.Fatalf("%d changes, want 1", len(cs))
	}
	var urls []string
	for _, r := range siteRecords(t, cs[0]) {
		if r.Op != intent.Update || r.Page.Summary == "" {
			t.Errorf("record %+v: want a page changed, with a summary", r)
		}
		urls = append(urls, r.Page.URL)
	}
	if want := site.URL("/docs/faq.html") + " " + site.URL("/docs/guide.html"); strings.Join(urls, " ") != want {
		t.Errorf("pages changed %v, want %s", urls, want)
	}
	if msgs := messagesOf(t, db, u, sen); len(msgs) != 0 {
		t.Errorf("an interactive sentinel queued %d messages", len(msgs))
	}
	states, err = db.SentinelStates(context.Background(), []int64{sen.ID})
	if err != nil {
		t.Fatal(err)
	}
	if ps := decodeState(states[sen.ID]).Pages[site.URL("/docs/")]; ps == nil || !ps.FailingSince.IsZero() {
		t.Errorf("the start page's run of failures after it worked again: %+v", ps)
	}
}

// TestSiteRecordRoundTrip: what a check keeps of a crawl reads back, and
// garbage is an error, not a panic.
func TestSiteRecordRoundTrip(t *testing.T) {
	site := crawltest.NewSite(t, docsRelease("a", "b", true))
	snap, err := crawl.Crawl(context.Background(), fetch.New(fetch.Options{AllowPrivateNetworks: true}), crawl.NewQuery(site.URL("/docs/")))
	if err != nil {
		t.Fatal(err)
	}
	r := &siteRecord{Snapshot: snap, Versions: map[string]int64{site.URL("/docs/"): 7}}
	back, err := decodeSite(mustEncode(t, r))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Versions, r.Versions) || len(back.Snapshot.Pages) != 4 || !sameSiteQuery(back.Snapshot.Query, snap.Query) {
		t.Errorf("round trip: %+v", back)
	}
	for _, bad := range [][]byte{nil, []byte("not gzip"), mustEncode(t, &siteRecord{})} {
		if _, err := decodeSite(bad); err == nil {
			t.Errorf("decodeSite(%q) accepted it", bad)
		}
	}
}

func mustEncode(t *testing.T, r *siteRecord) []byte {
	t.Helper()
	b, err := encodeSite(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSiteMessageBounded: a change of many pages lists the first ones in
// the message and says how many more; the webhook's records are bounded
// too, with the number left out.
func TestSiteMessageBounded(t *testing.T) {
	db, _, u := testStore(t)
	now := time.Now().UTC()
	sen := createSentinel(t, db, spec.NewChecker(now), u, "big", "Create Sentinel big Using site https://big.example/ Notify By webhook https://hooks.example.test/x Every immediate")
	p, err := decodePlan(sen)
	if err != nil {
		t.Fatal(err)
	}
	j := &job{s: sen, plan: p, st: decodeState(nil), rec: &vigil.CheckRecord{SentinelID: sen.ID}}
	var recs []intent.Change
	for i := range 1200 {
		recs = append(recs, intent.NewPageChange(intent.Insert, &intent.PageInfo{URL: "https://big.example/p" + strconv.Itoa(i)}))
	}
	m := &Monitor{Store: db}
	m.init()
	res, err := db.EnsureResource(context.Background(), "https://big.example/")
	if err != nil {
		t.Fatal(err)
	}
	m.reportSite(context.Background(), j, res.ID, 1, recs, nil, 0, now)
	if len(j.rec.Changes) != 1 || len(j.rec.Notifications) != 1 {
		t.Fatalf("%d changes, %d notifications; want 1 and 1", len(j.rec.Changes), len(j.rec.Notifications))
	}
	var msg vigil.Message
	if err := json.Unmarshal(j.rec.Notifications[0].Payload, &msg); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(msg.Text, "+ page added: https://big.example/p49\n") || strings.Contains(msg.Text, "/p50\n") ||
		!strings.Contains(msg.Text, "... and 1150 more") {
		t.Errorf("message text not bounded to 50 pages and the count of the others:\n%.3000s", msg.Text)
	}
	it := msg.Changes[0]
	var kept []intent.Change
	if err := json.Unmarshal(it.Change.Records, &kept); err != nil || len(kept) == 0 || len(kept)+it.RecordsOmitted != 1200 || it.RecordsOmitted == 0 {
		t.Errorf("webhook records: %d kept, %d omitted, %v; want some of 1200 and the rest counted", len(kept), it.RecordsOmitted, err)
	}
	if len(j.rec.Changes[0].Records) < 1200*20 {
		t.Errorf("stored change keeps %d bytes of records: want all 1200 pages", len(j.rec.Changes[0].Records))
	}
}

// etagSite serves pages with an ETag and answers 304 to a request that
// sends it back, counting those.
type etagSite struct {
	mu    sync.Mutex
	pages map[string]string
	full  map[string]int // 200 answers by path
	not   int            // 304 answers
}

func (s *etagSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	body, ok := s.pages[r.URL.Path]
	if !ok {
		http.NotFound(w, r)
		return
	}
	etag := `"` + strconv.Itoa(len(body)) + "-" + strconv.Itoa(int(crc32.ChecksumIEEE([]byte(body)))) + `"`
	w.Header().Set("ETag", etag)
	if r.Header.Get("If-None-Match") == etag {
		s.not++
		w.WriteHeader(http.StatusNotModified)
		return
	}
	s.full[r.URL.Path]++
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	io.WriteString(w, body)
}

// TestSiteConditional: a page stored before is asked for with its ETag;
// one that did not change answers 304 and is read from the warehouse (its
// links followed as before), so that only changed pages travel again.
func TestSiteConditional(t *testing.T) {
	db, wh, u := testStore(t)
	es := &etagSite{full: map[string]int{}, pages: map[string]string{
		"/":           `<html><body><a href="/a">A</a> <a href="/b">B</a></body></html>`,
		"/a":          `<html><body><p>A one.</p></body></html>`,
		"/b":          `<html><body><p>B one.</p></body></html>`,
		"/robots.txt": "User-agent: *\n",
	}}
	srv := httptest.NewServer(es)
	t.Cleanup(srv.Close)
	now := time.Now().UTC()
	sen := createSentinel(t, db, spec.NewChecker(now), u, "s", "Create Sentinel s Using site "+srv.URL+"/ Every interactive")
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	runOnce(t, m, 1)
	es.mu.Lock()
	es.pages["/b"] = `<html><body><p>B two.</p></body></html>`
	es.mu.Unlock()
	checkAnHourLater(t, m, db, sen, &now)
	es.mu.Lock()
	defer es.mu.Unlock()
	if es.not != 2 || es.full["/"] != 1 || es.full["/a"] != 1 || es.full["/b"] != 2 {
		t.Errorf("%d answers 304, full answers %v; want 2 (the index and A) and B twice", es.not, es.full)
	}
	cs := changesOf(t, db, sen)
	if len(cs) != 1 {
		t.Fatalf("%d changes, want 1", len(cs))
	}
	recs := siteRecords(t, cs[0])
	if len(recs) != 1 || recs[0].Op != intent.Update || recs[0].Page.URL != srv.URL+"/b" {
		t.Errorf("records %+v, want B changed", recs)
	}
}

// TestSiteEdited: a sentinel edited to crawl its site otherwise takes its
// next crawl as the new reference, rather than reporting the pages the
// new bounds add or drop.
func TestSiteEdited(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, docsRelease("Install.", "Free.", true))
	now := time.Now().UTC()
	sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", "Create Sentinel docs Using site "+site.URL("/docs/")+" Every interactive")
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	runOnce(t, m, 1)

	// Depth 0: the start page alone, three pages fewer.
	editSpec(t, db, u, sen, "Create Sentinel docs Using site "+site.URL("/docs/")+" depth 0 Every interactive", now)
	checkAnHourLater(t, m, db, sen, &now)
	if cs := changesOf(t, db, sen); len(cs) != 0 {
		t.Fatalf("an edited site sentinel reported %d changes: %s", len(cs), cs[0].Summary)
	}
	raw, _, err := db.SiteSnapshot(ctx, sen.ID)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := decodeSite(raw); err != nil || len(r.Snapshot.Pages) != 1 {
		t.Errorf("the new reference: %v", err)
	}
}

// TestSiteCrawlWithinLease: a site's check ends before its claim's lease
// does, so that no other worker claims the sentinel meanwhile and crawls
// it again from the same reference (both would report the same change).
// A crawl too long for the lease is cut: the check fails, saying why, and
// the reference stays.
func TestSiteCrawlWithinLease(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	site := twelvePageSite(t)
	now := time.Now().UTC()
	sen := createSentinel(t, db, spec.NewChecker(now), u, "slow", "Create Sentinel slow Using site "+site.URL("/")+" Every interactive")
	// 13 requests 100ms apart: longer than the lease of a second.
	m := siteMonitor(db, wh, fetch.Options{HostDelay: 100 * time.Millisecond}, &now)
	m.Lease = time.Second
	runOnce(t, m, 1)
	if _, _, err := db.SiteSnapshot(ctx, sen.ID); vigil.ErrorCode(err) != vigil.ENOTFOUND {
		t.Errorf("a crawl longer than its lease was recorded as the reference: %v", err)
	}
	states, err := db.SentinelStates(ctx, []int64{sen.ID})
	if err != nil {
		t.Fatal(err)
	}
	if ps := decodeState(states[sen.ID]).Pages[site.URL("/")]; ps == nil || !ps.FailingSince.Equal(now) {
		t.Errorf("the site's run of failures: %+v, want one since %v", ps, now)
	}

	// With a lease long enough, the same crawl is the reference.
	m2 := siteMonitor(db, wh, fetch.Options{HostDelay: 100 * time.Millisecond}, &now)
	m2.Lease = time.Minute
	checkAnHourLater(t, m2, db, sen, &now)
	raw, _, err := db.SiteSnapshot(ctx, sen.ID)
	if err != nil {
		t.Fatal(err)
	}
	if r, err := decodeSite(raw); err != nil || len(r.Snapshot.Pages) != 13 {
		t.Errorf("the reference after a crawl within its lease: %v", err)
	}
}

// failingVersions is a store whose versions of some URLs cannot be
// written, as a full disk would have it.
type failingVersions struct {
	ResourceStore
	mu   sync.Mutex
	fail map[int64]bool // by resource id
}

func (f *failingVersions) AppendVersion(ctx context.Context, a *vigil.Append) error {
	f.mu.Lock()
	fail := f.fail[a.Version.ResourceID]
	f.mu.Unlock()
	if fail {
		return errors.New("disk full")
	}
	return f.ResourceStore.AppendVersion(ctx, a)
}

// TestSiteStoreFails: a crawl a page of which could not be stored is not
// the reference (that page would have no version in it to compare with,
// and its change would be lost): the check fails, and the next one
// compares with the crawl before it.
func TestSiteStoreFails(t *testing.T) {
	ctx := context.Background()
	db, _, u := testStore(t)
	codec, err := zstd.New(0)
	if err != nil {
		t.Fatal(err)
	}
	fv := &failingVersions{ResourceStore: CachedResources(db), fail: map[int64]bool{}}
	wh, err := warehouse.New(fv, warehouse.Options{Codec: codec})
	if err != nil {
		t.Fatal(err)
	}
	site := crawltest.NewSite(t, docsRelease("Install.", "Free.", true))
	now := time.Now().UTC()
	sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", "Create Sentinel docs Using site "+site.URL("/docs/")+" Monitor keywords {deprecated} Every interactive")
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	runOnce(t, m, 1)

	guide, err := db.FindResourceByURL(ctx, site.URL("/docs/guide.html"))
	if err != nil {
		t.Fatal(err)
	}
	site.Set(docsRelease("Install. The v1 API is deprecated.", "Free.", true), nil)
	fv.mu.Lock()
	fv.fail[guide.ID] = true
	fv.mu.Unlock()
	checkAnHourLater(t, m, db, sen, &now)

	fv.mu.Lock()
	fv.fail[guide.ID] = false
	fv.mu.Unlock()
	checkAnHourLater(t, m, db, sen, &now)
	cs := changesOf(t, db, sen)
	if len(cs) != 1 {
		t.Fatalf("%d changes, want 1: the guide's keyword", len(cs))
	}
	recs := siteRecords(t, cs[0])
	if len(recs) != 1 || recs[0].Page.URL != guide.URL || recs[0].Page.Summary != "keywords {deprecated}: 1 keyword added" {
		t.Errorf("records %+v, want the guide changed", recs)
	}
}

// TestSameSiteQuery: a crawl is compared with the previous one only when
// both ran one query; an order left empty (crawls made before there were
// orders) is breadth first, and another order is another query, since a
// site cut short by its pages keeps other pages in another order.
func TestSameSiteQuery(t *testing.T) {
	base := crawl.Query{Start: "https://a.example/docs/", MaxDepth: 3, MaxPages: 100}
	with := func(f func(*crawl.Query)) crawl.Query { q := base; f(&q); return q }
	tests := []struct {
		name string
		a, b crawl.Query
		want bool
	}{
		{"equal", base, base, true},
		{"empty order is breadth", base, with(func(q *crawl.Query) { q.Order = crawl.OrderBreadth }), true},
		{"breadth and importance", with(func(q *crawl.Query) { q.Order = crawl.OrderBreadth }), with(func(q *crawl.Query) { q.Order = crawl.OrderImportance }), false},
		{"pages", base, with(func(q *crawl.Query) { q.MaxPages = 99 }), false},
		{"scope", base, with(func(q *crawl.Query) { q.Scope = []string{"https://a.example/"} }), false},
		// A scope is a set: a crawl made before the scope was recorded
		// sorted, of a sentinel whose scopes were written in another
		// order, ran the same query (its next crawl is no new reference).
		{"scope order", with(func(q *crawl.Query) { q.Scope = []string{"https://a.example/b", "https://a.example/a"} }),
			with(func(q *crawl.Query) { q.Scope = []string{"https://a.example/a", "https://a.example/b"} }), true},
	}
	for _, tc := range tests {
		if got := sameSiteQuery(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: sameSiteQuery = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestSiteKeyScopeOrder: sentinels that watch one site with its scopes
// written in another order, or one twice, share its crawls.
func TestSiteKeyScopeOrder(t *testing.T) {
	q := crawl.Query{Start: "https://a.example/docs/", Scope: []string{"https://a.example/b", "https://a.example/a"}, MaxDepth: 3, MaxPages: 100}
	r := q
	r.Scope = []string{"https://a.example/a", "https://A.example/b", "https://a.example/a"}
	if siteKey(q) != siteKey(r) {
		t.Errorf("siteKey of scope %q = %q, of %q = %q; want them equal", q.Scope, siteKey(q), r.Scope, siteKey(r))
	}
	r.Scope = []string{"https://a.example/a"}
	if siteKey(q) == siteKey(r) {
		t.Errorf("siteKey of scope %q = that of %q", q.Scope, r.Scope)
	}
}

// TestSiteBinaryStart: a site whose start page is a binary document (a
// PDF, whose body the fetcher does not return and the warehouse does not
// store) records its changes, on the version of the start page that says
// why it has no body, as a page sentinel on it stores; the crawl it
// found them in is the next reference.
func TestSiteBinaryStart(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	pdf := []byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<<>>\nendobj\n")
	day := time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)
	site := crawltest.NewSite(t, crawltest.Release{"/report.pdf": pdf})
	site.Set(crawltest.Release{"/report.pdf": pdf}, map[string]time.Time{"/report.pdf": day})
	now := time.Now().UTC()
	sen := createSentinel(t, db, spec.NewChecker(now), u, "report", "Create Sentinel report Using site "+site.URL("/report.pdf")+" Every interactive")
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	runOnce(t, m, 1)

	// A new text under a new date: the same bytes under a new date are
	// the same version (crawl.ByContent), as a text page's are.
	pdf2 := []byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Title (v2) >>\nendobj\n")
	site.Set(crawltest.Release{"/report.pdf": pdf2}, map[string]time.Time{"/report.pdf": day.AddDate(0, 1, 0)})
	checkAnHourLater(t, m, db, sen, &now)
	cs := changesOf(t, db, sen)
	if len(cs) != 1 {
		t.Fatalf("%d changes, want 1: the start page, a new text", len(cs))
	}
	recs := siteRecords(t, cs[0])
	if len(recs) != 1 || recs[0].Op != intent.Update || recs[0].Page.URL != site.URL("/report.pdf") {
		t.Errorf("records %+v, want the start page changed", recs)
	}
	start, err := db.FindResourceByURL(ctx, site.URL("/report.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := db.FindVersionByID(ctx, cs[0].ToVersion)
	if err != nil || v.ResourceID != start.ID || !strings.Contains(v.Error, "binary content") {
		t.Errorf("change on resource %d, to version %+v, %v; want a version of %d saying the page is binary", cs[0].ResourceID, v, err, start.ID)
	}
	states, err := db.SentinelStates(ctx, []int64{sen.ID})
	if err != nil {
		t.Fatal(err)
	}
	if ps := decodeState(states[sen.ID]).Pages[site.URL("/report.pdf")]; ps == nil || !ps.FailingSince.IsZero() {
		t.Errorf("the site's run of failures: %+v, want none", ps)
	}

	// The crawl that found the change is the reference: nothing more.
	checkAnHourLater(t, m, db, sen, &now)
	if cs := changesOf(t, db, sen); len(cs) != 1 {
		t.Errorf("%d changes after an unchanged check, want still 1", len(cs))
	}
}

// editSpec replaces the specification of sentinel s with that of src.
func editSpec(t *testing.T, db *sqlite.DB, u *vigil.User, s *vigil.Sentinel, src string, now time.Time) {
	t.Helper()
	ctx := context.Background()
	tmp := createSentinel(t, db, spec.NewChecker(now), u, "tmp", strings.Replace(src, "Sentinel "+s.Name+" ", "Sentinel tmp ", 1))
	cur, err := db.FindSentinelByID(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	cur.Source, cur.Spec = src, tmp.Spec
	if err := db.UpdateSentinel(ctx, cur); err != nil {
		t.Fatal(err)
	}
	if err := db.DeleteSentinel(ctx, tmp.ID); err != nil {
		t.Fatal(err)
	}
}

// TestSiteEditedAway: a sentinel edited from a site to a page drops its
// crawl at its first check as a page's; edited back to the same site, its
// next crawl is a new reference, rather than comparing with the crawl of
// long ago and reporting all that changed meanwhile as one change.
func TestSiteEditedAway(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, docsRelease("Install.", "Free.", true))
	now := time.Now().UTC()
	siteSrc := "Create Sentinel docs Using site " + site.URL("/docs/") + " Every interactive"
	sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", siteSrc)
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	runOnce(t, m, 1)

	editSpec(t, db, u, sen, "Create Sentinel docs Using "+site.URL("/docs/guide.html")+" Every interactive", now)
	checkAnHourLater(t, m, db, sen, &now)
	if _, _, err := db.SiteSnapshot(ctx, sen.ID); vigil.ErrorCode(err) != vigil.ENOTFOUND {
		t.Errorf("the site's crawl after a check as a page: %v, want it dropped", err)
	}

	site.Set(docsRelease("Install again.", "Free of charge.", false), nil)
	editSpec(t, db, u, sen, siteSrc, now)
	checkAnHourLater(t, m, db, sen, &now)
	if cs := changesOf(t, db, sen); len(cs) != 0 {
		t.Fatalf("edited back to its site, the sentinel reported %d changes: %s", len(cs), cs[0].Summary)
	}
	site.Set(docsRelease("Install again.", "Free of charge, forever.", false), nil)
	checkAnHourLater(t, m, db, sen, &now)
	cs := changesOf(t, db, sen)
	if len(cs) != 1 {
		t.Fatalf("%d changes, want 1: the FAQ", len(cs))
	}
	if recs := siteRecords(t, cs[0]); len(recs) != 1 || recs[0].Page.URL != site.URL("/docs/faq.html") {
		t.Errorf("records %+v, want the FAQ changed", recs)
	}
}

// TestSiteUnread: a page that a check's crawl leaves unread, though a page
// read still links to it, is removed "still linked" with the bound of the
// site that cut it, and a page read that was linked but unread before is
// added "linked before"; they were "no longer reached" (and nothing),
// false alarms at the edge of a site larger than its pages or depth.
func TestSiteUnread(t *testing.T) {
	db, wh, u := testStore(t)
	page := func(title, links string) []byte {
		return []byte(`<html><head><title>` + title + `</title></head><body>` + links + `</body></html>`)
	}
	site := crawltest.NewSite(t, crawltest.Release{
		"/docs/index.html": page("Docs", `<a href="a.html">A</a>`),
		"/docs/a.html":     page("A", `<a href="b.html">B</a>`),
		"/docs/b.html":     page("B", ``),
	})
	now := time.Now().UTC()
	src := "Create Sentinel docs Using site " + site.URL("/docs/") + " depth 1 pages 2 Every immediate"
	sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", src)
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	runOnce(t, m, 1) // the reference: the index and a; b is beyond the depth
	notes := func(want map[string]string) {
		t.Helper()
		cs := changesOf(t, db, sen) // the latest first
		got := map[string]string{}
		for _, r := range siteRecords(t, cs[0]) {
			got[string(r.Op)+" "+r.Page.URL] = r.Page.Note
		}
		if !maps.Equal(got, want) {
			t.Errorf("records (op URL: note) %q, want %q", got, want)
		}
	}
	// b linked from the index too: not read, the page limit reached.
	site.Set(crawltest.Release{
		"/docs/index.html": page("Docs", `<a href="a.html">A</a> <a href="b.html">B</a>`),
		"/docs/a.html":     page("A", `<a href="b.html">B</a>`),
		"/docs/b.html":     page("B", ``),
	}, nil)
	checkAnHourLater(t, m, db, sen, &now)
	// With 2 pages, the index and b (linked first, of two as important)
	// are read, a is not.
	site.Set(crawltest.Release{
		"/docs/index.html": page("Docs", `<a href="b.html">B</a> <a href="a.html">A</a>`),
		"/docs/a.html":     page("A", `<a href="b.html">B</a>`),
		"/docs/b.html":     page("B", ``),
	}, nil)
	checkAnHourLater(t, m, db, sen, &now)
	notes(map[string]string{
		"insert " + site.URL("/docs/b.html"): "linked before, not read: the crawl stopped at its page limit (pages 2)",
		"delete " + site.URL("/docs/a.html"): "still linked, not read: the crawl stopped at its page limit (pages 2)",
		"update " + site.URL("/docs/"):       "",
	})
	// The index links a alone again: a is read, b beyond the depth.
	site.Set(crawltest.Release{
		"/docs/index.html": page("Docs", `<a href="a.html">A</a>`),
		"/docs/a.html":     page("A", `<a href="b.html">B</a>`),
		"/docs/b.html":     page("B", ``),
	}, nil)
	checkAnHourLater(t, m, db, sen, &now)
	notes(map[string]string{
		"insert " + site.URL("/docs/a.html"): "linked before, not read: the crawl stopped at its page limit (pages 2)",
		"delete " + site.URL("/docs/b.html"): "still linked, beyond the site's depth (depth 1)",
		"update " + site.URL("/docs/"):       "",
	})
}

// TestSiteReadAsText: a page rewritten so that it no longer parses (600
// nested <div>s) is read as its source text, without title or links: its
// change says so and why, and the page it linked to is no longer reached
// because of it, which its removal says; read as a page again, it says
// that.
func TestSiteReadAsText(t *testing.T) {
	db, wh, u := testStore(t)
	page := func(title, links string) []byte {
		return []byte(`<html><head><title>` + title + `</title></head><body>` + links + `</body></html>`)
	}
	good := crawltest.Release{
		"/docs/index.html": page("Docs", `<a href="p.html">P</a>`),
		"/docs/p.html":     page("P", `<div><a href="q.html">Q</a></div>`),
		"/docs/q.html":     page("Q", ``),
	}
	site := crawltest.NewSite(t, good)
	now := time.Now().UTC()
	src := "Create Sentinel docs Using site " + site.URL("/docs/") + " Every immediate"
	sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", src)
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	runOnce(t, m, 1)
	notes := func() map[string]string {
		t.Helper()
		cs := changesOf(t, db, sen) // the latest first
		got := map[string]string{}
		for _, r := range siteRecords(t, cs[0]) {
			got[string(r.Op)+" "+r.Page.URL] = r.Page.Note
		}
		return got
	}
	site.Set(crawltest.Release{
		"/docs/index.html": good["/docs/index.html"],
		// Its link to q.html with a template's placeholder for a
		// fragment: a page's link to q.html, which no reading of a text
		// takes for a URL (intent's markupRefs).
		"/docs/p.html": page("P", strings.Repeat("<div>", 600)+`<a href="q.html#{top}">Q</a>`+strings.Repeat("</div>", 600)),
		"/docs/q.html": good["/docs/q.html"],
	}, nil)
	checkAnHourLater(t, m, db, sen, &now)
	got := notes()
	if n := got["update "+site.URL("/docs/p.html")]; !strings.HasPrefix(n, "read as text: ") || !strings.Contains(n, "nested more than 512 deep") {
		t.Errorf("note of p.html %q, want read as text and why (all: %q)", n, got)
	}
	if n, want := got["delete "+site.URL("/docs/q.html")], "no longer reached: "+site.URL("/docs/p.html")+" is read as text"; n != want {
		t.Errorf("note of q.html %q, want %q", n, want)
	}
	site.Set(good, nil)
	checkAnHourLater(t, m, db, sen, &now)
	if n := notes()["update "+site.URL("/docs/p.html")]; n != "read as a page again" {
		t.Errorf("note of p.html read as a page again: %q", n)
	}
}

// twelvePageSite serves an index linking to twelve pages: thirteen
// requests, which a host delay of 100ms makes longer than a lease of a
// second.
func twelvePageSite(t *testing.T) *crawltest.Site {
	pages := crawltest.Release{}
	index := `<html><body>`
	for i := range 12 {
		p := "/p" + strconv.Itoa(i) + ".html"
		index += `<a href="` + p + `">` + p + `</a> `
		pages[p] = []byte(`<html><body><p>Page ` + strconv.Itoa(i) + `.</p></body></html>`)
	}
	pages["/index.html"] = []byte(index + `</body></html>`)
	return crawltest.NewSite(t, pages)
}
