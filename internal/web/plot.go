package web

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/vigil-web/vigil"
)

// plot is a bar chart of change frequency, drawn as SVG by the resource
// template: one bar per period, the number of new versions (content
// changes) in it, and a tick under each period with a failed fetch.
type plot struct {
	Width, Height int
	Top, Bottom   int // the plot area's y range
	Bars          []bar
	Max           int
	Start, End    string
	Period        string
	Label         string // for screen readers
	Empty         bool
}

type bar struct {
	X, Y, W, H float64
	Count      int
	Changes    int
	Errors     int
	Title      string
}

const plotBins = 30

// plotTimeLayout is how a plot says its times, with the zone's
// abbreviation, as fmtTime does, to the minute.
const plotTimeLayout = "2006-01-02 15:04 MST"

// plotWallPeriod is the shortest period whose bars are cut at the wall
// clock of the plot's zone (wallClock): 6 hours, cut at 00:00, 06:00,
// 12:00 and 18:00 whatever the offset that day.
const plotWallPeriod = 6 * time.Hour

// wallClock returns what loc's clock says at a time, as a time in UTC,
// where days are 24 hours: the plot steps its cuts on it.
func wallClock(loc *time.Location) func(time.Time) time.Time {
	return func(t time.Time) time.Time {
		y, mo, d := t.In(loc).Date()
		h, mi, s := t.In(loc).Clock()
		return time.Date(y, mo, d, h, mi, s, t.Nanosecond(), time.UTC)
	}
}

// wallTime is wallClock's inverse: the time at which loc's clock says
// what w does (the first of two, when a clock goes back).
func wallTime(loc *time.Location) func(time.Time) time.Time {
	return func(w time.Time) time.Time {
		return time.Date(w.Year(), w.Month(), w.Day(), w.Hour(), w.Minute(), w.Second(), w.Nanosecond(), loc)
	}
}

// plotPeriod is a period of the plot's bars, with its name in words ("New
// versions per 5 minutes") and how a count for one period says it ("at
// most 3 a day", "at most 3 in 5 minutes").
type plotPeriod struct {
	d          time.Duration
	name, each string
}

// plotPeriods are the periods a plot's bars may take, shortest first.
var plotPeriods = []plotPeriod{
	{time.Minute, "minute", "a minute"},
	{5 * time.Minute, "5 minutes", "in 5 minutes"},
	{15 * time.Minute, "15 minutes", "in 15 minutes"},
	{time.Hour, "hour", "an hour"},
	{6 * time.Hour, "6 hours", "in 6 hours"},
	{24 * time.Hour, "day", "a day"},
	{7 * 24 * time.Hour, "week", "a week"},
	{30 * 24 * time.Hour, "30 days", "in 30 days"},
	{365 * 24 * time.Hour, "365 days", "in 365 days"},
}

// counted says n things in words: "1 new version", "2 new versions"
// ("fetch" takes "es").
func counted(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	if strings.HasSuffix(thing, "ch") {
		return fmt.Sprintf("%d %ses", n, thing)
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// changePlot bins the versions (oldest first) and changes of a resource
// over its history up to now: from the period of its first version, not
// a fixed number of periods before now, which drew empty bars for the
// time before the resource existed. Its times are said in loc (the
// user's zone, nil for UTC), whose midnight a day's bar starts at, its
// own day's, on either side of a change of daylight saving time.
func changePlot(versions []*vigil.Version, changes []*vigil.Change, now time.Time, loc *time.Location) *plot {
	if loc == nil {
		loc = time.UTC
	}
	p := &plot{Width: 600, Height: 160, Top: 10, Bottom: 130}
	if len(versions) == 0 {
		p.Empty = true
		p.Label = "No versions yet."
		return p
	}
	first := versions[0].FetchedAt
	end := now
	if end.Before(versions[len(versions)-1].FetchedAt) {
		end = versions[len(versions)-1].FetchedAt
	}
	// The shortest readable period that holds the history in plotBins
	// bars at most, the first holding the first version, the last now.
	// A bar of 6 hours or more is cut at loc's clock, its days at their
	// own midnight, EDT or EST as daylight saving time has it (cuts
	// stepped on the wall clock); a shorter one at the offset of the first
	// version's day, so that the hour a clock goes back twice is two.
	var period time.Duration
	var per plotPeriod
	var start time.Time // on the wall clock: fromWall(start) is when
	n := 0
	_, off := first.In(loc).Zone()
	shift := time.Duration(off) * time.Second
	wall := func(t time.Time) time.Time { return t.Add(shift) } // as loc's clock says it, at the first's offset
	fromWall := func(w time.Time) time.Time { return w.Add(-shift) }
	for _, pp := range plotPeriods {
		period, per = pp.d, pp
		if period >= plotWallPeriod {
			wall, fromWall = wallClock(loc), wallTime(loc)
		}
		start = wall(first).Truncate(period)
		n = int(wall(end).Truncate(period).Sub(start)/period) + 1
		if n <= plotBins {
			break
		}
	}
	if n > plotBins {
		// Longer than the longest period's bars: the last of them.
		n = plotBins
		start = wall(end).Truncate(period).Add(-time.Duration(n-1) * period)
	}
	// cuts[i] is where bar i starts, cuts[n] where the last ends.
	cuts := make([]time.Time, n+1)
	for i := range cuts {
		cuts[i] = fromWall(start.Add(time.Duration(i) * period))
	}
	counts := make([]bar, n)
	bin := func(t time.Time) int {
		i := sort.Search(n+1, func(i int) bool { return cuts[i].After(t) }) - 1
		return max(0, min(i, n-1))
	}
	for _, v := range versions {
		b := &counts[bin(v.FetchedAt)]
		switch {
		case v.Failed():
			b.Errors++
		case v.Seq > 1:
			b.Count++
		}
	}
	for _, c := range changes {
		counts[bin(c.DetectedAt)].Changes++
	}
	for _, b := range counts {
		p.Max = max(p.Max, b.Count)
	}
	w := float64(p.Width-40) / float64(n)
	h := float64(p.Bottom - p.Top)
	for i := range counts {
		b := &counts[i]
		from := cuts[i]
		b.X = 30 + float64(i)*w + 1
		b.W = max(w-2, 1)
		if p.Max > 0 {
			b.H = h * float64(b.Count) / float64(p.Max)
		}
		b.Y = float64(p.Bottom) - b.H
		b.Title = fmt.Sprintf("%s: %s, %s reported, %s",
			from.In(loc).Format(plotTimeLayout), counted(b.Count, "new version"), counted(b.Changes, "change"), counted(b.Errors, "failed fetch"))
	}
	p.Bars = counts
	p.Start = cuts[0].In(loc).Format(plotTimeLayout)
	p.End = cuts[n].In(loc).Format(plotTimeLayout)
	p.Period = per.name
	total := 0
	for _, b := range counts {
		total += b.Count
	}
	p.Label = fmt.Sprintf("Change frequency: %s from %s to %s, per %s, at most %d %s.",
		counted(total, "new version"), p.Start, p.End, per.name, p.Max, per.each)
	return p
}
