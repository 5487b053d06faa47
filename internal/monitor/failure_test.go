package monitor

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/internal/warehouse"
	"github.com/vigil-web/vigil/spec"
)

// TestFailureNotice: a page that fails for FailureNotice is named to the
// sentinel's contacts once, however many checks fail after it, and again
// once when it works; a failure shorter than that, and the sentinels that
// notify no one, stay quiet. Before, a page gone for good showed only on
// the dashboard.
func TestFailureNotice(t *testing.T) {
	db, wh, u := testStore(t)
	start := time.Now().UTC().Truncate(time.Minute)
	p := &onePage{andPages: &andPages{db: db, u: u, clock: start}, start: start}
	src := "Create Sentinel watch Using " + pageA + " Monitor any change Fetch 1 hour Notify By email owner@example.test\n"
	p.s = createSentinel(t, db, spec.NewChecker(p.clock), u, "watch", src)
	quiet := createSentinel(t, db, spec.NewChecker(p.clock), u, "quiet",
		"Create Sentinel quiet Using "+pageA+" Monitor any change Fetch 1 hour Every interactive\n")
	p.f = &pagesFetcher{pages: map[string]string{pageA: pageWith("a0")}}
	p.m = &Monitor{Store: db, Warehouse: wh, Fetcher: p.f, Policy: schedule.Policy{MinInterval: time.Minute},
		Now: func() time.Time { return p.clock }, FailureNotice: 3 * time.Hour,
		DashboardLink: func(id int64) string { return fmt.Sprintf("https://vigil.test/sentinels/%d", id) },
		MessageLink: func(s *vigil.Sentinel) string {
			return fmt.Sprintf("https://vigil.test/feeds/%d/gen%d/atom.xml", s.ID, s.FeedGeneration)
		}}
	run := func(at time.Duration) {
		t.Helper()
		p.clock = start.Add(at)
		makeDue(t, db, p.s, p.clock)
		makeDue(t, db, quiet, p.clock)
		runOnce(t, p.m, 2)
	}
	subjects := func() []string {
		var out []string
		for _, msg := range messagesOf(t, db, u, p.s) {
			out = append(out, msg.Subject)
		}
		return out
	}
	run(0)             // the first version
	p.f.set(pageA, "") // connection refused
	run(time.Hour)     // fails: too soon to tell
	run(2 * time.Hour)
	p.change("a0")
	run(3 * time.Hour) // works again, unannounced: the failure was short
	if got := subjects(); len(got) != 0 {
		t.Fatalf("messages after a failure of an hour: %q", got)
	}
	p.f.set(pageA, "") // connection refused
	for h := 4; h <= 9; h++ {
		run(time.Duration(h) * time.Hour) // fails from 4h: told at 7h, once
	}
	got := subjects()
	if len(got) != 1 || !strings.Contains(got[0], pageA+" fails since "+start.Add(4*time.Hour).Format("2006-01-02 15:04 UTC")) {
		t.Fatalf("messages after a failure of five hours: %q", got)
	}
	msgs := messagesOf(t, db, u, p.s)
	if f := msgs[0].Failure; f == nil || f.URL != pageA || f.Recovered || !strings.Contains(f.Error, "connection refused") ||
		!strings.Contains(msgs[0].Text, "connection refused") || msgs[0].Changes == nil {
		t.Errorf("the failure notice: %+v", msgs[0])
	}
	p.change("a0")
	run(10 * time.Hour)
	run(11 * time.Hour)
	got = subjects()
	if len(got) != 2 || !strings.HasSuffix(got[1], pageA+" works again") {
		t.Fatalf("messages after the page came back: %q", got)
	}
	if f := messagesOf(t, db, u, p.s)[1].Failure; f == nil || !f.Recovered {
		t.Errorf("the recovery notice: %+v", f)
	}
	// Both link to the sentinel's page and to its feed, as a change's
	// message does; they linked to its page only.
	dashboard := fmt.Sprintf("https://vigil.test/sentinels/%d", p.s.ID)
	feed := fmt.Sprintf("https://vigil.test/feeds/%d/gen0/atom.xml", p.s.ID)
	for _, msg := range messagesOf(t, db, u, p.s) {
		for _, link := range []string{dashboard, feed} {
			if !strings.Contains(msg.Text, link) || !strings.Contains(msg.HTML, `href="`+link+`"`) {
				t.Errorf("%q does not link to %s:\n%s\n%s", msg.Subject, link, msg.Text, msg.HTML)
			}
		}
	}
	if got := messagesOf(t, db, u, quiet); len(got) != 0 {
		t.Errorf("an interactive sentinel was sent %d messages", len(got))
	}
	if cs := changesOf(t, db, p.s); len(cs) != 0 {
		t.Errorf("a failure recorded as %d changes", len(cs))
	}
}

// TestBackFromFailure: a page read again after its newest version became
// a failure is stored again, whether its body is read in full or it
// answers 304 Not Modified to the validators of its last good version:
// the store's newest version is the page's content, not the failure.
func TestBackFromFailure(t *testing.T) {
	const (
		url = "http://back.example/page"
		a   = "<html><body><p>A</p></body></html>"
	)
	for name, tc := range map[string]struct{ etags, shared bool }{
		"body":        {},
		"304":         {etags: true},
		"shared, 304": {etags: true, shared: true},
	} {
		t.Run(name, func(t *testing.T) {
			db, wh, _ := testStore(t)
			var pages etagFetcher
			fetcher := withETags(&pages, tc.etags)
			m := &Monitor{Store: db, Warehouse: wh, Fetcher: fetcher, SharedStore: tc.shared}
			m.init()
			for _, body := range []string{a, "!connection refused", a} {
				pages.set(url, body)
				m.fetchPage(context.Background(), url, false, time.Now())
			}
			v := newestVersion(t, db, url)
			if v.Error != "" || v.ContentHash != warehouse.Hash([]byte(a)) {
				t.Errorf("newest version %d (%q), want the page's content read after the failure", v.ID, v.Error)
			}
			if v.Seq != 3 {
				t.Errorf("newest version %d has seq %d, want 3: the failure's successor", v.ID, v.Seq)
			}
		})
	}
}
