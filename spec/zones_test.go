package spec

import (
	"testing"
	"time"
	_ "time/tzdata" // Europe/Paris and America/New_York where the system has no zoneinfo
)

// dstZones returns the zones the daylight-saving tests read times in:
// Europe/Paris and America/New_York, whose clocks change on different
// days.
func dstZones(t *testing.T) (paris, newYork *time.Location) {
	t.Helper()
	var err error
	if paris, err = time.LoadLocation("Europe/Paris"); err != nil {
		t.Fatal(err)
	}
	if newYork, err = time.LoadLocation("America/New_York"); err != nil {
		t.Fatal(err)
	}
	return paris, newYork
}

// utc2026 returns an instant of 2026 in UTC.
func utc2026(mo time.Month, d, h, min int) time.Time {
	return time.Date(2026, mo, d, h, min, 0, 0, time.UTC)
}
