package web

import (
	"net/http/httptest"
	"testing"
	"time"
)

// TestTimeParamDateStartOfDay: a date alone is the first instant of that
// day in the zone, also where the zone skips its midnight (a clock moved
// from 00:00 to 01:00), where it was an hour of the day before.
func TestTimeParamDateStartOfDay(t *testing.T) {
	for _, tc := range []struct {
		zone, date, want string
	}{
		{"Pacific/Kiritimati", "2026-12-02", "2026-12-01T10:00:00Z"},
		{"Europe/Berlin", "2026-03-29", "2026-03-28T23:00:00Z"},    // DST at 02:00: midnight is there
		{"America/Santiago", "2026-09-06", "2026-09-06T04:00:00Z"}, // 00:00 -04 skipped to 01:00 -03
		{"America/Havana", "2026-03-08", "2026-03-08T05:00:00Z"},   // 00:00 CST skipped to 01:00 CDT
		{"America/Havana", "2026-12-02", "2026-12-02T05:00:00Z"},
	} {
		loc, err := time.LoadLocation(tc.zone)
		if err != nil {
			t.Fatal(err)
		}
		r := httptest.NewRequest("GET", "/api/v1/changes?since="+tc.date, nil)
		got, err := timeParam(r, "since", loc)
		if err != nil {
			t.Fatalf("%s %s: %v", tc.zone, tc.date, err)
		}
		if s := got.UTC().Format(time.RFC3339); s != tc.want {
			t.Errorf("%s since=%s: %s, want %s", tc.zone, tc.date, s, tc.want)
		}
	}
}
