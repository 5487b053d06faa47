package spec

import (
	"fmt"
	"strings"
	"time"
)

// msgStartEvent opens the message for a during(s) whose s is not active:
// the seed's words for it (Fig 7.2), which read plainly. The seed's other
// messages ("startTimept,Given timepoint is less than current time",
// "startEventstatus, start + timeinterval is less than currenttime",
// "startType,End time is less than start time") are written here in plain
// words that name the clause, its time and what to write instead.
const msgStartEvent = "start event is invalid"

// What to write instead of a time point that has passed, by clause.
const (
	fixFromPassed = "write a later time, or From Now to start at once"
	fixToPassed   = "write a later time, such as To Now + 1 month"
)

// lifespan resolves From and To of the complete sentinel out to absolute
// times and applies the time-lapse rules of the seed (§6.4, Fig 7.2,
// Appendix C): a start or end that has already lapsed is an error, an
// event of a sentinel that has already happened is taken from its status,
// "during" needs the other sentinel to be active, and the start must come
// before the end. A default To (toDefaulted) is resolved only when From
// is: it is built on From, whose errors are its own.
func (k *checking) lifespan(out *Sentinel, parent *Stored, toDefaulted bool) (start, end time.Time) {
	s := k.s
	// An inherited clause shares its node with the parent's; a defaulted
	// one is new.
	prefix := func(stated, got *TimeSpec) string {
		if stated == nil && parent != nil && (got == parent.Sentinel.From || got == parent.Sentinel.To) {
			return "inherited from " + short(parent.Sentinel.Name.Name) + ": "
		}
		return ""
	}
	fromBlame := k.blame(s.From)
	toBlame := k.blame(s.To)
	start, okS := k.point(out.From, true, fromBlame, prefix(s.From, out.From))
	if !okS && toDefaulted {
		return start, time.Time{}
	}
	if toDefaulted {
		// The default To is the lifespan after the start (after now for
		// From during(s), whose start is now): one past the last year is
		// the From's doing, and said there.
		if end := k.c.lifespan().AddIn(start, k.c.loc()); afterLastYear(end, k.c.loc()) {
			k.errorf(timeBlame(fromBlame, out.From), Print(out.From), "%sFrom %s leaves no room for the default lifespan of %s, which would end after the year %d (%s), the last Vigil keeps: write a To before it",
				prefix(s.From, out.From), shortCode(Print(out.From)), k.c.lifespan(), lastYear, k.fmtTime(end))
			return start, time.Time{}
		}
	}
	end, okE := k.point(out.To, false, toBlame, prefix(s.To, out.To))
	if !okS || !okE {
		return start, end
	}
	if k.toNow(out.To, toBlame, prefix(s.To, out.To)) {
		return start, end
	}
	if !start.Before(end) {
		k.errorf(timeBlame(toBlame, out.To), Print(out.To), "%sTo %s is not after From %s: the sentinel would end at %s and start at %s; write a To later than the From",
			prefix(s.To, out.To), Print(out.To), Print(out.From), k.fmtTime(end), k.fmtTime(start))
	}
	return start, end
}

// stack returns the names of the sentinels an estimate of an event
// begins with: the one checked, none if the parser read no name
// (CheckPartial of a header that did not parse).
func (k *checking) stack() []string {
	if k.s.Name == nil {
		return nil
	}
	return []string{k.s.Name.Name}
}

// toNow reports to, a To clause, when it is To Now, which would end the
// sentinel as soon as it starts, at blame (see timeBlame) with prefix,
// and says whether it did.
func (k *checking) toNow(to *TimeSpec, blame Node, prefix string) bool {
	if _, isNow := to.Base.(*Now); isNow && len(to.Offsets) == 0 {
		k.errorf(timeBlame(blame, to), "Now", "%sTo Now would end the sentinel as soon as it starts: write To Now + a duration (To Now + 1 month), a later date, or no To for the default lifespan", prefix)
		return true
	}
	return false
}

// timeBlame is where a message about the time point ts is given: at its
// date, Now or event when the sentinel states it (blame is ts), else at
// blame (the target, for an inherited or defaulted clause).
func timeBlame(blame Node, ts *TimeSpec) Node {
	if ts != nil && blame == Node(ts) && !isNilNode(ts.Base) {
		return ts.Base
	}
	return blame
}

func (k *checking) fmtTime(t time.Time) string {
	return t.In(k.c.loc()).Format("01/02/2006 15:04 MST")
}

