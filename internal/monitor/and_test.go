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
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/spec"
)

// pagesFetcher serves pages whose bodies the test sets, by URL.
type pagesFetcher struct {
	mu    sync.Mutex
	pages map[string]string
}

func (f *pagesFetcher) set(url, body string) {
	f.mu.Lock()
	f.pages[url] = body
	f.mu.Unlock()
}

func (f *pagesFetcher) Fetch(ctx context.Context, req *vigil.FetchRequest) (*vigil.FetchResult, error) {
	f.mu.Lock()
	body := f.pages[req.URL]
	f.mu.Unlock()
	if body == "" {
		return nil, fmt.Errorf("fetch %s: connection refused", req.URL)
	}
	return &vigil.FetchResult{URL: req.URL, Status: 200, ContentType: "text/html", Charset: "utf-8",
		Body: []byte(body), FetchedAt: time.Now()}, nil
}

// TestUsingAnd runs sentinels on two pages with a real SQLite store: with
// "Using A AND B" a change on A alone is not reported; it waits, grows
// with A's next change, and is reported with B's when B changes; a waiting
// change that the page takes back is dropped. "Using A OR B" reports A's
// change at once.
func TestUsingAnd(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	now := time.Now().UTC()
	checker := spec.NewChecker(now)
	create := func(name, using string) *vigil.Sentinel {
		t.Helper()
		return createSentinel(t, db, checker, u, name, "Create Sentinel "+name+" Using "+using+
			" Monitor any change Fetch 1 hour Notify By email owner@example.test\n")
	}
	const a, b = pageA, pageB
	both := create("both", a+" AND "+b)
	either := create("either", a+" OR "+b)

	f := &pagesFetcher{pages: map[string]string{a: pageWith("a0"), b: pageWith("b0")}}
	m := &Monitor{Store: db, Warehouse: wh, Fetcher: f, Policy: schedule.Policy{MinInterval: time.Minute}}
	versions := map[string]int64{} // page text -> version id
	check := func() {
		t.Helper()
		for _, s := range []*vigil.Sentinel{both, either} {
			makeDue(t, db, s, time.Now().UTC())
		}
		runOnce(t, m, 2)
		for _, url := range []string{a, b} {
			r, err := db.FindResourceByURL(ctx, url)
			if err != nil {
				t.Fatal(err)
			}
			vs, _, err := db.FindVersions(ctx, vigil.VersionFilter{ResourceID: r.ID})
			if err != nil {
				t.Fatal(err)
			}
			f.mu.Lock()
			text := f.pages[url]
			f.mu.Unlock()
			if _, ok := versions[text]; !ok {
				versions[text] = vs[len(vs)-1].ID
			}
		}
	}
	changes := func(s *vigil.Sentinel) [][2]int64 {
		t.Helper()
		var out [][2]int64
		for _, c := range changesOf(t, db, s) {
			out = append(out, [2]int64{c.FromVersion, c.ToVersion})
		}
		return out
	}
	want := func(s *vigil.Sentinel, pairs ...[2]string) {
		t.Helper()
		got := changes(s)
		var w [][2]int64
		for _, p := range pairs {
			w = append(w, [2]int64{versions[pageWith(p[0])], versions[pageWith(p[1])]})
		}
		if len(got) != len(w) {
			t.Fatalf("%s: changes %v, want %v (%v)", s.Name, got, w, pairs)
		}
		for _, x := range w {
			found := false
			for _, g := range got {
				found = found || g == x
			}
			if !found {
				t.Fatalf("%s: changes %v, want %v (%v)", s.Name, got, w, pairs)
			}
		}
	}

	check() // first sightings
	want(both)
	want(either)

	f.set(a, pageWith("a1"))
	check()
	want(both) // A changed alone: waits
	want(either, [2]string{"a0", "a1"})

	f.set(a, pageWith("a2"))
	check()
	want(both) // still alone; the waiting change now runs a0 -> a2
	want(either, [2]string{"a0", "a1"}, [2]string{"a1", "a2"})

	// B cannot be fetched for a while: A's change keeps waiting.
	f.set(b, "")
	check()
	want(both)
	f.set(b, pageWith("b1"))
	check()
	want(both, [2]string{"a0", "a2"}, [2]string{"b0", "b1"})
	// Both pages' changes go out in one message.
	messages := messagesOf(t, db, u, both)
	if len(messages) != 1 || len(messages[0].Changes) != 2 || !strings.Contains(messages[0].Text, a+" and "+b) {
		t.Errorf("%d messages for both pages' changes, want 1 with 2 changes naming both pages: %+v", len(messages), messages)
	}

	// A waits again, then goes back to what it was: dropped, so B's next
	// change alone reports nothing.
	f.set(a, pageWith("a3"))
	check()
	f.set(a, pageWith("a2"))
	check()
	f.set(b, pageWith("b2"))
	check()
	want(both, [2]string{"a0", "a2"}, [2]string{"b0", "b1"})
}

