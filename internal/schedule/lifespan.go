package schedule

import (
	"strconv"
	"time"

	"github.com/vigil-web/vigil/spec"
)

// Phase is where a sentinel is in its lifespan.
type Phase int

// The phases.
const (
	Pending Phase = iota // not started: its From has not come
	Active               // started and not ended: it is checked
	Ended                // its To has come: it is checked no more
)

func (p Phase) String() string {
	switch p {
	case Pending:
		return "pending"
	case Active:
		return "active"
	case Ended:
		return "ended"
	}
	return "phase?"
}

// Bound is one end of a lifespan: an absolute time (a date, or Now or
// during(s) resolved by the check that saved the clause) or the start or
// end of another sentinel of the same owner, with offsets ("start(s1) + 2
// days").
type Bound struct {
	At      time.Time      // absolute, when Event is 0
	Event   spec.EventKind // spec.Start, spec.End, or 0
	Ref     string         // the other sentinel's name, for events
	Offsets []spec.Duration
}

// Lifespan is a sentinel's From and To.
type Lifespan struct {
	From, To Bound
	// Location is the owner's time zone, Checker.Location of the check:
	// days, weeks and months added to an event keep its clock
	// (spec.Duration.AddIn). Nil is UTC. The monitor sets the zone the
	// sentinel was saved in (vigil.Sentinel.TimeZone), or the
	// deployment's (vigil serve --tz) for one saved without.
	Location *time.Location
	// ToSource is the To clause as the sentinel's source writes it ("" for
	// none): an edit that changes it can give an ended sentinel more time
	// (see Evaluate), where a new resolution of the same clause (To Now +
	// 1 day, checked again at the edit) does not.
	ToSource string
}

// Status is a sentinel's run-time status, persisted with it (the seed's
// wv_sentinelstatus): when it actually started and ended.
type Status struct {
	Started time.Time `json:"started,omitzero"`
	Ended   time.Time `json:"ended,omitzero"`
	// EndedUnder is the Lifespan.ToSource the sentinel ended under,
	// quoted (strconv.Quote), so that "" stands for a status written
	// before it was kept: such a sentinel is never taken up again.
	EndedUnder string `json:"endedUnder,omitempty"`
}

// Phase returns the phase the status records.
func (s Status) Phase() Phase {
	switch {
	case !s.Ended.IsZero():
		return Ended
	case !s.Started.IsZero():
		return Active
	}
	return Pending
}

// Lookup returns the status of another sentinel by name, false if there is
// none (deleted): its events then never happen.
type Lookup func(name string) (Status, bool)

// LifespanOf builds the lifespan of a checked sentinel: dates, Now and
// during(s) are taken resolved from the checker (Checked.Start and End,
// the time of the check that saved the clause), the start and end of
// other sentinels are kept as events (spec.TimeSpec.FollowsEvent), to be
// evaluated when they happen. Its Location is nil (UTC): the time zone is
// kept beside the checked form, not in it (vigil.Sentinel.TimeZone), and
// a caller that checked it in another sets it, as the monitor does.
func LifespanOf(c *spec.Checked) Lifespan {
	var l Lifespan
	bound := func(ts *spec.TimeSpec, resolved time.Time) Bound {
		if ts.FollowsEvent() {
			ev := ts.Base.(*spec.Event)
			b := Bound{Event: ev.Kind, Ref: ev.Name.Name}
			for _, off := range ts.Offsets {
				if off != nil {
					b.Offsets = append(b.Offsets, off.Duration)
				}
			}
			return b
		}
		return Bound{At: resolved}
	}
	l.From = bound(c.Sentinel.From, c.Start)
	l.To = bound(c.Sentinel.To, c.End)
	if c.Sentinel.To != nil {
		l.ToSource = spec.Print(c.Sentinel.To)
	}
	return l
}

