package schedule

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/vigil-web/vigil/spec"
)

var t0 = time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC)

func TestEstimateRate(t *testing.T) {
	for _, tc := range []struct {
		name        string
		n, x, secs  float64
		want, delta float64
	}{
		{"nothing observed", 0, 0, 0, 0, 0},
		{"no change", 10, 0, 1000, 0, 0},
		// every visit saw a change: r = ln(10.5/0.5) = 3.04 per interval of 100s
		{"all changed", 10, 10, 1000, math.Log(21) / 100, 1e-12},
		{"half changed", 100, 50, 100 * 60, -math.Log(50.5/100.5) / 60, 1e-12},
	} {
		got := EstimateRate(tc.n, tc.x, tc.secs)
		if math.Abs(got-tc.want) > tc.delta {
			t.Errorf("%s: EstimateRate = %g, want %g", tc.name, got, tc.want)
		}
	}
}

// TestEstimatorConverges simulates a page changing as a Poisson process
// and checks that the adaptive interval settles near TargetRatio/λ.
func TestEstimatorConverges(t *testing.T) {
	p := Policy{MinInterval: time.Second, MaxInterval: 48 * time.Hour, InitialInterval: time.Hour, Jitter: -1}
	for _, meanChange := range []time.Duration{10 * time.Minute, 2 * time.Hour, 8 * time.Hour} {
		rng := rand.New(rand.NewPCG(1, uint64(meanChange)))
		lambda := 1 / meanChange.Seconds()
		var h History
		now := t0
		next := p.Next(now, Plan{OnChange: true}, &h, Unchanged, 0)
		for i := 0; i < 400; i++ {
			gap := next.Sub(now).Seconds()
			changed := rng.Float64() < 1-math.Exp(-lambda*gap) // P(at least one change in the gap)
			now = next
			o := Unchanged
			if changed {
				o = Changed
			}
			next = p.Next(now, Plan{OnChange: true}, &h, o, 0)
		}
		want := 0.5 * meanChange.Seconds()
		got := h.Interval.Seconds()
		if got < want/2 || got > want*2 {
			t.Errorf("mean change %v: interval %v, want about %v", meanChange, h.Interval, time.Duration(want*float64(time.Second)))
		}
	}
}

func TestNext(t *testing.T) {
	p := Policy{MinInterval: time.Minute, MaxInterval: 24 * time.Hour, InitialInterval: time.Hour, Jitter: 0.1, MaxBackoff: 8 * time.Hour}
	var h History
	if got := p.Next(t0, Plan{Interval: 10 * time.Minute}, &h, Unchanged, 0); got != t0.Add(10*time.Minute) {
		t.Errorf("fixed: %v", got.Sub(t0))
	}
	if got := p.Next(t0, Plan{Interval: 10 * time.Minute}, &h, Unchanged, 1); got != t0.Add(11*time.Minute) {
		t.Errorf("jitter +1: %v", got.Sub(t0))
	}
	if got := p.Next(t0, Plan{Interval: 10 * time.Minute}, &h, Unchanged, -1); got != t0.Add(9*time.Minute) {
		t.Errorf("jitter -1: %v", got.Sub(t0))
	}
	if got := p.Next(t0, Plan{Interval: time.Second}, &h, Unchanged, 0); got != t0.Add(time.Minute) {
		t.Errorf("below the minimum: %v", got.Sub(t0))
	}
	// Back-off doubles per consecutive failure, up to MaxBackoff, and a
	// success resets it.
	h = History{}
	var gaps []time.Duration
	for i := 0; i < 7; i++ {
		gaps = append(gaps, p.Next(t0, Plan{Interval: 10 * time.Minute}, &h, Failed, 0).Sub(t0))
	}
	want := []time.Duration{20 * time.Minute, 40 * time.Minute, 80 * time.Minute, 160 * time.Minute, 320 * time.Minute, 8 * time.Hour, 8 * time.Hour}
	for i := range want {
		if gaps[i] != want[i] {
			t.Errorf("failure %d: %v, want %v", i+1, gaps[i], want[i])
		}
	}
	p.Next(t0, Plan{Interval: 10 * time.Minute}, &h, Unchanged, 0)
	if h.Errors != 0 {
		t.Errorf("errors not reset: %d", h.Errors)
	}
	// Adaptive: the first interval is InitialInterval; no change lets it
	// grow at most GrowthLimit per check up to MaxInterval.
	h = History{}
	if got := p.Next(t0, Plan{OnChange: true}, &h, Unchanged, 0); got != t0.Add(time.Hour) {
		t.Errorf("initial: %v", got.Sub(t0))
	}
	now := t0
	for i, want := range []time.Duration{2 * time.Hour, 4 * time.Hour, 8 * time.Hour, 16 * time.Hour, 24 * time.Hour, 24 * time.Hour} {
		now = now.Add(h.Interval)
		p.Next(now, Plan{OnChange: true}, &h, Unchanged, 0)
		if h.Interval != want {
			t.Errorf("unchanged step %d: %v, want %v", i, h.Interval, want)
		}
	}
	// A run of changes shrinks it.
	prev := h.Interval
	for i := 0; i < 40; i++ {
		now = now.Add(h.Interval)
		p.Next(now, Plan{OnChange: true}, &h, Changed, 0)
		if h.Interval > prev {
			t.Errorf("change %d: interval grew from %v to %v", i, prev, h.Interval)
		}
		prev = h.Interval
	}
	if h.Interval > time.Hour {
		t.Errorf("after 40 changes in a row: %v", h.Interval)
	}
}

