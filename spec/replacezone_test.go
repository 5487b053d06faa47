package spec

import (
	"testing"
	"time"
	_ "time/tzdata" // Asia/Tokyo and Europe/Paris where the system has no zoneinfo
)

// TestCheckReplaceZone: an edit keeps the time points it writes as the
// sentinel it replaces did, unless the sentinel was checked in another
// zone (Stored.Location) and the point is a date still to come: 09:00 in
// Tokyo written the same is 09:00 in Paris once its owner moved there.
// A date that has passed is kept (the sentinel started on it), and so
// is every point when the zone is the same or not known. The edit kept
// the Tokyo instant whatever the zone it was checked in.
func TestCheckReplaceZone(t *testing.T) {
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Fatal(err)
	}
	paris, _ := dstZones(t)
	created := utc2026(12, 1, 0, 0)
	const src = "Create Sentinel a Using http://a.example From 12/24/2026 09:00 To 12/31/2026 09:00"
	tokyoFrom, tokyoTo := utc2026(12, 24, 0, 0), utc2026(12, 31, 0, 0)
	parisFrom, parisTo := utc2026(12, 24, 8, 0), utc2026(12, 31, 8, 0)
	for _, tc := range []struct {
		name     string
		stored   *time.Location // Stored.Location
		now      time.Time      // of the edit
		from, to time.Time      // of the edit checked in Paris
	}{
		{"another zone", tokyo, created, parisFrom, parisTo},
		{"the same zone", paris, created, tokyoFrom, tokyoTo},
		{"zone not known", nil, created, tokyoFrom, tokyoTo},
		{"From passed", tokyo, utc2026(12, 25, 0, 0), tokyoFrom, parisTo},
	} {
		c := NewChecker(created)
		c.Location = tokyo
		first, err := c.Check(mustParse(t, src).Sentinels[0])
		if err != nil {
			t.Fatal(err)
		}
		if !first.Start.Equal(tokyoFrom) || !first.End.Equal(tokyoTo) {
			t.Fatalf("checked in Tokyo: %s to %s", first.Start, first.End)
		}
		c.Add(&Stored{Checked: first, Location: tc.stored})
		c.Now, c.Location = tc.now, paris
		ch, err := c.CheckReplace("a", mustParse(t, src).Sentinels[0])
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !ch.Start.Equal(tc.from) || !ch.End.Equal(tc.to) {
			t.Errorf("%s: the edit in Paris runs from %s to %s, want %s to %s", tc.name, ch.Start, ch.End, tc.from, tc.to)
		}
	}
}
