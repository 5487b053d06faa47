package web

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // Europe/Paris where the system has no zoneinfo
)

// TestServerLocation: a server given a time zone (Server.Location, vigil
// serve --tz) reads the dates of the sentinels saved through the API in
// it, as the editor's live check does: From 12/24/2036 09:00 in Paris
// starts at 08:00 UTC, what the answer and the store say. The API's
// /me gives the zone, and the editor says dates are written in it. The
// dates were read in UTC whatever the server's zone.
func TestServerLocation(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	want := time.Date(2036, 12, 24, 8, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		loc   *time.Location
		zone  string
		start time.Time
	}{
		{paris, "Europe/Paris", want},
		{nil, "UTC", want.Add(time.Hour)},
	} {
		s, u := newTestServer(t)
		s.Checker = storeChecker(s)
		s.Location = tc.loc
		c := newSignedIn(t, s, u)

		src := `{"source": "Create Sentinel xmas Using http://a.example/ From 12/24/2036 09:00"}`
		status, body := c.do("POST", "/api/v1/sentinels/check", src)
		var check CheckResult
		if err := json.Unmarshal([]byte(body), &check); status != 200 || err != nil {
			t.Fatalf("%s: check: %d %s", tc.zone, status, body)
		}
		var checked struct{ Start time.Time }
		if err := json.Unmarshal(check.Checked, &checked); err != nil || !checked.Start.Equal(tc.start) {
			t.Errorf("%s: the live check starts it at %s (%v), want %s", tc.zone, checked.Start.UTC(), err, tc.start)
		}

		status, body = c.do("POST", "/api/v1/sentinels", src)
		if status != 201 {
			t.Fatalf("%s: create: %d %s", tc.zone, status, body)
		}
		var sen struct {
			ID        int64
			NextCheck time.Time
		}
		if err := json.Unmarshal([]byte(body), &sen); err != nil {
			t.Fatal(err)
		}
		if !sen.NextCheck.Equal(tc.start) {
			t.Errorf("%s: the API answers its next check %s, want %s", tc.zone, sen.NextCheck.UTC(), tc.start)
		}
		stored, err := s.Store.FindSentinelByID(context.Background(), sen.ID)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(stored.Spec, &checked); err != nil || !checked.Start.Equal(tc.start) || !stored.NextCheck.Equal(tc.start) {
			t.Errorf("%s: stored start %s, next check %s (%v); want both %s", tc.zone, checked.Start.UTC(), stored.NextCheck.UTC(), err, tc.start)
		}

		status, body = c.do("GET", "/api/v1/me", "")
		var me struct {
			Email             string
			EffectiveTimeZone string
		}
		if err := json.Unmarshal([]byte(body), &me); status != 200 || err != nil || me.EffectiveTimeZone != tc.zone || me.Email != u.Email {
			t.Errorf("%s: /api/v1/me: %d %s; want its effectiveTimeZone %s", tc.zone, status, body, tc.zone)
		}
		for _, path := range []string{"/sentinels/new", "/sentinels/" + strconv.FormatInt(sen.ID, 10)} {
			status, body = c.do("GET", path, "")
			if line := "Dates you write are read in " + tc.zone; status != 200 || !strings.Contains(body, line) {
				t.Errorf("%s: GET %s: %d, does not say %q", tc.zone, path, status, line)
			}
		}
	}
}
