package spec

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Unit is the unit of a Duration.
type Unit int

// The units of the language. The seed allows second to week; Vigil adds
// month, a calendar month, for lifespans and digests.
const (
	Second Unit = iota + 1
	Minute
	Hour
	Day
	Week
	Month
)

var unitNames = [...]string{Second: "second", Minute: "minute", Hour: "hour", Day: "day", Week: "week", Month: "month"}

// String returns the singular name of the unit ("day").
func (u Unit) String() string {
	if u >= Second && u <= Month {
		return unitNames[u]
	}
	return "unit(" + strconv.Itoa(int(u)) + ")"
}

// ParseUnit returns the unit named by word, singular or plural, in any case.
func ParseUnit(word string) (Unit, bool) {
	w := strings.ToLower(word)
	w = strings.TrimSuffix(w, "s")
	for u := Second; u <= Month; u++ {
		if unitNames[u] == w {
			return u, true
		}
	}
	return 0, false
}

// Duration is a length of time as the user wrote it: a count and a unit
// ("1 day", "30 seconds", "2 months"). Seconds, minutes, hours have a fixed
// length; days and weeks are calendar days when added to a time (they follow
// daylight-saving shifts in the checker's location) and 24 h / 7×24 h when
// converted to a time.Duration; months are calendar months and have no fixed
// length.
type Duration struct {
	N    int64
	Unit Unit
}

// String returns the canonical form in English: the unit singular for a
// count of one ("1 day"), plural otherwise ("2 days"). The seed writes
// "2 day"; both forms parse.
func (d Duration) String() string {
	s := strconv.FormatInt(d.N, 10) + " " + d.Unit.String()
	if d.N != 1 && d.N != -1 {
		s += "s"
	}
	return s
}

// IsZero reports whether d is the zero Duration (no duration given).
func (d Duration) IsZero() bool { return d == Duration{} }

// Fixed reports whether d has a fixed length, that is, its unit is not Month.
func (d Duration) Fixed() bool { return d.Unit >= Second && d.Unit <= Week }

var unitLength = [...]time.Duration{Second: time.Second, Minute: time.Minute, Hour: time.Hour, Day: 24 * time.Hour, Week: 7 * 24 * time.Hour}

// Std converts d to a time.Duration. It returns false for months, which have
// no fixed length, and when the result would overflow.
func (d Duration) Std() (time.Duration, bool) {
	if !d.Fixed() {
		return 0, false
	}
	l := unitLength[d.Unit]
	if d.N > int64(1<<63-1)/int64(l) || d.N < -int64(1<<63-1)/int64(l) {
		return 0, false
	}
	return time.Duration(d.N) * l, true
}

// fitsStd reports whether d is no longer than the longest time.Duration
// (about 292 years), taking a month as 31 days, its longest: whether Vigil
// can wait for d, or add it to a time, without cutting it short. A count
// that is not positive fits (it is refused for other reasons).
func (d Duration) fitsStd() bool {
	if d.N <= 0 {
		return true
	}
	if d.Unit == Month {
		return d.N <= int64(1<<63-1)/int64(31*24*time.Hour)
	}
	_, ok := d.Std()
	return ok
}

// AddTo returns t + d: calendar arithmetic for days, weeks and months,
// which keep t's clock in t's location, exact arithmetic for the other
// units. A month added to a day its month has but the month reached does
// not is the last day of that month, as calendars and cron-like tools
// count (addMonths): Jan 31 + 1 month is Feb 28 (Feb 29 in a leap year),
// where time.AddDate goes on to Mar 3. A clock the day reached skips, on
// the day daylight-saving time begins, is the first instant after the
// gap, and a clock it shows twice is the first of the two (localTime).
// Huge counts saturate at roughly ±292 years instead of wrapping around.
//
// Months added one at a time drift to the shortest day they meet (Jan
// 31, Feb 28, Mar 28): a schedule that recurs every n months adds k×n
// months to its first time, not n months to the last.
func (d Duration) AddTo(t time.Time) time.Time {
	const maxCalendar = 1 << 20 // days; about 2870 years
	switch d.Unit {
	case Day, Week, Month:
		n := d.N
		mult := int64(1)
		if d.Unit == Week {
			mult = 7
		}
		if n > maxCalendar || n < -maxCalendar {
			n = max(min(n, maxCalendar), -maxCalendar)
		}
		y, mo, day := t.Date()
		h, mi, sec := t.Clock()
		if d.Unit == Month {
			y, mo, day = addMonths(y, mo, day, n)
		} else {
			day += int(n * mult)
		}
		return localTime(y, mo, day, h, mi, sec, t.Nanosecond(), t.Location())
	}
	std, ok := d.Std()
	if !ok {
		if d.N < 0 {
			std = -1 << 63
		} else {
			std = 1<<63 - 1
		}
	}
	return t.Add(std)
}

