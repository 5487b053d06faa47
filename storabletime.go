package vigil

import (
	"math"
	"time"
)

// StorableTime reports whether t is within the times every store keeps:
// those whose Unix nanoseconds an int64 holds, from 1677-09-21 to
// 2262-04-11 (time.Time's UnixNano, which SQLite stores; outside it the
// count wraps round to another year).
func StorableTime(t time.Time) bool {
	return !t.Before(firstStorableTime()) && !t.After(lastStorableTime())
}

func firstStorableTime() time.Time { return time.Unix(0, math.MinInt64).UTC() }
func lastStorableTime() time.Time  { return time.Unix(0, math.MaxInt64).UTC() }

// timeOutOfRange is the EINVALID error of a time field that is not
// StorableTime.
func timeOutOfRange(field string, t time.Time) error {
	// The range in whole seconds within it.
	first := firstStorableTime().Truncate(time.Second).Add(time.Second)
	last := lastStorableTime().Truncate(time.Second)
	return Errorf(EINVALID, "%s %s out of range: times from %s to %s are kept", field, t.UTC().Format(time.RFC3339Nano),
		first.Format(time.RFC3339), last.Format(time.RFC3339))
}

// CheckStorableTime returns nil for the zero time (none) and a
// StorableTime, and otherwise an EINVALID error naming field ("sentinel
// nextCheck") and the range kept: what both stores return for a time
// they are given to keep outside it.
func CheckStorableTime(field string, t time.Time) error {
	if t.IsZero() || StorableTime(t) {
		return nil
	}
	return timeOutOfRange(field, t)
}

// ClampStorableTime returns t (the zero time too: none), or the nearest
// time within those every store keeps (StorableTime) for a time outside
// them: for a time that
// only bounds what is to come, as a next check a few centuries away,
// which is never in practice, where the store would refuse it.
func ClampStorableTime(t time.Time) time.Time {
	switch {
	case t.IsZero():
		return t // none
	case t.Before(firstStorableTime()):
		return firstStorableTime()
	case t.After(lastStorableTime()):
		return lastStorableTime()
	}
	return t
}
