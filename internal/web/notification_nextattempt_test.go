package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestNotificationNextAttemptOnlyWhenDue: the API gives a letter's
// nextAttempt only while one is to come (pending, failed); a sent letter
// or a dead letter has none. They showed the end of the lease of their
// last try, minutes ahead, as if they were to be sent again then.
func TestNotificationNextAttemptOnlyWhenDue(t *testing.T) {
	next := time.Date(2026, 11, 29, 18, 1, 47, 0, time.UTC)
	for _, c := range []struct {
		state vigil.NotificationState
		want  bool
	}{
		{vigil.NotificationPending, true},
		{vigil.NotificationFailed, true},
		{vigil.NotificationSent, false},
		{vigil.NotificationDead, false},
	} {
		s, u := newTestServer(t)
		s.Store = &storedNotification{Store: s.Store, n: vigil.Notification{ID: 3, UserID: u.ID, Channel: "email", Target: "a@b.c",
			Payload: json.RawMessage(`{"subject":"x"}`), State: c.state, Attempts: 1, NextAttempt: next}}
		for _, list := range []bool{true, false} {
			rec := httptest.NewRecorder()
			var err error
			if list {
				err = s.handleNotificationList(rec, httptest.NewRequest("GET", "/api/v1/notifications", nil), u)
			} else {
				req := httptest.NewRequest("GET", "/api/v1/notifications/3", nil)
				req.SetPathValue("id", "3")
				err = s.handleNotificationGet(rec, req, u)
			}
			if err != nil || rec.Code != http.StatusOK {
				t.Fatalf("%s, list %v: %v, %d", c.state, list, err, rec.Code)
			}
			var body struct {
				Items []map[string]any `json:"items"`
			}
			one := map[string]any{}
			if list {
				if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || len(body.Items) != 1 {
					t.Fatalf("%s: %v %s", c.state, err, rec.Body)
				}
				one = body.Items[0]
			} else if err := json.Unmarshal(rec.Body.Bytes(), &one); err != nil {
				t.Fatal(err)
			}
			got, ok := one["nextAttempt"]
			if ok != c.want {
				t.Errorf("%s letter (list %v): nextAttempt %v present %v, want present %v", c.state, list, got, ok, c.want)
			}
			if ok && got != next.Format(time.RFC3339) {
				t.Errorf("%s letter: nextAttempt %v, want %s", c.state, got, next.Format(time.RFC3339))
			}
			if one["state"] != string(c.state) || one["id"] != 3.0 {
				t.Errorf("%s letter: %v", c.state, one)
			}
		}
	}
}