// TestUsingAndValueGoesBack: a waiting change whose page goes back where
// the expression no longer finds it (the value rose, then fell back) is
// not reported when the other page changes.
func TestUsingAndValueGoesBack(t *testing.T) {
	db, wh, u := testStore(t)
	now := time.Now().UTC()
	const a, b = pageA, pageB
	s := createSentinel(t, db, spec.NewChecker(now), u, "rise",
		"Create Sentinel rise Using "+a+" AND "+b+" Monitor value In css \"p\" increases Fetch 1 hour\n")
	f := &pagesFetcher{pages: map[string]string{a: pageWith("5"), b: pageWith("10")}}
	m := &Monitor{Store: db, Warehouse: wh, Fetcher: f, Policy: schedule.Policy{MinInterval: time.Minute}}
	check := func() {
		t.Helper()
		makeDue(t, db, s, time.Now().UTC())
		runOnce(t, m, 1)
	}
	changes := func() int { return len(changesOf(t, db, s)) }
	check()
	f.set(a, pageWith("7")) // rises: waits for B
	check()
	f.set(a, pageWith("5")) // back: the expression does not fire on a fall
	check()
	f.set(b, pageWith("12")) // B rises; A's change is gone
	check()
	if n := changes(); n != 0 {
		t.Errorf("%d changes reported, want 0: A went back to 5", n)
	}
	f.set(a, pageWith("9")) // A rises again: now both have risen
	check()
	if n := changes(); n != 2 {
		t.Errorf("%d changes reported, want 2 (A 5 -> 9, B 10 -> 12)", n)
	}
}

// TestUsingAndConfirm: with "Confirm after", both pages changing in the same
// check are confirmed one after the other, then reported together.
func TestUsingAndConfirm(t *testing.T) {
	ctx := context.Background()
	p := newAndPages(t, "confirmed", "Monitor any change Fetch 1 hour Confirm after 10 minute", "a0", "b0")
	db, s := p.db, p.s
	// runDue advances the clock to the sentinel's next check and runs it.
	runDue := func() {
		t.Helper()
		cur, err := db.FindSentinelByID(ctx, s.ID)
		if err != nil {
			t.Fatal(err)
		}
		if cur.NextCheck.After(p.clock) {
			p.clock = cur.NextCheck
		}
		runOnce(t, p.m, 1)
	}
	changes := func() int { return len(changesOf(t, db, s)) }
	runDue()
	p.f.set(pageA, pageWith("a1"))
	p.f.set(pageB, pageWith("b1"))
	for i := 0; i < 6 && changes() == 0; i++ {
		p.clock = p.clock.Add(time.Hour) // the next fetch
		runDue()
		runDue() // a confirmation, if one is due
		runDue()
	}
	if n := changes(); n != 2 {
		t.Errorf("%d changes reported, want 2: both pages changed and stayed changed", n)
	}
}

// TestUsingAndDigest: in "Every <interval>" mode, the changes of an AND
// alternative are recorded when both pages have one and go out together in
// the period's digest.
func TestUsingAndDigest(t *testing.T) {
	p := newAndPages(t, "daily", "Monitor any change Fetch 1 hour Notify By email owner@example.test Every 1 day", "a0", "b0")
	run := func(at time.Time) {
		t.Helper()
		p.clock = at
		makeDue(t, p.db, p.s, p.clock)
		runOnce(t, p.m, 1)
	}
	digests := func() []*vigil.Message { return messagesOf(t, p.db, p.u, p.s) }
	start := p.clock
	run(start) // first sightings; the period starts
	p.f.set(pageA, pageWith("a1"))
	run(start.Add(2 * time.Hour)) // waits for B
	p.f.set(pageB, pageWith("b1"))
	run(start.Add(4 * time.Hour)) // both: recorded, not sent yet
	if ms := digests(); len(ms) != 0 {
		t.Fatalf("%d messages before the period's end", len(ms))
	}
	run(start.Add(25 * time.Hour)) // the period ends
	ms := digests()
	if len(ms) != 1 || !ms[0].Digest || len(ms[0].Changes) != 2 {
		t.Fatalf("messages %+v, want one digest with both pages' changes", ms)
	}
}

// pageA and pageB are the two pages of newAndPages's sentinel.
const pageA, pageB = "http://a.example.test/", "http://b.example.test/"

// andPages is a sentinel "Using pageA AND pageB" on a fresh store, the
// fetcher that serves both pages, and a Monitor whose clock is clock.
type andPages struct {
	db    *sqlite.DB
	u     *vigil.User
	s     *vigil.Sentinel
	f     *pagesFetcher
	m     *Monitor
	clock time.Time
}

// newAndPages creates the sentinel name, "Using pageA AND pageB" followed
// by clauses, with the pages' paragraphs a0 and b0 and the clock at now.
func newAndPages(t *testing.T, name, clauses, a0, b0 string) *andPages {
	t.Helper()
	db, wh, u := testStore(t)
	p := &andPages{db: db, u: u, clock: time.Now().UTC()}
	p.s = createSentinel(t, db, spec.NewChecker(p.clock), u, name,
		"Create Sentinel "+name+" Using "+pageA+" AND "+pageB+" "+clauses+"\n")
	p.f = &pagesFetcher{pages: map[string]string{pageA: pageWith(a0), pageB: pageWith(b0)}}
	p.m = &Monitor{Store: db, Warehouse: wh, Fetcher: p.f, Policy: schedule.Policy{MinInterval: time.Minute},
		Now: func() time.Time { return p.clock }}
	return p
}

// pageWith returns an HTML page whose only content is a paragraph of text.
func pageWith(text string) string { return "<html><body><p>" + text + "</p></body></html>" }