// point resolves one time point of the new sentinel and checks that it has
// not lapsed.
//
// An edit (CheckReplace) keeps a time point of the sentinel it replaces
// that it writes the same: as it was resolved, and not refused for having
// passed. The sentinel started, or ended, on it; resolved again, From
// 01/05/2026 refused every edit once the day had passed, and To Now +
// 30 days moved at every edit. A start(s) or end(s) whose event has not
// happened is the exception: it is resolved again from s as it is now,
// which an edit of s may have moved (RecheckStored), and kept, not
// refused for having passed, only where it resolves as before. So is a
// date to come when the edit is checked in another zone than the one the
// sentinel was (Stored.Location): 09:00 written the same is another
// instant there, and the edit reads it again in its zone, as it reads
// the dates it writes anew; a date that has passed is kept, the sentinel
// having started or ended on it.
func (k *checking) point(ts *TimeSpec, isStart bool, blame Node, prefix string) (time.Time, bool) {
	now := k.c.Now
	if ts == nil || ts.Base == nil {
		return time.Time{}, false
	}
	var kept time.Time // the time point as resolved before, if it follows an event to come
	if prev := k.c.replacing; prev != nil && prev.Checked != nil && prev.Sentinel != nil {
		was, resolved := prev.Sentinel.From, prev.Start
		if !isStart {
			was, resolved = prev.Sentinel.To, prev.End
		}
		if was != nil && !resolved.IsZero() && Print(was) == Print(ts) && !k.dateToReread(ts, prev, resolved) {
			if !k.eventToCome(ts) {
				return resolved, true
			}
			kept = resolved
		}
	}
	var t time.Time
	happened := false // the base is an event that has already happened
	switch b := ts.Base.(type) {
	case *Now:
		t = now
	case *Date:
		t = k.date(b)
	case *Event:
		at := Node(b)
		if blame != Node(ts) {
			at = blame
		}
		if b.Name == nil {
			return time.Time{}, false
		}
		ref := k.ref(b.Name, b.Kind.String()+"(...)")
		if ref == nil {
			return time.Time{}, false
		}
		switch b.Kind {
		case During:
			if !isStart {
				return time.Time{}, false // reported by the validator
			}
			if state := k.inactive(ref); state != "" {
				k.errorf(at, b.Name.Name, "%s%s: during(%s) needs %s to be active, but it %s", prefix, msgStartEvent, short(b.Name.Name), short(b.Name.Name), state)
				return time.Time{}, false
			}
			t = now
		case Start, End:
			when := ref.Started
			if b.Kind == End {
				when = ref.Ended
			}
			if !when.IsZero() {
				t, happened = when, true
			} else {
				var err string
				t, err = k.estimate(ref, b.Kind, k.stack())
				if err != "" {
					k.errorf(at, b.Name.Name, "%s%s", prefix, err)
					return time.Time{}, false
				}
			}
		}
	default:
		return time.Time{}, false
	}
	for _, off := range ts.Offsets {
		if off != nil {
			t = off.AddIn(t, k.c.loc())
		}
	}
	if !kept.IsZero() && t.Equal(kept) {
		return kept, true
	}
	if afterLastYear(t, k.c.loc()) {
		clause := "From"
		if !isStart {
			clause = "To"
		}
		text := Print(ts)
		k.errorf(timeBlame(blame, ts), text, "%s%s %s is after the year %d (%s), the last Vigil keeps: write an earlier time",
			prefix, clause, shortCode(text), lastYear, k.fmtTime(t))
		return t, false
	}
	// A time point may be now; an event that has happened must still be
	// ahead once the offset is added, or it will never fire (§6.4: "s
	// should not have started").
	if _, isNow := ts.Base.(*Now); !isNow && (t.Before(now) || happened && !t.After(now)) {
		clause, fix := "From", fixFromPassed
		if !isStart {
			clause, fix = "To", fixToPassed
		}
		text := Print(ts)
		if _, isEvent := ts.Base.(*Event); isEvent {
			k.errorf(timeBlame(blame, ts), text, "%s%s %s has passed (%s is %s, not after now, %s): %s",
				prefix, clause, shortCode(text), shortCode(text), k.fmtTime(t), k.fmtTime(now), fix)
		} else {
			k.errorf(timeBlame(blame, ts), text, "%s%s %s has passed (%s is before now, %s): %s",
				prefix, clause, shortCode(text), k.fmtTime(t), k.fmtTime(now), fix)
		}
		return t, false
	}
	return t, true
}

// dateToReread says whether ts, a time point the edit writes as prev,
// the sentinel it replaces, did and resolved then at resolved, is to be
// read again and not kept: a date still to come, prev having been
// checked in another zone than the edit is (Stored.Location; nil, not
// known, is taken for the same).
func (k *checking) dateToReread(ts *TimeSpec, prev *Stored, resolved time.Time) bool {
	if _, isDate := ts.Base.(*Date); !isDate || prev.Location == nil {
		return false
	}
	return prev.Location.String() != k.c.loc().String() && resolved.After(k.c.Now)
}

// eventToCome says whether ts is start(s) or end(s) of a known sentinel
// s whose event has not happened yet: its time is s's lifespan as it is
// now, not as it was when ts was first resolved.
func (k *checking) eventToCome(ts *TimeSpec) bool {
	b, ok := ts.Base.(*Event)
	if !ok || b.Name == nil || b.Kind != Start && b.Kind != End {
		return false
	}
	ref := k.c.lookup(b.Name.Name)
	if ref == nil || ref.Checked == nil || ref.Sentinel == nil {
		return false
	}
	if b.Kind == Start {
		return ref.Started.IsZero()
	}
	return ref.Ended.IsZero()
}

