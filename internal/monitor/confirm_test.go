package monitor

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/spec"
)

// confirmSource is a sentinel on url whose changes are confirmed ten
// minutes later.
func confirmSource(url string) string {
	return "Create Sentinel confirmed Using " + url + " Monitor any change Fetch 1 hour Confirm after 10 minute Notify By email owner@example.test\n"
}

func newConfirmPage(t *testing.T) *onePage {
	t.Helper()
	db, wh, u := testStore(t)
	p := &andPages{db: db, u: u, clock: time.Now().UTC().Truncate(time.Minute)}
	p.s = createSentinel(t, db, spec.NewChecker(p.clock), u, "confirmed", confirmSource(pageA))
	p.f = &pagesFetcher{pages: map[string]string{pageA: pageWith("a0"), pageB: pageWith("b0")}}
	p.m = &Monitor{Store: db, Warehouse: wh, Fetcher: p.f, Policy: schedule.Policy{MinInterval: time.Minute},
		Now: func() time.Time { return p.clock }}
	return &onePage{andPages: p, start: p.clock}
}

// nextCheck returns when the sentinel is due next.
func (p *onePage) nextCheck(t *testing.T) time.Time {
	t.Helper()
	s, err := p.db.FindSentinelByID(context.Background(), p.s.ID)
	if err != nil {
		t.Fatal(err)
	}
	return s.NextCheck
}

// TestConfirmFetchFails: a confirmation due when the page cannot be
// fetched waits for the next check the policy gives. It was kept due at
// its time, already past, and the page fetched again at every poll.
func TestConfirmFetchFails(t *testing.T) {
	p := newConfirmPage(t)
	p.run(t, 0)
	p.f.set(pageA, pageWith("a1"))
	p.run(t, time.Hour) // the change waits for its confirmation
	p.f.set(pageA, "")  // the page is unreachable
	p.run(t, time.Hour+10*time.Minute)
	if next := p.nextCheck(t); !next.After(p.clock) {
		t.Errorf("after a failed confirmation fetch at %v, the next check is at %v", p.clock, next)
	}
}

// TestConfirmDroppedOnEdit: a sentinel edited to watch another page while
// a change of the first waited for its confirmation reports the other
// page's changes. The confirmation of a page no longer fetched held every
// one of them back, for good.
func TestConfirmDroppedOnEdit(t *testing.T) {
	p := newConfirmPage(t)
	p.run(t, 0)
	p.f.set(pageA, pageWith("a1"))
	p.run(t, time.Hour) // waits for its confirmation
	p.edit(t, confirmSource(pageB))
	p.run(t, 2*time.Hour) // first sighting of B
	p.f.set(pageB, pageWith("b1"))
	p.run(t, 3*time.Hour)                // B's change waits for its confirmation
	p.run(t, 3*time.Hour+10*time.Minute) // and is confirmed
	if n := len(changesOf(t, p.db, p.s)); n != 1 {
		t.Errorf("%d changes reported, want B's", n)
	}
}

// TestStateKeptOverNormalForm: a sentinel stored while spec.NormalizeURL
// wrote "http://a.example.test" (no "/") and edited since, so checked with
// "http://a.example.test/", keeps the versions it saw and the change
// waiting for its confirmation, which is reported. Its state is keyed by
// URL: the edit made it look at a page it had never seen.
func TestStateKeptOverNormalForm(t *testing.T) {
	p := newConfirmPage(t)
	oldForm := strings.TrimSuffix(pageA, "/")
	p.f.set(oldForm, pageWith("a0"))
	cur, err := p.db.FindSentinelByID(context.Background(), p.s.ID)
	if err != nil {
		t.Fatal(err)
	}
	var ch spec.Checked
	if err := json.Unmarshal(cur.Spec, &ch); err != nil {
		t.Fatal(err)
	}
	ch.URLs = []string{oldForm}
	if cur.Spec, err = ch.MarshalJSON(); err != nil {
		t.Fatal(err)
	}
	if err := p.db.UpdateSentinel(context.Background(), cur); err != nil {
		t.Fatal(err)
	}

	p.run(t, 0)
	p.f.set(oldForm, pageWith("a1"))
	p.f.set(pageA, pageWith("a1"))
	p.run(t, time.Hour) // waits for its confirmation, under the old form
	p.edit(t, confirmSource(oldForm+" Compare pairwise"))
	p.run(t, time.Hour+10*time.Minute) // confirmed under the new form
	if n := len(changesOf(t, p.db, p.s)); n != 1 {
		t.Errorf("%d changes reported, want the confirmed one", n)
	}
}
