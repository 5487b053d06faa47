package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/vigil-web/vigil"
)

// storedNotification is a store whose outbox holds one notification of a
// change, written, as the monitor writes it, before the change had its id.
type storedNotification struct {
	vigil.Store
	n vigil.Notification
}

func (s *storedNotification) FindNotifications(context.Context, vigil.NotificationFilter) ([]*vigil.Notification, int, error) {
	n := s.n
	return []*vigil.Notification{&n}, 1, nil
}

func (s *storedNotification) FindNotificationByID(context.Context, int64) (*vigil.Notification, error) {
	n := s.n
	return &n, nil
}

// TestNotificationsCarryChangeID: the API shows a notification's message
// with its change's id, as it is delivered; it showed 0.
func TestNotificationsCarryChangeID(t *testing.T) {
	s, u := newTestServer(t)
	payload := `{"sentinelId":1,"sentinel":"s","subject":"x","text":"y","changes":[{"change":{"id":0,"sentinelId":1}}]}`
	s.Store = &storedNotification{Store: s.Store, n: vigil.Notification{ID: 3, UserID: u.ID, ChangeID: 7, Channel: "email", Target: "a@b.c", Payload: json.RawMessage(payload)}}
	for _, path := range []string{"/api/v1/notifications", "/api/v1/notifications/3"} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("GET", path, nil)
		var err error
		if path == "/api/v1/notifications" {
			err = s.handleNotificationList(rec, req, u)
		} else {
			req.SetPathValue("id", "3")
			err = s.handleNotificationGet(rec, req, u)
		}
		if err != nil || rec.Code != http.StatusOK {
			t.Fatalf("%s: %v, %d", path, err, rec.Code)
		}
		var body struct {
			vigil.Notification
			Items []vigil.Notification `json:"items"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
			t.Fatal(err)
		}
		n := body.Notification
		if len(body.Items) == 1 {
			n = body.Items[0]
		}
		m, err := (&vigil.Notification{Payload: n.Payload}).Message()
		if err != nil || len(m.Changes) != 1 || m.Changes[0].Change.ID != 7 {
			t.Errorf("%s: payload %s", path, n.Payload)
		}
	}
}
