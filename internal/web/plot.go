package web

import (
	"fmt"
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
// user's zone, nil for UTC), whose midnight a day's bar starts at (at the
// offset of the first version's day).
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
	var period time.Duration
	var per plotPeriod
	var start time.Time
	n := 0
	// Periods are cut at loc's clock, not UTC's: shifted by its offset.
	_, off := first.In(loc).Zone()
	shift := time.Duration(off) * time.Second
	trunc := func(t time.Time) time.Time { return t.Add(shift).Truncate(period).Add(-shift) }
	for _, pp := range plotPeriods {
		period, per = pp.d, pp
		start = trunc(first)
		n = int(trunc(end).Sub(start)/period) + 1
		if n <= plotBins {
			break
		}
	}
	if n > plotBins {
		// Longer than the longest period's bars: the last of them.
		n = plotBins
		start = trunc(end).Add(-time.Duration(n-1) * period)
	}
	counts := make([]bar, n)
	bin := func(t time.Time) int {
		i := int(t.Sub(start) / period)
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
		from := start.Add(time.Duration(i) * period)
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
	p.Start = start.In(loc).Format(plotTimeLayout)
	p.End = start.Add(time.Duration(n) * period).In(loc).Format(plotTimeLayout)
	p.Period = per.name
	total := 0
	for _, b := range counts {
		total += b.Count
	}
	p.Label = fmt.Sprintf("Change frequency: %s from %s to %s, per %s, at most %d %s.",
		counted(total, "new version"), p.Start, p.End, per.name, p.Max, per.each)
	return p
}
