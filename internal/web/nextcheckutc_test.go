package web

import (
	"encoding/json"
	"strconv"
	"testing"
)

// TestNextCheckInUTC: the nextCheck of a sentinel saved by a user with a
// zone of their own, whose From is still to come, is written in UTC by
// the POST and the PUT that save it, as GET writes it: they answered it
// in the user's zone ("2036-12-24T09:00:00+09:00", GET
// "2036-12-24T00:00:00Z"), the same instant spelt two ways, which a client
// comparing the answers, or showing them, took for two.
func TestNextCheckInUTC(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	c := newSignedIn(t, s, u)
	callMe(t, c, "PATCH", `{"timeZone": "Asia/Tokyo"}`)
	nextCheck := func(method, path, body string, want int) (int64, string) {
		t.Helper()
		status, answer := c.do(method, path, body)
		var v struct {
			ID        int64
			NextCheck json.RawMessage
		}
		if err := json.Unmarshal([]byte(answer), &v); status != want || err != nil {
			t.Fatalf("%s %s: %d %s", method, path, status, answer)
		}
		return v.ID, string(v.NextCheck)
	}
	const want = `"2036-12-24T00:00:00Z"`
	id, created := nextCheck("POST", "/api/v1/sentinels", `{"source": "`+xmasSource+`"}`, 201)
	if created != want {
		t.Errorf("POST answers nextCheck %s, want %s", created, want)
	}
	path := "/api/v1/sentinels/" + strconv.FormatInt(id, 10)
	if _, got := nextCheck("GET", path, "", 200); got != want {
		t.Errorf("GET answers nextCheck %s, want %s", got, want)
	}
	if _, got := nextCheck("PUT", path, `{"source": "`+xmasSource+`"}`, 200); got != want {
		t.Errorf("PUT answers nextCheck %s, want %s", got, want)
	}
}