// startsLater reports whether a start at t is still to come at now, to
// the minute, as the language writes times: a sentinel created From Now a
// few seconds after the minute now stands at has started, where a start
// that lies only in the seconds ahead of now would be refused as "it
// starts" at the minute now reads.
func startsLater(t, now time.Time) bool {
	return t.Truncate(time.Minute).After(now)
}

// inactive returns why ref is not active at the check's time ("has not
// started: it starts ...", "has ended"), or "" if it is. Its status says
// so when it has one; a sentinel without (one of the same file or batch,
// or one the monitor has not taken up yet) is taken at its lifespan: it has
// started if its start, Now or a time point or event resolved as estimate
// does, is not after the check's time.
func (k *checking) inactive(ref *Stored) string {
	now := k.c.Now
	started, ended := ref.Started, ref.Ended
	stack := k.stack()
	if started.IsZero() {
		when, err := k.estimate(ref, Start, stack)
		switch {
		case err != "":
			return "has not started (" + err + ")"
		case when.IsZero():
			return "has not started"
		case startsLater(when, now):
			return "has not started: it starts " + k.fmtTime(when) + "; write From start(" + short(ref.Sentinel.Name.Name) + ") to start with it"
		}
		started = when
	}
	if startsLater(started, now) {
		return "has not started: it starts " + k.fmtTime(started)
	}
	if ended.IsZero() {
		if when, err := k.estimate(ref, End, stack); err == "" && !when.IsZero() && !when.After(now) {
			ended = when
		}
	}
	if !ended.IsZero() && !ended.After(now) {
		return "has ended"
	}
	return ""
}

func (k *checking) date(d *Date) time.Time {
	return localTime(d.Year, time.Month(d.Month), d.Day, d.Hour, d.Minute, 0, 0, k.c.loc())
}

// estimate returns when the start or end event of a stored sentinel that
// has not happened yet is expected: the time kept with it, unless it
// follows an event of another (TimeSpec.FollowsEvent), whose lifespan is
// then resolved recursively (the seed's Appendix C). stack holds the sentinels whose
// lifespans depend on this one, to report cycles.
func (k *checking) estimate(ref *Stored, kind EventKind, stack []string) (time.Time, string) {
	name := ref.Sentinel.Name.Name
	for _, n := range stack {
		if sameName(n, name) {
			return time.Time{}, "cycle in lifespans: " + strings.Join(append(stack, name), " -> ")
		}
	}
	if len(stack) > 10000 {
		return time.Time{}, "lifespan dependencies too deep"
	}
	stack = append(stack, name)
	ts := ref.Sentinel.From
	resolved := ref.Start
	if kind == End {
		ts, resolved = ref.Sentinel.To, ref.End
	}
	if !ts.FollowsEvent() {
		return resolved, ""
	}
	b := ts.Base.(*Event)
	for _, n := range stack {
		if sameName(n, b.Name.Name) {
			return time.Time{}, "cycle in lifespans: " + strings.Join(append(stack, b.Name.Name), " -> ")
		}
	}
	sub := k.c.lookup(b.Name.Name)
	if sub != nil && sub.Unreadable != nil {
		return time.Time{}, fmt.Sprintf("%s depends on sentinel %s, which cannot be read from the store: %v", short(name), short(b.Name.Name), sub.Unreadable)
	}
	if sub == nil || sub.Checked == nil || sub.Sentinel == nil {
		return time.Time{}, fmt.Sprintf("%s depends on unknown sentinel %s", short(name), short(b.Name.Name))
	}
	t := sub.Started
	if b.Kind == End {
		t = sub.Ended
	}
	if t.IsZero() {
		var err string
		if t, err = k.estimate(sub, b.Kind, stack); err != "" {
			return t, err
		}
	}
	for _, off := range ts.Offsets {
		if off != nil {
			t = off.AddIn(t, k.c.loc())
		}
	}
	return t, ""
}

// FollowsEvent reports whether the time point waits for another
// sentinel's start or end (start(s) or end(s), with its offsets), known
// only when that sentinel's lifespan is. Any other time point (a date,
// Now, during(s)) is resolved once, by the check of the text that writes
// it, and kept with the sentinel (Checked.Start or End): Now is the time
// of that check, the creation or the edit that saved the clause (an edit
// that keeps the clause keeps its time). That kept time is what such a
// time point stands for to everyone after: the checker estimating when a
// stored sentinel starts or ends, and the monitor's lifespans
// (schedule.LifespanOf).
func (t *TimeSpec) FollowsEvent() bool {
	if t == nil {
		return false
	}
	ev, ok := t.Base.(*Event)
	return ok && ev.Name != nil && (ev.Kind == Start || ev.Kind == End)
}

// lastYear is the last year of the times a sentinel's lifespan may reach:
// its start and end are kept as RFC 3339 times (the store's JSON form,
// the API's), which have four-digit years.
const lastYear = 9999

// afterLastYear reports whether t falls after lastYear, in UTC or on
// loc's clocks (in which the checked sentinel's times are written).
func afterLastYear(t time.Time, loc *time.Location) bool {
	if loc == nil {
		loc = time.UTC
	}
	return t.UTC().Year() > lastYear || t.In(loc).Year() > lastYear
}
