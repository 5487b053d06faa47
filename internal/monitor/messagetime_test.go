package monitor

import (
	"testing"
	"time"
	_ "time/tzdata" // the zones below where the system has no zoneinfo
)

// TestMessageTime: a message says a time in the sentinel's zone, to the
// minute, named by the abbreviation the zone has that day: EDT or EST in
// New York as daylight saving time has it (the two 01:30 of the night it
// ends told apart), the offset for a zone without one, UTC for none.
func TestMessageTime(t *testing.T) {
	load := func(name string) *time.Location {
		t.Helper()
		loc, err := time.LoadLocation(name)
		if err != nil {
			t.Fatal(err)
		}
		return loc
	}
	tokyo, newYork, dubai, kolkata := load("Asia/Tokyo"), load("America/New_York"), load("Asia/Dubai"), load("Asia/Kolkata")
	for _, tc := range []struct {
		name string
		t    time.Time
		loc  *time.Location
		want string
	}{
		{"UTC", time.Date(2026, 12, 2, 7, 4, 59, 0, time.UTC), time.UTC, "2026-12-02 07:04 UTC"},
		{"no zone is UTC", time.Date(2026, 12, 2, 7, 4, 0, 0, tokyo), nil, "2026-12-01 22:04 UTC"},
		{"Tokyo", time.Date(2026, 12, 2, 7, 4, 0, 0, time.UTC), tokyo, "2026-12-02 16:04 JST"},
		{"Tokyo, the day after UTC's", time.Date(2026, 12, 31, 20, 0, 0, 0, time.UTC), tokyo, "2027-01-01 05:00 JST"},
		{"New York in summer", time.Date(2026, 7, 1, 16, 0, 0, 0, time.UTC), newYork, "2026-07-01 12:00 EDT"},
		{"New York in winter", time.Date(2026, 12, 2, 16, 0, 0, 0, time.UTC), newYork, "2026-12-02 11:00 EST"},
		{"New York, first 01:30 of 1 November", time.Date(2026, 11, 1, 5, 30, 0, 0, time.UTC), newYork, "2026-11-01 01:30 EDT"},
		{"New York, second 01:30 of 1 November", time.Date(2026, 11, 1, 6, 30, 0, 0, time.UTC), newYork, "2026-11-01 01:30 EST"},
		{"New York, the hour skipped on 8 March 2026", time.Date(2026, 3, 8, 7, 0, 0, 0, time.UTC), newYork, "2026-03-08 03:00 EDT"},
		{"a time given in another zone", time.Date(2026, 12, 2, 16, 4, 0, 0, tokyo), newYork, "2026-12-02 02:04 EST"},
		{"a zone without an abbreviation", time.Date(2026, 12, 2, 7, 4, 0, 0, time.UTC), dubai, "2026-12-02 11:04 +04"},
		{"a zone half an hour off", time.Date(2026, 12, 2, 7, 4, 0, 0, time.UTC), kolkata, "2026-12-02 12:34 IST"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := messageTime(tc.t, tc.loc); got != tc.want {
				t.Errorf("messageTime(%v, %v) = %q, want %q", tc.t, tc.loc, got, tc.want)
			}
		})
	}
}