func TestLifespan(t *testing.T) {
	day := spec.Duration{N: 1, Unit: spec.Day}
	statuses := map[string]Status{}
	lookup := func(name string) (Status, bool) { s, ok := statuses[name]; return s, ok }
	s1 := Lifespan{From: Bound{At: t0.Add(time.Hour)}, To: Bound{At: t0.Add(48 * time.Hour)}}
	s2 := Lifespan{From: Bound{Event: spec.Start, Ref: "s1"}, To: Bound{Event: spec.End, Ref: "s1"}}
	s4 := Lifespan{From: Bound{Event: spec.End, Ref: "s1", Offsets: []spec.Duration{day}}, To: Bound{At: t0.Add(30 * 24 * time.Hour)}}

	// Before s1's start: everyone pending; s1 wakes at its start.
	tr := s1.Evaluate(t0, Status{}, lookup)
	if tr.Status.Phase() != Pending || tr.Wake != t0.Add(time.Hour) || len(tr.Raised) != 0 {
		t.Errorf("s1 at t0: %+v", tr)
	}
	if tr := s2.Evaluate(t0, Status{}, lookup); tr.Status.Phase() != Pending || !tr.Wake.IsZero() {
		t.Errorf("s2 at t0: %+v", tr)
	}
	// s1 starts (a little late: the monitor ran at 1h30); the event start(s1)
	// carries the time From was reached; s2 follows it.
	tr = s1.Evaluate(t0.Add(90*time.Minute), Status{}, lookup)
	if tr.Status.Started != t0.Add(time.Hour) || len(tr.Raised) != 1 || tr.Raised[0] != spec.Start || tr.Wake != t0.Add(48*time.Hour) {
		t.Errorf("s1 start: %+v", tr)
	}
	statuses["s1"] = tr.Status
	tr2 := s2.Evaluate(t0.Add(90*time.Minute), Status{}, lookup)
	if tr2.Status.Started != t0.Add(time.Hour) || tr2.Status.Phase() != Active || !tr2.Wake.IsZero() {
		t.Errorf("s2 on start(s1): %+v", tr2)
	}
	// Idempotent.
	if again := s1.Evaluate(t0.Add(91*time.Minute), statuses["s1"], lookup); len(again.Raised) != 0 {
		t.Errorf("re-evaluation raised %v", again.Raised)
	}
	// s1 ends; s2 ends with it; s4 starts a day later.
	tr = s1.Evaluate(t0.Add(49*time.Hour), statuses["s1"], lookup)
	if tr.Status.Ended != t0.Add(48*time.Hour) || len(tr.Raised) != 1 || tr.Raised[0] != spec.End {
		t.Errorf("s1 end: %+v", tr)
	}
	statuses["s1"] = tr.Status
	if tr := s2.Evaluate(t0.Add(49*time.Hour), tr2.Status, lookup); tr.Status.Phase() != Ended {
		t.Errorf("s2 on end(s1): %+v", tr)
	}
	if tr := s4.Evaluate(t0.Add(49*time.Hour), Status{}, lookup); tr.Status.Phase() != Pending || tr.Wake != t0.Add(72*time.Hour) {
		t.Errorf("s4 before end(s1)+1 day: %+v", tr)
	}
	if tr := s4.Evaluate(t0.Add(73*time.Hour), Status{}, lookup); tr.Status.Phase() != Active {
		t.Errorf("s4 after end(s1)+1 day: %+v", tr)
	}
	// A pending sentinel whose end passes ends without starting.
	late := Lifespan{From: Bound{Event: spec.Start, Ref: "nobody"}, To: Bound{At: t0.Add(time.Hour)}}
	if tr := late.Evaluate(t0.Add(2*time.Hour), Status{}, lookup); tr.Status.Phase() != Ended || !tr.Status.Started.IsZero() {
		t.Errorf("never started: %+v", tr)
	}
	if refs := s2.Refs(); len(refs) != 2 || refs[0] != "s1" {
		t.Errorf("refs %v", refs)
	}
}

