package schedule

import (
	"slices"
	"testing"
	"time"
	_ "time/tzdata" // Europe/Paris where the system has no zoneinfo

	"github.com/vigil-web/vigil/spec"
)

// TestLifespanDST: a sentinel whose From is a local time the clocks skip
// (02:30 in Paris on 29 March 2026, when 02:00 becomes 03:00) starts at
// the first instant after the gap, 03:00 CEST (01:00 UTC), not at 03:30;
// one whose From the clocks show twice (02:30 on 25 October 2026) starts
// at the first, 02:30 CEST (00:30 UTC): a check at the second 02:30 finds
// it started at the first. Each waits until its instant, an hour before
// as a second before, and starts at it, not an hour later.
func TestLifespanDST(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	utc := func(mo time.Month, d, h, min int) time.Time { return time.Date(2026, mo, d, h, min, 0, 0, time.UTC) }
	for _, tc := range []struct {
		from   string
		starts time.Time // the first instant it is started at
	}{
		{"From 03/29/2026 02:30", utc(3, 29, 1, 0)},
		{"From 03/28/2026 02:30 + 1 day", utc(3, 29, 1, 0)},
		{"From 10/25/2026 02:30", utc(10, 25, 0, 30)},
	} {
		created := time.Date(2026, 1, 1, 0, 0, 0, 0, paris)
		c := spec.NewChecker(created)
		c.Location = paris
		s, err := spec.ParseSentinel("", []byte("Create Sentinel a Using http://a.example/ "+tc.from+" To 12/01/2026"))
		if err != nil {
			t.Fatal(err)
		}
		ch, err := c.Check(s)
		if err != nil {
			t.Fatalf("%s: %v", tc.from, err)
		}
		l := LifespanOf(ch)
		// Just before the instant, and an hour before (where a From
		// read an hour early would start), it waits for that instant.
		for _, before := range []time.Duration{time.Hour, time.Second} {
			tr := l.Evaluate(tc.starts.Add(-before), Status{}, nil)
			if tr.Status.Phase() != Pending || len(tr.Raised) != 0 || !tr.Wake.Equal(tc.starts) {
				t.Errorf("%s: %s before %s: %s, raised %v, wake %s; want pending until then", tc.from, before, tc.starts, tr.Status.Phase(), tr.Raised, tr.Wake.UTC())
			}
		}
		// At it, just after, and an hour after (a check that came late;
		// in October the clock shows the From again), it starts, and
		// started at that instant: not at the hour after, where a From
		// read an hour late would be.
		for _, after := range []time.Duration{0, time.Second, time.Hour} {
			tr := l.Evaluate(tc.starts.Add(after), Status{}, nil)
			if !slices.Equal(tr.Raised, []spec.EventKind{spec.Start}) || !tr.Status.Started.Equal(tc.starts) {
				t.Errorf("%s: %s after %s: raised %v, started %s; want started at %s", tc.from, after, tc.starts, tr.Raised, tr.Status.Started.UTC(), tc.starts)
			}
		}
	}
}

// TestEventOffsetDST: days and weeks added to another sentinel's event
// keep the owner's clock (Lifespan.Location) across a daylight-saving
// change, whatever zone the event's instant is read in (UTC from the
// store, or the server's): start(base) at 09:00 in Paris on Saturday 28
// March 2026 + 1 day is 09:00 on Sunday, 23 hours later, not 24.
func TestEventOffsetDST(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	newYork, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	utc := func(mo time.Month, d, h, min int) time.Time { return time.Date(2026, mo, d, h, min, 0, 0, time.UTC) }
	day := []spec.Duration{{N: 1, Unit: spec.Day}}
	for _, tc := range []struct {
		name   string
		loc    *time.Location // the owner's zone
		base   Status         // base's status, as the store gives it
		from   Bound
		starts time.Time
	}{
		{"start + 1 day, summer time begins", paris, Status{Started: utc(3, 28, 8, 0)},
			Bound{Event: spec.Start, Ref: "base", Offsets: day}, utc(3, 29, 7, 0)},
		{"start + 1 day, summer time ends", paris, Status{Started: utc(10, 24, 7, 0)},
			Bound{Event: spec.Start, Ref: "base", Offsets: day}, utc(10, 25, 8, 0)},
		{"end + 2 weeks", paris, Status{Started: utc(3, 1, 9, 0), Ended: utc(3, 20, 9, 0)},
			Bound{Event: spec.End, Ref: "base", Offsets: []spec.Duration{{N: 2, Unit: spec.Week}}}, utc(4, 3, 8, 0)},
		{"read in the server's zone", paris, Status{Started: utc(3, 28, 8, 0).In(newYork)},
			Bound{Event: spec.Start, Ref: "base", Offsets: day}, utc(3, 29, 7, 0)},
		{"New York spring", newYork, Status{Started: utc(3, 7, 14, 0)},
			Bound{Event: spec.Start, Ref: "base", Offsets: day}, utc(3, 8, 13, 0)},
		{"New York autumn", newYork, Status{Started: utc(10, 31, 13, 0)},
			Bound{Event: spec.Start, Ref: "base", Offsets: []spec.Duration{{N: 1, Unit: spec.Week}}}, utc(11, 7, 14, 0)},
		{"hours stay exact", paris, Status{Started: utc(3, 28, 8, 0)},
			Bound{Event: spec.Start, Ref: "base", Offsets: []spec.Duration{{N: 24, Unit: spec.Hour}}}, utc(3, 29, 8, 0)},
		{"UTC owner, read in Paris", nil, Status{Started: utc(3, 28, 8, 0).In(paris)},
			Bound{Event: spec.Start, Ref: "base", Offsets: day}, utc(3, 29, 8, 0)},
	} {
		l := Lifespan{From: tc.from, To: Bound{At: utc(12, 1, 0, 0)}, Location: tc.loc}
		lookup := func(name string) (Status, bool) { return tc.base, name == "base" }
		tr := l.Evaluate(tc.starts.Add(-time.Second), Status{}, lookup)
		if tr.Status.Phase() != Pending || !tr.Wake.Equal(tc.starts) {
			t.Errorf("%s: a second before %s: %s, wake %s; want pending until then", tc.name, tc.starts, tr.Status.Phase(), tr.Wake.UTC())
		}
		tr = l.Evaluate(tc.starts, Status{}, lookup)
		if !slices.Equal(tr.Raised, []spec.EventKind{spec.Start}) || !tr.Status.Started.Equal(tc.starts) {
			t.Errorf("%s: at %s: raised %v, started %s; want started then", tc.name, tc.starts, tr.Raised, tr.Status.Started.UTC())
		}
	}
}
