package web

import (
	"encoding/json"
	"testing"
	"time"
)

// TestNextCheckFromPastStorableTimes: a sentinel whose From is past the
// times the stores keep (2262) is saved, its next check the last time
// they keep, where the store refused it (EINVALID naming nextCheck).
func TestNextCheckFromPastStorableTimes(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	c := newSignedIn(t, s, u)
	status, answer := c.do("POST", "/api/v1/sentinels", `{"source": "Create Sentinel far Using http://a.example/ From 12/24/2300 09:00"}`)
	if status != 201 {
		t.Fatalf("POST: %d %s", status, answer)
	}
	var v struct{ NextCheck time.Time }
	if err := json.Unmarshal([]byte(answer), &v); err != nil {
		t.Fatal(err)
	}
	if v.NextCheck.Year() != 2262 {
		t.Errorf("nextCheck %s, want the last time kept, in 2262", v.NextCheck)
	}
}
