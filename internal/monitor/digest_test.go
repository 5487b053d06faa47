package monitor

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/spec"
)

// onePage is a sentinel on pageA, with what runs it, edits it and reads
// its digests.
type onePage struct {
	*andPages
	start time.Time
}

// digestSource is the sentinel's source, notified every, with clauses.
func digestSource(every, clauses string) string {
	return "Create Sentinel daily Using " + pageA + " Monitor any change Fetch 1 hour Notify By email owner@example.test Every " + every + clauses + "\n"
}

func newDigestPages(t *testing.T, clauses string) *onePage {
	t.Helper()
	db, wh, u := testStore(t)
	p := &andPages{db: db, u: u, clock: time.Now().UTC().Truncate(time.Minute)}
	p.s = createSentinel(t, db, spec.NewChecker(p.clock), u, "daily", digestSource("1 day", clauses))
	p.f = &pagesFetcher{pages: map[string]string{pageA: pageWith("a0")}}
	p.m = &Monitor{Store: db, Warehouse: wh, Fetcher: p.f, Policy: schedule.Policy{MinInterval: time.Minute},
		Now: func() time.Time { return p.clock }}
	return &onePage{andPages: p, start: p.clock}
}

func (p *onePage) run(t *testing.T, at time.Duration) {
	t.Helper()
	p.clock = p.start.Add(at)
	makeDue(t, p.db, p.s, p.clock)
	runOnce(t, p.m, 1)
}

