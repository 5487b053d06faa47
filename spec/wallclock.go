package spec

import "time"

// localTime returns the instant loc's clocks show the given date and
// time of day, normalised as time.Date normalises them (the 32nd of a
// month is the 1st of the next). time.Date leaves the two cases of a
// daylight-saving change unspecified, and Go resolves them differently in
// different zones; here, as cron does:
//   - a time the clocks skip (02:30 in Paris on the day summer time
//     begins, when 02:00 becomes 03:00) is the first instant after the
//     gap, 03:00: the time is not skipped, and comes no later than it
//     must;
//   - a time the clocks show twice (02:30 in Paris on the day summer time
//     ends, when 03:00 becomes 02:00) is the first of the two: a time
//     point is one instant, reached once.
func localTime(year int, month time.Month, day, hour, min, sec, nsec int, loc *time.Location) time.Time {
	// The wall clock asked for, normalised, read as if in UTC.
	wall := time.Date(year, month, day, hour, min, sec, nsec, time.UTC)
	// The offsets in force around it: a change of offset is at most a
	// day away from a time it affects.
	var first time.Time
	var before time.Time // the latest instant whose clock is before wall
	for _, probe := range []time.Duration{-36 * time.Hour, 0, 36 * time.Hour} {
		_, offset := wall.Add(probe).In(loc).Zone()
		t := wall.Add(-time.Duration(offset) * time.Second)
		if sameWall(t.In(loc), wall) {
			if first.IsZero() || t.Before(first) {
				first = t
			}
		} else if clockOf(t.In(loc)).Before(wall) && (before.IsZero() || t.After(before)) {
			before = t
		}
	}
	if !first.IsZero() {
		return first.In(loc)
	}
	if !before.IsZero() {
		// In a gap: the offset in force before it ends where the gap
		// begins, and the first instant after the gap is its end.
		if _, end := before.In(loc).ZoneBounds(); !end.IsZero() {
			return end.In(loc)
		}
	}
	return time.Date(year, month, day, hour, min, sec, nsec, loc)
}

// clockOf returns the wall clock t shows, as a time in UTC.
func clockOf(t time.Time) time.Time {
	y, mo, d := t.Date()
	h, mi, s := t.Clock()
	return time.Date(y, mo, d, h, mi, s, t.Nanosecond(), time.UTC)
}

// sameWall reports whether t shows the wall clock wall (a time in UTC).
func sameWall(t, wall time.Time) bool { return clockOf(t).Equal(wall) }