func TestLifespanOf(t *testing.T) {
	src := "Create Sentinel s1 Using http://example.com/ Monitor any change Fetch 1 day From Now To Now + 2 day\n"
	s, err := spec.ParseSentinel("", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c, err := spec.NewChecker(t0).Check(s)
	if err != nil {
		t.Fatal(err)
	}
	l := LifespanOf(c)
	if l.From.At != t0 || l.To.At != t0.Add(48*time.Hour) {
		t.Errorf("lifespan %+v", l)
	}
}

// TestEndedReopensWhenEdited: an ended status is taken up again when the
// sentinel's To clause was edited to one not reached yet; not for the
// clause it ended under, resolved again later (To Now + .. checked again at
// an edit of another clause, an event of a sentinel that ended once more),
// nor for a status kept before the clause was.
func TestEndedReopensWhenEdited(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	now := t0.Add(60 * time.Hour)
	under := func(src string, st Status) Status { st.EndedUnder = strconv.Quote(src); return st }
	started := Status{Started: t0.Add(time.Hour), Ended: t0.Add(48 * time.Hour)}
	never := Status{Ended: t0.Add(time.Hour)} // ended before it started
	from := Bound{At: t0.Add(time.Hour)}
	later := Bound{At: t0.Add(100 * time.Hour)}
	lookup := func(name string) (Status, bool) {
		if name == "s1" { // ended a second time, after an edit
			return Status{Started: t0, Ended: t0.Add(59 * time.Hour)}, true
		}
		return Status{}, true
	}
	for _, tc := range []struct {
		name  string
		l     Lifespan
		st    Status
		phase Phase
		wake  time.Time
	}{
		{"the clause it ended under, resolved later", Lifespan{From: from, To: later, ToSource: "now + 40 second"}, under("now + 40 second", started), Ended, time.Time{}},
		{"the event it ended on, once more", Lifespan{From: from, To: Bound{Event: spec.End, Ref: "s1"}, ToSource: "end(s1)"}, under("end(s1)", started), Ended, time.Time{}},
		{"a status kept before the clause was", Lifespan{From: from, To: later, ToSource: "03/01/2027"}, started, Ended, time.Time{}},
		{"a later To", Lifespan{From: from, To: later, ToSource: "03/01/2027"}, under("02/01/2026", started), Active, t0.Add(100 * time.Hour)},
		{"an earlier To", Lifespan{From: from, To: Bound{At: t0.Add(50 * time.Hour)}, ToSource: "03/03/2026 02:00"}, under("02/01/2026", started), Ended, time.Time{}},
		{"no To any more", Lifespan{From: from, To: later}, under("02/01/2026", started), Active, t0.Add(100 * time.Hour)},
		{"an event to come", Lifespan{From: from, To: Bound{Event: spec.End, Ref: "s9"}, ToSource: "end(s9)"}, under("02/01/2026", started), Active, time.Time{}},
		{"never started, a start to come", Lifespan{From: Bound{At: t0.Add(70 * time.Hour)}, To: later, ToSource: "x"}, under("y", never), Pending, t0.Add(70 * time.Hour)},
		{"never started, a start gone by", Lifespan{From: Bound{At: t0.Add(50 * time.Hour)}, To: later, ToSource: "x"}, under("y", never), Active, t0.Add(100 * time.Hour)},
	} {
		tr := tc.l.Evaluate(now, tc.st, lookup)
		if tr.Status.Phase() != tc.phase || !tr.Wake.Equal(tc.wake) {
			t.Errorf("%s: phase %v wake %v, want %v %v", tc.name, tr.Status.Phase(), tr.Wake, tc.phase, tc.wake)
		}
		if tc.phase == Active && !tc.st.Started.IsZero() && len(tr.Raised) != 0 {
			t.Errorf("%s: a sentinel taken up again raised %v", tc.name, tr.Raised)
		}
		if tc.phase == Ended && tr.Status != tc.st {
			t.Errorf("%s: status %+v changed", tc.name, tr.Status)
		}
		if tc.phase != Ended && tr.Status.EndedUnder != "" {
			t.Errorf("%s: taken up again, but still ended under %s", tc.name, tr.Status.EndedUnder)
		}
	}
	// Ending records the clause.
	l := Lifespan{From: from, To: Bound{At: t0.Add(2 * time.Hour)}, ToSource: "now + 1 hour"}
	if tr := l.Evaluate(now, Status{Started: t0.Add(time.Hour)}, lookup); tr.Status.EndedUnder != `"now + 1 hour"` {
		t.Errorf("ended under %q", tr.Status.EndedUnder)
	}
}

// TestNextDeferred: a check deferred because its hosts were busy is tried
// again after BusyRetry, twice as long each time in a row up to the
// interval, with no failure's back-off and nothing recorded but the
// deferral: it was counted as a failure, which doubled the interval (a
// daily sentinel waited two days) for a page that never failed.
func TestNextDeferred(t *testing.T) {
	p := Policy{MinInterval: time.Minute, Jitter: 0.1, BusyRetry: 2 * time.Minute}
	for _, plan := range []Plan{{Interval: 24 * time.Hour}, {OnChange: true}} {
		h := History{Interval: 6 * time.Hour, Visits: 3, Changes: 1, Observed: 3600, Errors: 2, Last: t0.Add(-time.Hour)}
		before := h
		if got := p.Next(t0, plan, &h, Deferred, 0); got != t0.Add(2*time.Minute) {
			t.Errorf("%+v: next in %v, want BusyRetry 2m", plan, got.Sub(t0))
		}
		if got := p.Next(t0, plan, &h, Deferred, 1); got != t0.Add(4*time.Minute+24*time.Second) {
			t.Errorf("%+v, again, jitter +1: next in %v, want 4m24s", plan, got.Sub(t0))
		}
		before.Deferrals = 2
		if h != before {
			t.Errorf("%+v: history %+v, want it untouched but for the deferrals %+v", plan, h, before)
		}
	}
	// In a row, up to the interval; a check that happens starts again.
	h := History{}
	var gaps []time.Duration
	for i := 0; i < 8; i++ {
		gaps = append(gaps, p.Next(t0, Plan{Interval: time.Hour}, &h, Deferred, 0).Sub(t0))
	}
	want := []time.Duration{2 * time.Minute, 4 * time.Minute, 8 * time.Minute, 16 * time.Minute, 32 * time.Minute, time.Hour, time.Hour, time.Hour}
	if !slices.Equal(gaps, want) {
		t.Errorf("deferred in a row: %v, want %v", gaps, want)
	}
	p.Next(t0, Plan{Interval: time.Hour}, &h, Unchanged, 0)
	if got := p.Next(t0, Plan{Interval: time.Hour}, &h, Deferred, 0); got != t0.Add(2*time.Minute) || h.Deferrals != 1 {
		t.Errorf("deferred after a check: next in %v, %d in a row; want 2m, 1", got.Sub(t0), h.Deferrals)
	}
	if got := (Policy{}).Next(t0, Plan{Interval: time.Hour}, &History{}, Deferred, 0); got != t0.Add(time.Minute) {
		t.Errorf("default BusyRetry: next in %v, want 1m", got.Sub(t0))
	}
}

// TestLifespanOfDuring: From during(s) is the time of the check that saved
// the clause, with its offsets (Checked.Start), an absolute bound: an
// edit checked later starts later, whatever the sentinel's creation.
func TestLifespanOfDuring(t *testing.T) {
	check := func(now time.Time, src string, lookup func(string) *spec.Stored) *spec.Checked {
		t.Helper()
		s, err := spec.ParseSentinel("", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		c := spec.NewChecker(now)
		c.Lookup = lookup
		ch, err := c.Check(s)
		if err != nil {
			t.Fatal(err)
		}
		return ch
	}
	s1 := check(t0, "Create Sentinel s1 Using http://example.com/ Monitor any change Fetch 1 day\n", nil)
	lookup := func(name string) *spec.Stored {
		if name == "s1" {
			return &spec.Stored{Checked: s1, Started: t0}
		}
		return nil
	}
	edited := t0.Add(5 * time.Hour) // s2 was created at t0, edited 5 hours later
	s2 := check(edited, "Create Sentinel s2 Using http://example.com/b Monitor any change Fetch 1 day From during(s1) + 1 hour\n", lookup)
	l := LifespanOf(s2)
	if want := edited.Add(time.Hour); l.From.Event != 0 || !l.From.At.Equal(want) {
		t.Fatalf("From during(s1) + 1 hour checked at %s: bound %+v, want At %s", edited, l.From, want)
	}
	if tr := l.Evaluate(edited.Add(30*time.Minute), Status{}, nil); tr.Status.Phase() != Pending || !tr.Wake.Equal(edited.Add(time.Hour)) {
		t.Errorf("half an hour after the edit: %+v, want pending until %s", tr, edited.Add(time.Hour))
	}
}

// TestInitialIntervalWithinBounds: the first interval of an adaptive
// sentinel is held to [MinInterval, MaxInterval] as every adaptive one is:
// vigil serve --max-interval 30m with the default initial 1h first waited
// an hour, and --min-interval 2h first checked again after one.
func TestInitialIntervalWithinBounds(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    Policy
		want time.Duration
	}{
		{"max below initial", Policy{MaxInterval: 30 * time.Minute, Jitter: -1}, 30 * time.Minute},
		{"min above initial", Policy{MinInterval: 2 * time.Hour, Jitter: -1}, 2 * time.Hour},
	} {
		var h History
		next := tc.p.Next(t0, Plan{OnChange: true}, &h, Unchanged, 0)
		if got := next.Sub(t0); got != tc.want {
			t.Errorf("%s: first check after %v, want %v", tc.name, got, tc.want)
		}
		var hf History
		next = tc.p.Next(t0, Plan{OnChange: true}, &hf, Failed, 0)
		if got := next.Sub(t0); got < tc.want || got > 2*tc.want {
			t.Errorf("%s: failed first check retried after %v, want %v doubled once", tc.name, got, tc.want)
		}
	}
}

// TestLifespanPendingWakesAtItsEnd: a sentinel that waits for another's
// event to start and whose To is a time wakes at that time, when it ends
// without starting, as any pending sentinel whose To comes first does:
// Wake was zero ("only when an event of another sentinel happens"), so
// it ended only at the monitor's next poll of pending sentinels, and its
// end(s) reached its dependants that much later.
func TestLifespanPendingWakesAtItsEnd(t *testing.T) {
	l := Lifespan{From: Bound{Event: spec.Start, Ref: "s1"}, To: Bound{At: t0.Add(time.Hour)}}
	lookup := func(string) (Status, bool) { return Status{}, true } // s1 has not started
	tr := l.Evaluate(t0, Status{}, lookup)
	if tr.Status.Phase() != Pending || len(tr.Raised) != 0 || !tr.Wake.Equal(t0.Add(time.Hour)) {
		t.Errorf("before its To: %s, raised %v, wake %v; want pending, waking at %v", tr.Status.Phase(), tr.Raised, tr.Wake, t0.Add(time.Hour))
	}
	tr = l.Evaluate(t0.Add(time.Hour), Status{}, lookup)
	if tr.Status.Phase() != Ended || !tr.Status.Ended.Equal(t0.Add(time.Hour)) || !slices.Equal(tr.Raised, []spec.EventKind{spec.End}) {
		t.Errorf("at its To: %+v; want ended without starting", tr)
	}
}

// TestNextNeverBelowMinInterval: the jitter does not bring a check sooner
// than MinInterval (vigil serve --min-interval, "the shortest interval
// between two checks of a sentinel") after the one before: a sentinel
// whose Fetch is that interval or less, or an adaptive one brought down
// to it, was checked again after 0.9 of it (54 s for a minute). Above it
// the jitter is as before, both ways.
func TestNextNeverBelowMinInterval(t *testing.T) {
	p := Policy{MinInterval: time.Minute, Jitter: 0.1}
	for _, tc := range []struct {
		name string
		plan Plan
		h    History
	}{
		{"Fetch 1 second", Plan{Interval: time.Second}, History{}},
		{"Fetch 1 minute", Plan{Interval: time.Minute}, History{}},
		{"Fetch 65 seconds", Plan{Interval: 65 * time.Second}, History{}},
		{"Fetch on change at the minimum", Plan{OnChange: true}, History{Interval: time.Minute, Visits: 5, Changes: 5, Observed: 300, Last: t0.Add(-time.Minute)}},
	} {
		for _, o := range []Outcome{Unchanged, Changed} {
			h := tc.h
			if got := p.Next(t0, tc.plan, &h, o, -1).Sub(t0); got < time.Minute {
				t.Errorf("%s, outcome %d, jitter -1: next in %v, want at least the 1m minimum", tc.name, o, got)
			}
		}
	}
	var h History
	if got := p.Next(t0, Plan{Interval: 10 * time.Minute}, &h, Unchanged, -1).Sub(t0); got != 9*time.Minute {
		t.Errorf("Fetch 10 minutes, jitter -1: next in %v, want 9m", got)
	}
}

// TestNextAfterFailureNeverBelowMinInterval: the back-off of a failed
// check, capped at MaxBackoff, keeps to MinInterval too when that is the
// longer (--min-interval 2 days): the jitter brought the check back
// after 43.2 hours.
func TestNextAfterFailureNeverBelowMinInterval(t *testing.T) {
	p := Policy{MinInterval: 48 * time.Hour, MaxBackoff: 24 * time.Hour, Jitter: 0.1}
	for errors := range 3 {
		h := History{Errors: errors}
		if got := p.Next(t0, Plan{Interval: time.Hour}, &h, Failed, -1).Sub(t0); got < p.MinInterval {
			t.Errorf("failure %d, jitter -1: next in %v, want at least the %v minimum", errors+1, got, p.MinInterval)
		}
	}
}
