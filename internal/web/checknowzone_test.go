package web

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// TestCheckNowPendingInUserZone: the refusal of "check now" for a
// sentinel that has not started says its start in the user's zone, as
// the dashboard shows every time: 09:00 in New York on 2036-03-15, after
// the clocks went forward, is "09:00:00 EDT". It said "13:00:00 UTC".
func TestCheckNowPendingInUserZone(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	c := newSignedIn(t, s, u)
	callMe(t, c, "PATCH", `{"timeZone": "America/New_York"}`)
	status, body := c.do("POST", "/api/v1/sentinels", `{"source": "Create Sentinel later Using http://a.example/ Fetch 1 hour From 03/15/2036 09:00"}`)
	var sen struct{ ID int64 }
	if err := json.Unmarshal([]byte(body), &sen); status != 201 || err != nil {
		t.Fatalf("POST /api/v1/sentinels: %d %v %s", status, err, body)
	}
	const want = "sentinel later has not started: it starts at 2036-03-15 09:00:00 EDT; edit its From to check it before"
	for _, path := range []string{"/api/v1/sentinels/", "/sentinels/"} {
		path += strconv.FormatInt(sen.ID, 10) + "/check-now"
		if status, body := c.do("POST", path, ""); status != 409 || !strings.Contains(body, want) {
			t.Errorf("POST %s: %d %s, want 409 %q", path, status, body, want)
		}
	}
}
