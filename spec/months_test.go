package spec

import (
	"testing"
	"time"
)

// TestAddMonths: a month added to a day the month reached does not have
// is the last day of that month, as calendars count, where time.AddDate
// went on into the next (Jan 31 + 1 month was Mar 3, or Mar 2 in a leap
// year); the clock and the location are kept.
func TestAddMonths(t *testing.T) {
	paris, _ := dstZones(t)
	at := func(y int, mo time.Month, d, h, min int) time.Time {
		return time.Date(y, mo, d, h, min, 0, 0, time.UTC)
	}
	for name, tc := range map[string]struct {
		t    time.Time
		n    int64
		want time.Time
	}{
		"jan 31 + 1":                  {at(2026, 1, 31, 9, 30), 1, at(2026, 2, 28, 9, 30)},
		"jan 31 + 1, leap year":       {at(2024, 1, 31, 9, 30), 1, at(2024, 2, 29, 9, 30)},
		"jan 31 + 1, 2100 not leap":   {at(2100, 1, 31, 0, 0), 1, at(2100, 2, 28, 0, 0)},
		"jan 31 + 1, 2000 leap":       {at(2000, 1, 31, 0, 0), 1, at(2000, 2, 29, 0, 0)},
		"jan 30 + 1":                  {at(2026, 1, 30, 0, 0), 1, at(2026, 2, 28, 0, 0)},
		"jan 31 + 2":                  {at(2026, 1, 31, 0, 0), 2, at(2026, 3, 31, 0, 0)},
		"jan 31 + 3":                  {at(2026, 1, 31, 0, 0), 3, at(2026, 4, 30, 0, 0)},
		"mar 31 + 1":                  {at(2026, 3, 31, 0, 0), 1, at(2026, 4, 30, 0, 0)},
		"aug 31 + 1":                  {at(2026, 8, 31, 0, 0), 1, at(2026, 9, 30, 0, 0)},
		"feb 29 + 12":                 {at(2024, 2, 29, 0, 0), 12, at(2025, 2, 28, 0, 0)},
		"feb 29 + 48":                 {at(2024, 2, 29, 0, 0), 48, at(2028, 2, 29, 0, 0)},
		"feb 28 + 1 keeps the 28th":   {at(2026, 2, 28, 0, 0), 1, at(2026, 3, 28, 0, 0)},
		"dec 31 + 1, across the year": {at(2026, 12, 31, 23, 59), 1, at(2027, 1, 31, 23, 59)},
		"dec 15 + 2, across the year": {at(2026, 12, 15, 0, 0), 2, at(2027, 2, 15, 0, 0)},
		"nov 30 + 3, across the year": {at(2026, 11, 30, 0, 0), 3, at(2027, 2, 28, 0, 0)},
		"dec 31 + 14":                 {at(2026, 12, 31, 0, 0), 14, at(2028, 2, 29, 0, 0)},
		"mar 31 - 1":                  {at(2026, 3, 31, 0, 0), -1, at(2026, 2, 28, 0, 0)},
		"mar 31 - 1, leap year":       {at(2024, 3, 31, 0, 0), -1, at(2024, 2, 29, 0, 0)},
		"jan 31 - 1, across the year": {at(2026, 1, 31, 0, 0), -1, at(2025, 12, 31, 0, 0)},
		"jan 15 - 13":                 {at(2026, 1, 15, 0, 0), -13, at(2024, 12, 15, 0, 0)},
		"may 31 - 3":                  {at(2026, 5, 31, 0, 0), -3, at(2026, 2, 28, 0, 0)},
		"zero":                        {at(2026, 1, 31, 0, 0), 0, at(2026, 1, 31, 0, 0)},
		// Paris: summer time from Mar 29 2026; the wall clock is kept.
		"jan 31 + 2 in paris, across summer time": {time.Date(2026, 1, 31, 9, 0, 0, 0, paris), 2, time.Date(2026, 3, 31, 9, 0, 0, 0, paris)},
		"jan 29 + 2 in paris, into the gap":       {time.Date(2026, 1, 29, 2, 30, 0, 0, paris), 2, time.Date(2026, 3, 29, 3, 0, 0, 0, paris)},
		"mar 31 - 1 in paris":                     {time.Date(2026, 3, 31, 9, 0, 0, 0, paris), -1, time.Date(2026, 2, 28, 9, 0, 0, 0, paris)},
	} {
		got := Duration{tc.n, Month}.AddTo(tc.t)
		if !got.Equal(tc.want) {
			t.Errorf("%s: %s + %d months = %s, want %s", name, tc.t, tc.n, got, tc.want)
		}
		if got.Location() != tc.t.Location() {
			t.Errorf("%s: location %s, want %s", name, got.Location(), tc.t.Location())
		}
	}
}

