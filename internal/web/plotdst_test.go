package web

import (
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestPlotDaysAcrossDaylightSavingTime: in New York, where daylight saving
// time ends at 06:00 UTC on 1 November 2026, a day's bar starts at the
// local midnight of its own day, EDT before and EST after, and a version
// fetched at 23:30 EST on 2 November is counted on 2 November. The bars
// were cut at the first version's offset: after the change each day's
// began at 23:00 EST the day before, and that version was counted on
// the bar of the 3rd.
func TestPlotDaysAcrossDaylightSavingTime(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	var vs []*vigil.Version
	for i := range 8 { // 12:00 EDT, 28 October, to 12:00 EST, 4 November
		at := time.Date(2026, 10, 28+i, 12, 0, 0, 0, ny)
		vs = append(vs, &vigil.Version{Seq: int64(i + 1), FetchedAt: at})
	}
	late := time.Date(2026, 11, 2, 23, 30, 0, 0, ny)
	vs = append(vs, &vigil.Version{Seq: 9, FetchedAt: late})
	now := time.Date(2026, 11, 5, 12, 0, 0, 0, ny)
	p := changePlot(vs, nil, now, ny)
	if p.Period != "day" {
		t.Fatalf("period %q, want day", p.Period)
	}
	if want := "from 2026-10-28 00:00 EDT to 2026-11-06 00:00 EST, per day"; !strings.Contains(p.Label, want) {
		t.Errorf("label %q lacks %q", p.Label, want)
	}
	titles := map[string]int{}
	for _, b := range p.Bars {
		titles[b.Title[:len(plotTimeLayout)]] = b.Count
	}
	for day, count := range map[string]int{
		"2026-10-31 00:00 EDT": 1, "2026-11-01 00:00 EDT": 1, "2026-11-02 00:00 EST": 2, "2026-11-03 00:00 EST": 1, "2026-11-05 00:00 EST": 0,
	} {
		got, ok := titles[day]
		if !ok {
			t.Errorf("no bar starts at %s: %v", day, titles)
		} else if got != count {
			t.Errorf("bar of %s: %d new versions, want %d", day, got, count)
		}
	}
}
