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