// resolve returns the time a bound is reached, and false if it is not
// known yet (its event has not happened).
func (l Lifespan) resolve(b Bound, lookup Lookup) (time.Time, bool) {
	var t time.Time
	switch b.Event {
	case 0:
		return b.At, !b.At.IsZero()
	case spec.Start, spec.End:
		if lookup == nil {
			return time.Time{}, false
		}
		st, ok := lookup(b.Ref)
		if !ok {
			return time.Time{}, false
		}
		if b.Event == spec.Start {
			t = st.Started
		} else {
			t = st.Ended
		}
		if t.IsZero() {
			return time.Time{}, false
		}
	default:
		return time.Time{}, false
	}
	for _, off := range b.Offsets {
		t = off.AddIn(t, l.Location)
	}
	return t, true
}

// Transition is the result of evaluating a lifespan: the new status, the
// events it raised (which the rules of dependent sentinels react to), and
// when the lifespan must next be evaluated if nothing else happens (zero:
// only when an event of another sentinel happens).
type Transition struct {
	Status Status
	Raised []spec.EventKind // spec.Start and/or spec.End, in order
	Wake   time.Time
}

// Evaluate is the lifespan's event-condition-action rules, run at now:
//
//	ON clock or start(ref) / end(ref)  IF From is reached  DO raise start(self)
//	ON clock or start(ref) / end(ref)  IF To is reached    DO raise end(self)
//
// A sentinel whose To comes before its From is reached ends without
// starting. Evaluate is idempotent: the raised events are those not already
// in st.
//
// An ended sentinel stays ended, unless its To clause was edited (see
// Lifespan.ToSource) to one not reached yet: a later time, or an event that
// has not happened. It is then taken up again (Active if it had started,
// Pending if not: it raises start when its From comes, as any pending
// sentinel does, and nothing else until it ends again). The same clause
// resolved again never reopens it: not To Now + 1 day checked again at an
// edit of another clause (to live longer, it is written otherwise), nor To
// end(s1) when s1, edited, ends once more; nor does a status that ended
// before the clause was kept with it (Status.EndedUnder).
func (l Lifespan) Evaluate(now time.Time, st Status, lookup Lookup) Transition {
	tr := Transition{Status: st}
	end, endKnown := l.resolve(l.To, lookup)
	if st.Phase() == Ended {
		edited := st.EndedUnder != "" && st.EndedUnder != strconv.Quote(l.ToSource)
		if !edited || endKnown && !end.After(now) {
			return tr
		}
		st.Ended, st.EndedUnder = time.Time{}, ""
		tr.Status = st
	}
	if st.Phase() == Pending {
		start, ok := l.resolve(l.From, lookup)
		switch {
		case endKnown && !end.After(now) && (!ok || !start.Before(end)):
			tr.Status.Ended, tr.Status.EndedUnder = end, strconv.Quote(l.ToSource)
			tr.Raised = append(tr.Raised, spec.End)
			return tr
		case !ok:
			// Waits for the event, and ends without starting when its To
			// comes first.
			if endKnown {
				tr.Wake = end
			}
			return tr
		case start.After(now):
			tr.Wake = start
			if endKnown && end.Before(start) {
				tr.Wake = end
			}
			return tr
		}
		tr.Status.Started = start
		tr.Raised = append(tr.Raised, spec.Start)
	}
	if endKnown {
		if !end.After(now) {
			tr.Status.Ended, tr.Status.EndedUnder = end, strconv.Quote(l.ToSource)
			tr.Raised = append(tr.Raised, spec.End)
			return tr
		}
		tr.Wake = end
	}
	return tr
}

// Refs returns the names of the sentinels whose events the lifespan waits
// on: when one of them starts or ends, evaluate this lifespan again.
func (l Lifespan) Refs() []string {
	var out []string
	for _, b := range []Bound{l.From, l.To} {
		if (b.Event == spec.Start || b.Event == spec.End) && b.Ref != "" {
			out = append(out, b.Ref)
		}
	}
	return out
}