// edit gives the sentinel a new source, as the dashboard's editor does.
func (p *onePage) edit(t *testing.T, src string) {
	t.Helper()
	ps, err := spec.ParseSentinel("", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ch, err := spec.NewChecker(p.clock).Check(ps)
	if err != nil {
		t.Fatal(err)
	}
	cur, err := p.db.FindSentinelByID(context.Background(), p.s.ID)
	if err != nil {
		t.Fatal(err)
	}
	cur.Source = src
	if cur.Spec, err = ch.MarshalJSON(); err != nil {
		t.Fatal(err)
	}
	if err := p.db.UpdateSentinel(context.Background(), cur); err != nil {
		t.Fatal(err)
	}
}

func (p *onePage) change(text string) { p.f.set(pageA, pageWith(text)) }

// changeIDs returns the ids of the changes each digest carries, and fails
// on a change without one.
func (p *onePage) changeIDs(t *testing.T) [][]int64 {
	t.Helper()
	var out [][]int64
	for _, m := range messagesOf(t, p.db, p.u, p.s) {
		if strings.HasSuffix(m.Subject, ": ended, checked no more") {
			continue // the lifespan's end, told (TestLifespanEndNotice)
		}
		if !m.Digest {
			t.Errorf("a message that is not a digest: %s", m.Subject)
			continue
		}
		var ids []int64
		for _, it := range m.Changes {
			if it.Change == nil || it.Change.ID == 0 {
				t.Errorf("digest %q carries a change without an id", m.Subject)
				continue
			}
			ids = append(ids, it.Change.ID)
		}
		out = append(out, ids)
	}
	return out
}

// TestDigestChangeAtPeriodEnd: changes found by the check that ends a
// period go out once, in the next digest, with their ids. They used to go
// out in both (the second period began at the instant they were found), the
// first time with id 0.
func TestDigestChangeAtPeriodEnd(t *testing.T) {
	p := newDigestPages(t, "")
	p.run(t, 0) // first sightings; the period starts
	p.change("a1")
	p.run(t, 24*time.Hour) // the period ends as the change is found
	p.run(t, 48*time.Hour) // the next one ends
	p.run(t, 72*time.Hour)
	seen := map[int64]int{}
	for _, ids := range p.changeIDs(t) {
		for _, id := range ids {
			seen[id]++
		}
	}
	stored := changesOf(t, p.db, p.s)
	if len(stored) != 1 {
		t.Fatalf("%d changes stored, want 1", len(stored))
	}
	for _, c := range stored {
		if seen[c.ID] != 1 {
			t.Errorf("change %d is in %d digests, want 1", c.ID, seen[c.ID])
		}
	}
}

// TestDigestSentWhenModeChanges: a sentinel edited from "Every 1 day" to
// immediate notification sends the digest of its open period at once.
func TestDigestSentWhenModeChanges(t *testing.T) {
	p := newDigestPages(t, "")
	p.run(t, 0)
	p.change("a1")
	p.run(t, 2*time.Hour) // recorded, for the day's digest
	if got := p.changeIDs(t); len(got) != 0 {
		t.Fatalf("digests before the period's end: %v", got)
	}
	p.edit(t, digestSource("immediate", ""))
	p.run(t, 3*time.Hour)
	if got := p.changeIDs(t); len(got) != 1 || len(got[0]) != 1 {
		t.Errorf("digests %v, want one with the period's change", got)
	}
}

// TestDigestSentAtLifespanEnd: a sentinel whose lifespan ends sends the
// digest of its open period; no check would end the period.
func TestDigestSentAtLifespanEnd(t *testing.T) {
	end := time.Now().UTC().Add(5 * time.Hour).Format("01/02/2006 15:04")
	p := newDigestPages(t, " To "+end)
	p.run(t, 0)
	p.change("a1")
	p.run(t, 2*time.Hour)
	p.run(t, 6*time.Hour) // past the end
	if got := p.changeIDs(t); len(got) != 1 || len(got[0]) != 1 {
		t.Errorf("digests %v, want one with the period's change", got)
	}
}

// failingChanges is a store whose FindChanges fails while fail is set.
type failingChanges struct {
	Store
	fail bool
}

func (f *failingChanges) FindChanges(ctx context.Context, flt vigil.ChangeFilter) ([]*vigil.Change, int, error) {
	if f.fail {
		return nil, 0, errors.New("the store is away")
	}
	return f.Store.FindChanges(ctx, flt)
}

// TestDigestKeptWhenStoreFails: a period whose digest cannot be read at
// the end of a lifespan, or when the sentinel leaves the mode, stays open
// and is sent once the store answers; the ended sentinel comes back soon
// to try again rather than in fifty years. The notice that it ended waits
// for that digest, its last word: it went first, the digest after it.
func TestDigestKeptWhenStoreFails(t *testing.T) {
	end := time.Now().UTC().Add(5 * time.Hour).Format("01/02/2006 15:04")
	p := newDigestPages(t, " To "+end)
	store := &failingChanges{Store: p.db}
	p.m.Store = store
	p.run(t, 0)
	p.change("a1")
	p.run(t, 2*time.Hour)
	store.fail = true
	p.run(t, 6*time.Hour) // past the end: the digest cannot be read
	if next := p.nextCheck(t); next.After(p.clock.Add(time.Hour)) {
		t.Errorf("after a failed end-of-life digest, the next check is at %v (now %v)", next, p.clock)
	}
	if got := endNotices(t, p); got != 0 {
		t.Errorf("%d end notices before the last digest, want none yet", got)
	}
	store.fail = false
	p.run(t, 6*time.Hour+time.Minute)
	if got := p.changeIDs(t); len(got) != 1 || len(got[0]) != 1 {
		t.Errorf("digests %v, want one with the period's change", got)
	}
	// The end notice, held back, follows the digest, once.
	p.run(t, 7*time.Hour)
	msgs := messagesOf(t, p.db, p.u, p.s)
	if len(msgs) != 2 || !msgs[0].Digest || endNotices(t, p) != 1 || msgs[1].Ended.IsZero() {
		var subjects []string
		for _, m := range msgs {
			subjects = append(subjects, m.Subject)
		}
		t.Errorf("messages %q, want the last digest then the end notice", subjects)
	}
}

// TestDigestSubject: a digest's subject counts its changes in words: "1
// change", "2 changes"; it said "1 change(s)".
func TestDigestSubject(t *testing.T) {
	p := newDigestPages(t, "")
	p.run(t, 0)
	p.change("a1")
	p.run(t, time.Hour)
	p.run(t, 24*time.Hour) // the first digest: one change
	p.change("a2")
	p.run(t, 25*time.Hour)
	p.change("a3")
	p.run(t, 26*time.Hour)
	p.run(t, 48*time.Hour) // the second: two
	var got []string
	for _, m := range messagesOf(t, p.db, p.u, p.s) {
		got = append(got, m.Subject)
	}
	want := []string{"[Vigil] daily: 1 change since ", "[Vigil] daily: 2 changes since "}
	if len(got) != len(want) {
		t.Fatalf("digests %q, want %d", got, len(want))
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("digest %d: %q, want it to begin %q", i, got[i], want[i])
		}
	}
}

// TestSummaryDigestDue: the summary of a sentinel's stored state says
// when its next digest goes out (StateSummary.DigestDue): nothing before
// its first check, the end of the period the first check opened, the end
// of the next once a period ended, and nothing once it was edited to send
// no digests and its next check sent the open period's. It said nothing,
// and no reader of the state could tell when the digest would go out.
func TestSummaryDigestDue(t *testing.T) {
	p := newDigestPages(t, "")
	due := func() time.Time {
		t.Helper()
		states, err := p.db.SentinelStates(context.Background(), []int64{p.s.ID})
		if err != nil {
			t.Fatal(err)
		}
		return Summary(states[p.s.ID], p.s).DigestDue
	}
	if got := due(); !got.IsZero() {
		t.Errorf("before the first check: %v, want none", got)
	}
	for _, tc := range []struct {
		at, want time.Duration
	}{{0, 24 * time.Hour}, {2 * time.Hour, 24 * time.Hour}, {25 * time.Hour, 48 * time.Hour}} {
		p.run(t, tc.at)
		if got, want := due(), p.start.Add(tc.want); !got.Equal(want) {
			t.Errorf("after the check at +%v: %v, want %v", tc.at, got, want)
		}
	}
	p.edit(t, digestSource("immediate", ""))
	p.run(t, 26*time.Hour)
	if got := due(); !got.IsZero() {
		t.Errorf("edited to send no digests: %v, want none", got)
	}
}
