package monitor

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/crawl/crawltest"
	"github.com/vigil-web/vigil/internal/fetch"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/spec"
)

// deepPage is a page nested deeper than the HTML parser takes, read as
// its source text.
func deepPage(leaf string) string {
	return "<html><body>" + strings.Repeat("<div>", 600) + leaf + strings.Repeat("</div>", 600) + "</body></html>"
}

// wantRecorded checks that why version id is read as text is recorded
// with it, as the monitor found it parsing the body (want, a prefix; ""
// for a page).
func wantRecorded(t *testing.T, st vigil.VersionStore, id int64, want string) {
	t.Helper()
	v, err := st.FindVersionByID(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if v.TreeReading == 0 || !strings.HasPrefix(v.ReadAsText, want) || (want == "") != (v.ReadAsText == "") {
		t.Errorf("version %d (#%d): read as text %q under reading %d, want %q... recorded", id, v.Seq, v.ReadAsText, v.TreeReading, want)
	}
}

// TestPageReadAsTextRecorded: the versions of a page the monitor compared
// have recorded why each is read as text, from the monitor's own parse
// (the warehouse reads no body only to know it).
func TestPageReadAsTextRecorded(t *testing.T) {
	db, wh, u := testStore(t)
	s := createSentinel(t, db, spec.NewChecker(time.Now().UTC()), u, "deep", "Create Sentinel deep Using "+pageA+
		" Monitor any change Fetch 1 hour Notify By email owner@example.test\n")
	f := &pagesFetcher{pages: map[string]string{pageA: "<p>a page</p>"}}
	m := &Monitor{Store: db, Warehouse: wh, Fetcher: f, Policy: schedule.Policy{MinInterval: time.Minute}}
	check := func() {
		t.Helper()
		makeDue(t, db, s, time.Now().UTC())
		runOnce(t, m, 1)
	}
	check()
	f.set(pageA, deepPage("before"))
	check()
	cs := changesOf(t, db, s)
	if len(cs) != 1 {
		t.Fatalf("%d changes, want 1", len(cs))
	}
	wantRecorded(t, db, cs[0].FromVersion, "")
	wantRecorded(t, db, cs[0].ToVersion, "parse HTML: elements nested more than 512 deep")
}

// TestSitePageReadAsTextRecorded: the HTML pages a site's crawl read have
// recorded why each is read as text, from the crawl's own parse.
func TestSitePageReadAsTextRecorded(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	site := crawltest.NewSite(t, crawltest.Release{
		"/docs/index.html": []byte(`<html><head><title>Docs</title></head><body><a href="p.html">P</a></body></html>`),
		"/docs/p.html":     []byte(deepPage("p")),
	})
	now := time.Now().UTC()
	sen := createSentinel(t, db, spec.NewChecker(now), u, "docs", "Create Sentinel docs Using site "+site.URL("/docs/")+" depth 2 pages 20 Monitor any change Notify By email owner@example.test Every immediate")
	m := siteMonitor(db, wh, fetch.Options{}, &now)
	runOnce(t, m, 1)
	raw, _, err := db.SiteSnapshot(ctx, sen.ID)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := decodeSite(raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Versions) != 2 {
		t.Fatalf("%d versions stored, want 2: %v", len(rec.Versions), rec.Versions)
	}
	wantRecorded(t, db, rec.Versions[site.URL("/docs/")], "")
	wantRecorded(t, db, rec.Versions[site.URL("/docs/p.html")], "parse HTML: elements nested more than 512 deep")
}

// TestRecordReadAsTextOfVersionDropped: recording why a version is read as
// text fails with ENOTFOUND when retention dropped the version meanwhile,
// which is expected and not logged; another failure is.
func TestRecordReadAsTextOfVersionDropped(t *testing.T) {
	ctx := context.Background()
	db, wh, _ := testStore(t)
	var log bytes.Buffer
	m := &Monitor{Store: db, Warehouse: wh, Logger: slog.New(slog.NewTextHandler(&log, nil))}
	const gone = 12345 // no such version
	m.unrecorded.add(&vigil.Version{ID: gone})
	m.recordReadAsText(ctx, gone, "")
	if log.Len() != 0 {
		t.Errorf("a version retention dropped is logged: %s", log.String())
	}
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	m.unrecorded.add(&vigil.Version{ID: gone})
	m.recordReadAsText(canceled, gone, "")
	if !strings.Contains(log.String(), "record why a version is read as text") {
		t.Errorf("another failure is not logged: %q", log.String())
	}
}

// TestRunFillsReadAsText: the monitor, idle, reads why the versions whose
// reason is not known are read as text, in the background, until all are
// known.
func TestRunFillsReadAsText(t *testing.T) {
	ctx := context.Background()
	db, wh, _ := testStore(t)
	var ids []int64
	for i := range 2 * warehouse.FillReadAsTextBatch { // more than one batch
		body := "<p>a page</p>"
		if i%2 == 1 {
			body = deepPage("x")
		}
		v, err := wh.Put(ctx, &warehouse.Fetch{URL: pageA, FetchedAt: time.Date(2026, 1, 1, i, 0, 0, 0, time.UTC), Status: 200,
			ContentType: "text/html", Body: []byte(body)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, v.ID)
	}
	unknown := func() int {
		vs, err := db.FindVersionsReadAsTextUnknown(ctx, 1, 0, len(ids)) // recorded under no reading
		if err != nil {
			t.Fatal(err)
		}
		return len(vs)
	}
	if n := unknown(); n != len(ids) {
		t.Fatalf("%d versions not known before the monitor runs, want %d", n, len(ids))
	}
	m := &Monitor{Store: db, Warehouse: wh, Policy: schedule.Policy{MinInterval: time.Minute}}
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- m.Run(runCtx, time.Hour, nil) }() // no poll: only the fill, without waiting, makes them known
	deadline := time.Now().Add(time.Minute)
	for unknown() > 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
	if n := unknown(); n != 0 {
		t.Fatalf("%d versions still not known", n)
	}
	for i, id := range ids {
		want := ""
		if i%2 == 1 {
			want = "parse HTML: elements nested more than 512 deep"
		}
		wantRecorded(t, db, id, want)
	}
}
