package web

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// TestSentinelActionBody: the API's sentinel actions that take no body
// (check-now, pause, resume, rotate-feed) refuse one with 400 and a JSON
// error naming the action, as the other routes refuse a field they do not
// take, and never act on it; an empty body, or an empty JSON object, is
// none. Before, a body was read by none and silently ignored.
func TestSentinelActionBody(t *testing.T) {
	s, u := newTestServer(t)
	s.Checker = storeChecker(s)
	c := newSignedIn(t, s, u)
	status, body := c.do("POST", "/api/v1/sentinels", `{"source": "Create Sentinel docs Using http://a.example/ Fetch 1 hour"}`)
	var sen struct{ ID int64 }
	if err := json.Unmarshal([]byte(body), &sen); status != 201 || err != nil {
		t.Fatalf("POST /api/v1/sentinels: %d %v %s", status, err, body)
	}
	base := "/api/v1/sentinels/" + strconv.FormatInt(sen.ID, 10) + "/"
	for _, action := range []string{"check-now", "pause", "resume", "rotate-feed"} {
		for name, tc := range map[string]struct {
			body   string
			status int
		}{
			"empty":              {"", 200},
			"white space":        {" \n", 200},
			"an empty object":    {"{}", 200},
			"a field":            {`{"force": true}`, 400},
			"null":               {"null", 400},
			"an array":           {"[]", 400},
			"not JSON":           {"now please", 400},
			"an object and more": {"{} {}", 400},
		} {
			t.Run(action+"/"+name, func(t *testing.T) {
				status, got := c.do("POST", base+action, tc.body)
				if status != tc.status {
					t.Fatalf("POST %s with %q: %d %s, want %d", action, tc.body, status, got, tc.status)
				}
				if tc.status != 400 {
					return
				}
				var e struct {
					Error struct{ Code, Message string }
				}
				if err := json.Unmarshal([]byte(got), &e); err != nil {
					t.Fatalf("POST %s with %q: %s, not a JSON error: %v", action, tc.body, got, err)
				}
				if want := "invalid body: " + action + " takes no body"; e.Error.Code != "EINVALID" || !strings.Contains(e.Error.Message, want) {
					t.Errorf("POST %s with %q: error %+v, want EINVALID saying %q", action, tc.body, e.Error, want)
				}
				if strings.Contains(e.Error.Message, "force") || strings.Contains(e.Error.Message, "please") {
					t.Errorf("POST %s with %q: error %q repeats the body", action, tc.body, e.Error.Message)
				}
			})
		}
	}
	// A body refused is not acted on: pause with one leaves the sentinel
	// active.
	c.do("POST", base+"resume", "")
	if status, _ := c.do("POST", base+"pause", `{"pause": true}`); status != 400 {
		t.Fatalf("pause with a body: %d, want 400", status)
	}
	status, body = c.do("GET", base[:len(base)-1], "")
	var got struct{ Status string }
	if err := json.Unmarshal([]byte(body), &got); status != 200 || err != nil || got.Status != "active" {
		t.Errorf("after a pause refused: %d %q %v, want the sentinel active", status, got.Status, err)
	}
}
