package monitor

import (
	"testing"
	"time"

	"github.com/vigil-web/vigil/spec"
)

// TestUsingAndChangeTimes: the changes of "Using A AND B" told together
// each keep the time their page's change was found: A's, found two hours
// before B's and waiting for it, is stamped at its own check, not at B's
// (the message's).
func TestUsingAndChangeTimes(t *testing.T) {
	p := newAndPages(t, "both", "Monitor any change Fetch 1 hour Notify By email owner@example.test", "a0", "b0")
	start := p.clock.Add(time.Second).Truncate(time.Second) // after its creation
	run := func(at time.Time) {
		t.Helper()
		p.clock = at
		makeDue(t, p.db, p.s, p.clock)
		runOnce(t, p.m, 1)
	}
	run(start) // first sightings
	p.f.set(pageA, pageWith("a1"))
	aFound := start.Add(2 * time.Hour)
	run(aFound) // waits for B
	p.f.set(pageB, pageWith("b1"))
	bFound := start.Add(4 * time.Hour)
	run(bFound) // both: told together
	cs := changesOf(t, p.db, p.s)
	if len(cs) != 2 {
		t.Fatalf("%d changes, want 2", len(cs))
	}
	for _, c := range cs {
		res, err := p.db.FindResourceByID(t.Context(), c.ResourceID)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]time.Time{pageA: aFound, pageB: bFound}[res.URL]
		if !c.DetectedAt.Equal(want) {
			t.Errorf("the change of %s detected at %v, want %v", res.URL, c.DetectedAt, want)
		}
	}
}

// TestUsingAndChangeTimesDigest: in "Every 1 day" mode, the changes of
// "Using A AND B" keep their own times within the digest's period, and
// none is lost to a period: A's change found in the period before B's is
// stamped at the start of B's period, whose digest tells both; told at
// the check that ends a period, both are stamped then and go out in the
// next period's digest, as the other changes of that check do.
func TestUsingAndChangeTimesDigest(t *testing.T) {
	for _, tc := range []struct {
		name   string
		checks []time.Duration // after the first: A changes before the first
		b      int             // the check B changes before
		wantA  time.Duration   // A's change's time
		wantB  time.Duration
	}{
		{"within a period", []time.Duration{2 * time.Hour, 4 * time.Hour, 24 * time.Hour}, 1, 2 * time.Hour, 4 * time.Hour},
		{"across periods", []time.Duration{23 * time.Hour, 24 * time.Hour, 26 * time.Hour, 48 * time.Hour}, 2, 24 * time.Hour, 26 * time.Hour},
		{"at a period's end", []time.Duration{2 * time.Hour, 25 * time.Hour, 49 * time.Hour}, 1, 25 * time.Hour, 25 * time.Hour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newAndPages(t, "daily", "Monitor any change Fetch 1 hour Notify By email owner@example.test Every 1 day", "a0", "b0")
			start := p.clock.Add(time.Second).Truncate(time.Second)
			run := func(at time.Duration) {
				t.Helper()
				p.clock = start.Add(at)
				makeDue(t, p.db, p.s, p.clock)
				runOnce(t, p.m, 1)
			}
			run(0) // first sightings; the period starts
			for i, at := range tc.checks {
				switch i {
				case 0:
					p.f.set(pageA, pageWith("a1"))
				case tc.b:
					p.f.set(pageB, pageWith("b1"))
				}
				run(at)
			}
			cs := changesOf(t, p.db, p.s)
			if len(cs) != 2 {
				t.Fatalf("%d changes, want 2", len(cs))
			}
			for _, c := range cs {
				res, err := p.db.FindResourceByID(t.Context(), c.ResourceID)
				if err != nil {
					t.Fatal(err)
				}
				want := map[string]time.Duration{pageA: tc.wantA, pageB: tc.wantB}[res.URL]
				if !c.DetectedAt.Equal(start.Add(want)) {
					t.Errorf("the change of %s detected at %v, want %v", res.URL, c.DetectedAt.Sub(start), want)
				}
			}
			ms := messagesOf(t, p.db, p.u, p.s)
			if len(ms) != 1 || !ms[0].Digest || len(ms[0].Changes) != 2 {
				t.Errorf("%d messages, want one digest of both changes", len(ms))
				for _, m := range ms {
					t.Logf("%s: %d changes", m.Subject, len(m.Changes))
				}
			}
		})
	}
}

// TestUsingAndChangeTimeIntoDigest: a change of "Using A AND B" that
// waited for B's while the sentinel told each change at once, and is told
// after it was edited to "Every 1 day", goes out in the first digest with
// B's. It was stamped with the time A's change was found, before the
// period that check opens, and no digest gathered it.
func TestUsingAndChangeTimeIntoDigest(t *testing.T) {
	p := newAndPages(t, "both", "Monitor any change Fetch 1 hour Notify By email owner@example.test", "a0", "b0")
	start := p.clock.Add(time.Second).Truncate(time.Second)
	run := func(at time.Duration) {
		t.Helper()
		p.clock = start.Add(at)
		makeDue(t, p.db, p.s, p.clock)
		runOnce(t, p.m, 1)
	}
	run(0) // first sightings
	p.f.set(pageA, pageWith("a1"))
	run(2 * time.Hour) // waits for B
	src := "Create Sentinel both Using " + pageA + " AND " + pageB +
		" Monitor any change Fetch 1 hour Notify By email owner@example.test Every 1 day\n"
	ps, err := spec.ParseSentinel("", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ch, err := spec.NewChecker(p.clock).Check(ps)
	if err != nil {
		t.Fatal(err)
	}
	cur, err := p.db.FindSentinelByID(t.Context(), p.s.ID)
	if err != nil {
		t.Fatal(err)
	}
	cur.Source = src
	if cur.Spec, err = ch.MarshalJSON(); err != nil {
		t.Fatal(err)
	}
	if err := p.db.UpdateSentinel(t.Context(), cur); err != nil {
		t.Fatal(err)
	}
	p.f.set(pageB, pageWith("b1"))
	run(4 * time.Hour)  // both found: the period opens
	run(28 * time.Hour) // it ends: its digest
	if cs := changesOf(t, p.db, p.s); len(cs) != 2 {
		t.Fatalf("%d changes, want 2", len(cs))
	}
	told := 0
	for _, m := range messagesOf(t, p.db, p.u, p.s) {
		told += len(m.Changes)
	}
	if told != 2 {
		for _, c := range changesOf(t, p.db, p.s) {
			t.Logf("change %d detected at %v", c.ID, c.DetectedAt.Sub(start))
		}
		t.Errorf("%d changes told, want both in the digest", told)
	}
}