// addMonths returns the date n months after year y, month m, day day (n
// months before it for a negative n), the day clamped to the last of the
// month reached: Jan 31 + 1 month is Feb 28, or Feb 29 in a leap year,
// and Mar 31 - 1 month the same. m is in 1..12 and day in 1..31, as
// time.Time.Date returns them.
func addMonths(y int, m time.Month, day int, n int64) (int, time.Month, int) {
	total := int64(y)*12 + int64(m-1) + n
	ny, nm := total/12, total%12
	if nm < 0 {
		ny, nm = ny-1, nm+12
	}
	mo := time.Month(nm + 1)
	return int(ny), mo, min(day, daysIn(int(ny), mo))
}

// daysIn returns the number of days of month m of year y (28 to 31).
func daysIn(y int, m time.Month) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// AddIn returns t + d on loc's clocks (UTC if loc is nil): AddTo of t
// read in loc, whatever location t carries. It is how an offset is added
// to a time point ("start(s) + 1 day", "Now + 1 month"): an instant read
// back from a store (in UTC, or in the server's zone) gets the days of
// the owner's time zone, as a date written by the user does.
func (d Duration) AddIn(t time.Time, loc *time.Location) time.Time {
	if loc == nil {
		loc = time.UTC
	}
	return d.AddTo(t.In(loc))
}

// ParseDuration parses the canonical form "N unit" ("1 day", "30 seconds").
func ParseDuration(s string) (Duration, error) {
	f := strings.Fields(s)
	if len(f) != 2 {
		return Duration{}, fmt.Errorf("duration %s: want a count and a unit, as in \"1 day\"", quote(s))
	}
	n, err := strconv.ParseInt(f[0], 10, 64)
	u, ok := ParseUnit(f[1])
	if errors.Is(err, strconv.ErrRange) && ok {
		return Duration{}, &countTooLargeError{count: f[0], unit: u}
	}
	if err != nil {
		return Duration{}, fmt.Errorf("duration %s: count %s is not an integer", quote(s), quote(f[0]))
	}
	if !ok {
		return Duration{}, fmt.Errorf("duration %s: %w", quote(s), errUnknownUnit(f[1]))
	}
	return Duration{N: n, Unit: u}, nil
}

// countTooLargeError is ParseDuration's error for a count of more digits
// than an int64 holds ("99999999999999999999999 weeks"): an interval
// longer than Vigil can count, as the checker says of one that fits an
// int64 but not a time.Duration.
type countTooLargeError struct {
	count string
	unit  Unit
}

func (e *countTooLargeError) Error() string {
	return "duration " + e.interval() + " is longer than Vigil can count (about 292 years)"
}

// interval returns the interval as written, cut as short cuts it, with
// its unit in the plural: "99999999999999999999999 weeks".
func (e *countTooLargeError) interval() string {
	return short(e.count) + " " + e.unit.String() + "s"
}

// tooLong says an interval whose count is too large for an int64 is
// longer than Vigil can count, as the checker says it of one that fits
// an int64 (intervalsFit): what is the clause ("Every", "Confirm after",
// "offset").
func (e *countTooLargeError) tooLong(what string) string {
	return what + " " + e.interval() + " is longer than Vigil can count (about 292 years)"
}

func errUnknownUnit(w string) error {
	return errors.New("unknown time unit " + quote(w) + " (want second, minute, hour, day, week or month)")
}
