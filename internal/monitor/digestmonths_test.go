package monitor

import (
	"context"
	"testing"
	"time"

	"github.com/vigil-web/vigil/internal/schedule"
	"github.com/vigil-web/vigil/spec"
)

// TestDigestEveryMonthFromJan31: a digest of Every 1 month whose first
// period began on Jan 31 ends on Feb 28, then Mar 31 and Apr 30: each
// month's day of the first start, or its last. Its periods were 31 days
// (Mar 3, Apr 3, May 4), the month's length counted from year 1.
func TestDigestEveryMonthFromJan31(t *testing.T) {
	db, wh, u := testStore(t)
	start := time.Date(2026, 1, 31, 9, 0, 0, 0, time.UTC)
	p := &andPages{db: db, u: u, clock: start}
	p.s = createSentinel(t, db, spec.NewChecker(start), u, "monthly", digestSource("1 month", ""))
	p.f = &pagesFetcher{pages: map[string]string{pageA: pageWith("a0")}}
	p.m = &Monitor{Store: db, Warehouse: wh, Fetcher: p.f, Policy: schedule.Policy{MinInterval: time.Minute},
		Now: func() time.Time { return p.clock }}
	due := func() time.Time {
		t.Helper()
		states, err := db.SentinelStates(context.Background(), []int64{p.s.ID})
		if err != nil {
			t.Fatal(err)
		}
		return Summary(states[p.s.ID], p.s).DigestDue
	}
	at := func(mo time.Month, d int) time.Time { return time.Date(2026, mo, d, 9, 0, 0, 0, time.UTC) }
	for _, tc := range []struct {
		check, want time.Time
	}{
		{start, at(2, 28)},
		{at(2, 10), at(2, 28)},
		{at(2, 28), at(3, 31)},
		{at(3, 31), at(4, 30)},
		{at(4, 30), at(5, 31)},
		{at(7, 1), at(7, 31)}, // June's end passed unchecked
	} {
		p.clock = tc.check
		makeDue(t, db, p.s, p.clock)
		runOnce(t, p.m, 1)
		if got := due(); !got.Equal(tc.want) {
			t.Errorf("after the check of %s: next digest %s, want %s", tc.check.Format(time.DateOnly), got, tc.want)
		}
	}
}

// TestNextDigestDue: the end of the next digest period, counted in months
// from the first period's start in the owner's zone, or from the open
// period's end for a state saved before that start was kept; a fixed
// period adds its length.
func TestNextDigestDue(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	utc := func(y int, mo time.Month, d int) time.Time { return time.Date(y, mo, d, 9, 0, 0, 0, time.UTC) }
	monthly := func(n int64) *plan {
		return &plan{every: 31 * 24 * time.Hour, calendar: spec.Duration{N: n, Unit: spec.Month}}
	}
	daily := &plan{every: 24 * time.Hour, calendar: spec.Duration{N: 1, Unit: spec.Day}}
	for name, tc := range map[string]struct {
		p              *plan
		due, from, now time.Time
		loc            *time.Location
		want, first    time.Time
	}{
		"jan 31 to mar 31": {monthly(1), utc(2026, 2, 28), utc(2026, 1, 31), utc(2026, 2, 28), time.UTC, utc(2026, 3, 31), utc(2026, 1, 31)},
		"leap year":        {monthly(1), utc(2024, 1, 31), utc(2024, 1, 31), utc(2024, 1, 31), time.UTC, utc(2024, 2, 29), utc(2024, 1, 31)},
		"across the year":  {monthly(1), utc(2026, 11, 30), utc(2026, 8, 31), utc(2026, 12, 1), time.UTC, utc(2026, 12, 31), utc(2026, 8, 31)},
		"into january":     {monthly(1), utc(2026, 12, 31), utc(2026, 8, 31), utc(2026, 12, 31), time.UTC, utc(2027, 1, 31), utc(2026, 8, 31)},
		"every 2 months":   {monthly(2), utc(2026, 3, 31), utc(2026, 1, 31), utc(2026, 3, 31), time.UTC, utc(2026, 5, 31), utc(2026, 1, 31)},
		"every 3 months":   {monthly(3), utc(2025, 11, 30), utc(2025, 11, 30), utc(2025, 11, 30), time.UTC, utc(2026, 2, 28), utc(2025, 11, 30)},
		"years unchecked":  {monthly(1), utc(2026, 2, 28), utc(2026, 1, 31), utc(2029, 3, 15), time.UTC, utc(2029, 3, 31), utc(2026, 1, 31)},
		// A state saved before DigestFrom was kept: its open period
		// ends where it was set to, and months count from there.
		"no start kept":  {monthly(1), utc(2026, 3, 3), time.Time{}, utc(2026, 3, 3), time.UTC, utc(2026, 4, 3), utc(2026, 3, 3)},
		"no start, late": {monthly(1), utc(2026, 3, 3), time.Time{}, utc(2026, 5, 10), time.UTC, utc(2026, 6, 3), utc(2026, 3, 3)},
		// More months than a calendar offset counts (AddTo stops at
		// 2^20): a period from now, where the search never ended.
		"ages unchecked": {monthly(1), utc(2026, 2, 28), utc(2026, 1, 31), utc(100000, 3, 15), time.UTC, utc(100000, 4, 15), utc(100000, 3, 15)},
		// Days keep the owner's clock across daylight saving (29 March
		// 2026 in Paris), counted from the first start.
		"a day's clock":      {daily, time.Date(2026, 3, 28, 9, 0, 0, 0, paris), time.Date(2026, 3, 20, 9, 0, 0, 0, paris), time.Date(2026, 3, 28, 9, 0, 0, 0, paris), paris, time.Date(2026, 3, 29, 9, 0, 0, 0, paris), time.Date(2026, 3, 20, 9, 0, 0, 0, paris)},
		"days unchecked":     {daily, utc(2026, 2, 28), utc(2026, 1, 31), utc(2029, 3, 15).Add(time.Hour), time.UTC, utc(2029, 3, 16), utc(2026, 1, 31)},
		"days for ages":      {daily, utc(2026, 2, 28), utc(2026, 1, 31), utc(100000, 3, 15), time.UTC, utc(100000, 3, 16), utc(100000, 3, 15)},
		"a fixed period":     {&plan{every: 24 * time.Hour}, utc(2026, 1, 31), time.Time{}, utc(2026, 2, 2), time.UTC, utc(2026, 2, 3), time.Time{}},
		"the owner's clock":  {monthly(1), time.Date(2026, 2, 28, 9, 0, 0, 0, paris), time.Date(2026, 1, 31, 9, 0, 0, 0, paris), time.Date(2026, 2, 28, 9, 0, 0, 0, paris), paris, time.Date(2026, 3, 31, 9, 0, 0, 0, paris), time.Date(2026, 1, 31, 9, 0, 0, 0, paris)},
		"the owner's months": {monthly(1), time.Date(2026, 1, 31, 23, 30, 0, 0, time.UTC), time.Date(2026, 1, 31, 23, 30, 0, 0, time.UTC), time.Date(2026, 1, 31, 23, 30, 0, 0, time.UTC), paris, time.Date(2026, 3, 1, 0, 30, 0, 0, paris), time.Date(2026, 1, 31, 23, 30, 0, 0, time.UTC)},
	} {
		got, first := nextDigestDue(tc.due, tc.from, tc.p, tc.now, tc.loc)
		if !got.Equal(tc.want) || !first.Equal(tc.first) {
			t.Errorf("%s: %s from %s, want %s from %s", name, got, first, tc.want, tc.first)
		}
	}
}