// TestAddMonthsFromAnchor: months counted from one first time (k×n months
// after it, as a recurring schedule counts them) come back to its day
// where the month has it, where months added one after the other stay on
// the shortest day met.
func TestAddMonthsFromAnchor(t *testing.T) {
	anchor := date(2026, 1, 31, 8, 0)
	want := []time.Time{date(2026, 2, 28, 8, 0), date(2026, 3, 31, 8, 0), date(2026, 4, 30, 8, 0), date(2026, 5, 31, 8, 0)}
	chained := anchor
	for k, w := range want {
		got := Duration{int64(k + 1), Month}.AddTo(anchor)
		if !got.Equal(w) {
			t.Errorf("anchor + %d months = %s, want %s", k+1, got, w)
		}
		chained = Duration{1, Month}.AddTo(chained)
	}
	if c := chained.Day(); c != 28 {
		t.Errorf("four single months from Jan 31 end on day %d, want 28 (the drift the anchor avoids)", c)
	}
}

// TestDaysIn: the length of every month, February in leap years and not.
func TestDaysIn(t *testing.T) {
	for name, tc := range map[string]struct {
		y    int
		m    time.Month
		want int
	}{
		"jan":            {2026, time.January, 31},
		"feb":            {2026, time.February, 28},
		"feb leap":       {2024, time.February, 29},
		"feb 1900":       {1900, time.February, 28},
		"feb 2000":       {2000, time.February, 29},
		"apr":            {2026, time.April, 30},
		"dec":            {2026, time.December, 31},
		"dec before jan": {-1, time.December, 31},
	} {
		if got := daysIn(tc.y, tc.m); got != tc.want {
			t.Errorf("%s: daysIn(%d, %s) = %d, want %d", name, tc.y, tc.m, got, tc.want)
		}
	}
}

// FuzzAddMonths: n months added to any day land in the month n months on
// (the count of months between the two is n exactly), on the same day or,
// where that month is shorter, on its last; the clock is kept.
func FuzzAddMonths(f *testing.F) {
	f.Add(2026, 1, 31, int64(1))
	f.Add(2024, 1, 31, int64(1))
	f.Add(2026, 12, 31, int64(1))
	f.Add(2026, 3, 31, int64(-1))
	f.Add(2024, 2, 29, int64(12))
	f.Add(1999, 11, 30, int64(-25))
	f.Fuzz(func(t *testing.T, y, m, d int, n int64) {
		y, m, d = 1+mod(y, 9000), 1+mod(m, 12), 1+mod(d, 31)
		n %= 12 * 500
		if n < 0 && int64(y)*12+n < 12 {
			n = -n
		}
		from := time.Date(y, time.Month(m), 1, 13, 45, 7, 0, time.UTC)
		from = time.Date(y, time.Month(m), min(d, daysIn(y, from.Month())), 13, 45, 7, 0, time.UTC)
		got := Duration{n, Month}.AddTo(from)
		months := (int64(got.Year())*12 + int64(got.Month())) - (int64(from.Year())*12 + int64(from.Month()))
		if months != n {
			t.Fatalf("%s + %d months = %s: %d months on", from, n, got, months)
		}
		if got.Day() > from.Day() {
			t.Fatalf("%s + %d months = %s: day after the original", from, n, got)
		}
		if got.Day() < from.Day() && got.Day() != daysIn(got.Year(), got.Month()) {
			t.Fatalf("%s + %d months = %s: day cut short of the month's last", from, n, got)
		}
		if h, mi, s := got.Clock(); h != 13 || mi != 45 || s != 7 {
			t.Fatalf("%s + %d months = %s: clock not kept", from, n, got)
		}
	})
}

// mod returns x modulo k, in 0..k-1 whatever x's sign.
func mod(x, k int) int { return (x%k + k) % k }
