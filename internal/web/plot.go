package web

import (
	"fmt"
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

// changePlot bins the versions (oldest first) and changes of a resource
// over its history up to now.
func changePlot(versions []*vigil.Version, changes []*vigil.Change, now time.Time) *plot {
	p := &plot{Width: 600, Height: 160, Top: 10, Bottom: 130}
	if len(versions) == 0 {
		p.Empty = true
		p.Label = "No versions yet."
		return p
	}
	start := versions[0].FetchedAt
	end := now
	if end.Before(versions[len(versions)-1].FetchedAt) {
		end = versions[len(versions)-1].FetchedAt
	}
	span := end.Sub(start)
	// Round the period up to a readable unit.
	period := time.Minute
	for _, d := range []time.Duration{time.Minute, 5 * time.Minute, 15 * time.Minute, time.Hour, 6 * time.Hour,
		24 * time.Hour, 7 * 24 * time.Hour, 30 * 24 * time.Hour, 365 * 24 * time.Hour} {
		period = d
		if span/d < plotBins {
			break
		}
	}
	// Always plotBins periods, the last one holding now, so that a short
	// history reads as recent activity rather than one wide bar.
	n := plotBins
	start = end.Truncate(period).Add(-time.Duration(n-1) * period)
	counts := make([]bar, n)
	bin := func(t time.Time) int {
		i := int(t.Sub(start) / period)
		return max(0, min(i, n-1))
	}
	for _, v := range versions {
		b := &counts[bin(v.FetchedAt)]
		switch {
		case v.Error != "":
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
		b.Title = fmt.Sprintf("%s: %d new versions, %d changes reported, %d failed fetches",
			from.UTC().Format("2006-01-02 15:04"), b.Count, b.Changes, b.Errors)
	}
	p.Bars = counts
	p.Start = start.UTC().Format("2006-01-02 15:04")
	p.End = start.Add(time.Duration(n) * period).UTC().Format("2006-01-02 15:04")
	p.Period = period.String()
	total := 0
	for _, b := range counts {
		total += b.Count
	}
	p.Label = fmt.Sprintf("Change frequency: %d new versions from %s to %s, in periods of %s, at most %d a period.",
		total, p.Start, p.End, period, p.Max)
	return p
}
