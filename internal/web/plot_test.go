package web

import (
	"context"
	"html"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestPlotStartsAtFirstVersion: a resource's change frequency starts at
// its first version, not a fixed 30 periods before now: a page first
// fetched at 21:14 and seen at 21:16 said "1 new version from 20:46 to
// 21:16" and drew half an hour of empty bars before it existed.
func TestPlotStartsAtFirstVersion(t *testing.T) {
	s, u := newTestServer(t)
	w := useWarehouse(t, s)
	createChecked(t, s, u, "Create Sentinel p Using http://a.example/p")
	ctx := context.Background()
	first := time.Date(2026, 11, 30, 21, 14, 0, 0, time.UTC)
	var res int64
	for i, body := range []string{"<p>one</p>", "<p>two</p>"} {
		v, err := w.Put(ctx, &warehouse.Fetch{URL: "http://a.example/p", FetchedAt: first.Add(time.Duration(i) * time.Minute), Status: 200, ContentType: "text/html", Body: []byte(body)})
		if err != nil {
			t.Fatal(err)
		}
		res = v.ResourceID
	}
	s.Now = func() time.Time { return first.Add(2*time.Minute + 30*time.Second) }
	c := newSignedIn(t, s, u)
	_, page := c.do("GET", "/resources/"+strconv.FormatInt(res, 10), "")
	page = html.UnescapeString(page)
	want := "Change frequency: 1 new version from 2026-11-30 21:14 UTC to 2026-11-30 21:17 UTC, per minute, at most 1 a minute."
	if !strings.Contains(page, want) {
		t.Errorf("the history lacks %q:\n%s", want, page)
	}
	if strings.Contains(page, "20:46") || strings.Count(page, `<g class="bin">`) != 3 {
		t.Errorf("the plot has %d bars, want 3 (21:14, 21:15, 21:16), none before the first version:\n%s", strings.Count(page, `<g class="bin">`), page)
	}

	// A long history still has at most plotBins bars, and each version
	// in its own.
	var vs []*vigil.Version
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for i := range 40 {
		vs = append(vs, &vigil.Version{Seq: int64(i + 1), FetchedAt: now.Add(-time.Duration(40-i) * time.Hour)})
	}
	p := changePlot(vs, nil, now, nil)
	if len(p.Bars) > plotBins || p.Period != "6 hours" || !strings.HasPrefix(p.Bars[0].Title, "2026-11-28 18:00 UTC:") || p.Start != "2026-11-28 18:00 UTC" {
		t.Errorf("40 hours: %d bars per %s from %s, first %q", len(p.Bars), p.Period, p.Start, p.Bars[0].Title)
	}
	total := 0
	for _, b := range p.Bars {
		total += b.Count
	}
	if total != 39 {
		t.Errorf("40 hours: %d new versions counted, want 39", total)
	}
}
