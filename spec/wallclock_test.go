package spec

import (
	"testing"
	"time"
)

// TestLocalTimeDST: a time point written as a local time (From or To with
// a date and a clock, and what calendar offsets reach) that the clock
// skips on a day daylight saving begins (02:30 in Paris on 29 March 2026)
// is the first instant after the gap (03:00 CEST), as cron runs it; it was
// 03:30, an hour late. One that the clock shows twice on the day it ends
// (02:30 in Paris on 25 October 2026) is the first of the two, as in New
// York, where Go took the first in one zone and the second in another.
func TestLocalTimeDST(t *testing.T) {
	paris, newYork := dstZones(t)
	utc := utc2026
	for _, tc := range []struct {
		loc        *time.Location
		from       string
		start, end time.Time
	}{
		// The gap: 02:00 to 03:00 CET, 01:00 UTC.
		{paris, "From 03/29/2026 02:30 To 04/01/2026", utc(3, 29, 1, 0), utc(3, 31, 22, 0)},
		{paris, "From 03/29/2026 02:00 To 04/01/2026", utc(3, 29, 1, 0), utc(3, 31, 22, 0)},
		{paris, "From 03/29/2026 01:59 To 04/01/2026", utc(3, 29, 0, 59), utc(3, 31, 22, 0)},
		{paris, "From 03/29/2026 03:00 To 04/01/2026", utc(3, 29, 1, 0), utc(3, 31, 22, 0)},
		{paris, "From 03/28/2026 02:30 + 1 day To 04/01/2026", utc(3, 29, 1, 0), utc(3, 31, 22, 0)},
		{paris, "From 03/22/2026 02:30 + 1 week To 04/01/2026", utc(3, 29, 1, 0), utc(3, 31, 22, 0)},
		{paris, "From 02/28/2026 02:30 To 02/28/2026 02:30 + 1 month", utc(2, 28, 1, 30), utc(3, 28, 1, 30)},
		{paris, "From 03/01/2026 To 03/29/2026 02:30", utc(2, 28, 23, 0), utc(3, 29, 1, 0)},
		// Twice: 02:00 to 03:00 CEST, then CET; the first is 00:30 UTC.
		{paris, "From 10/25/2026 02:30 To 11/01/2026", utc(10, 25, 0, 30), utc(10, 31, 23, 0)},
		{paris, "From 10/24/2026 02:30 + 1 day To 11/01/2026", utc(10, 25, 0, 30), utc(10, 31, 23, 0)},
		{paris, "From 10/25/2026 03:00 To 11/01/2026", utc(10, 25, 2, 0), utc(10, 31, 23, 0)},
		{newYork, "From 11/01/2026 01:30 To 11/02/2026", utc(11, 1, 5, 30), utc(11, 2, 5, 0)},
		{newYork, "From 03/08/2026 02:30 To 03/09/2026", utc(3, 8, 7, 0), utc(3, 9, 4, 0)},
	} {
		c := NewChecker(time.Date(2026, 1, 1, 0, 0, 0, 0, paris))
		c.Location = tc.loc
		ch, err := c.Check(mustParse(t, "Create Sentinel a Using http://a.example "+tc.from).Sentinels[0])
		if err != nil {
			t.Errorf("%s in %s: %v", tc.from, tc.loc, err)
			continue
		}
		if !ch.Start.Equal(tc.start) || !ch.End.Equal(tc.end) {
			t.Errorf("%s in %s: %s to %s (UTC %s to %s), want UTC %s to %s", tc.from, tc.loc,
				ch.Start, ch.End, ch.Start.UTC(), ch.End.UTC(), tc.start, tc.end)
		}
	}
}

// TestAddToDST: days, weeks and months added to a time keep its clock,
// and a clock the day skips is the first instant after the gap.
func TestAddToDST(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	at := func(mo time.Month, d, h, min int) time.Time { return time.Date(2026, mo, d, h, min, 0, 0, paris) }
	for _, tc := range []struct {
		t    time.Time
		d    Duration
		want time.Time
	}{
		{at(3, 28, 2, 30), Duration{1, Day}, at(3, 29, 3, 0)},
		{at(3, 28, 2, 30), Duration{2, Day}, at(3, 30, 2, 30)},
		{at(3, 28, 12, 0), Duration{1, Day}, at(3, 29, 12, 0)},
		{at(3, 30, 2, 30), Duration{-1, Day}, at(3, 29, 3, 0)},
		{at(10, 24, 2, 30), Duration{1, Day}, time.Date(2026, 10, 25, 0, 30, 0, 0, time.UTC)},
		{at(3, 28, 2, 30), Duration{1, Hour}, at(3, 28, 3, 30)},
	} {
		if got := tc.d.AddTo(tc.t); !got.Equal(tc.want) {
			t.Errorf("%s + %s = %s, want %s", tc.t, tc.d, got, tc.want.In(paris))
		}
	}
}
