package web

import (
	"context"
	"encoding/json"
	"html"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestNotificationRetryNoDuplicate: a sentinel notified a change (or a
// digest) by webhook at A and B, each getting its own letter; A's died,
// and A was removed from its Notify clause. The retry of A's letter,
// which goes to the one webhook left, B, is refused (409, saying that B
// has its own letter, or has been sent the message), the letter left
// dead and no letter written; the Notifications page says so instead of
// offering Retry. It sent B the change a second time. Where A was
// replaced by B, which has no letter of its own, the retry goes to B.
func TestNotificationRetryNoDuplicate(t *testing.T) {
	s, ada := newTestServer(t)
	s.Checker = storeChecker(s)
	s.Now = func() time.Time { return time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC) }
	kicked := 0
	s.KickOutbox = func() { kicked++ }
	ctx := context.Background()
	c := newSignedIn(t, s, ada)
	r, err := s.Store.EnsureResource(ctx, "http://a.example/")
	if err != nil {
		t.Fatal(err)
	}
	const a, b = "https://hooks.example/a", "https://hooks.example/b"
	for i, tc := range []struct {
		name    string
		digest  bool                    // the letters are a digest's, else a change's
		sibling vigil.NotificationState // of B's letter, "" for none (A replaced by B)
		status  int
		want    string // a part of the refusal
	}{
		{"removed one of two", false, vigil.NotificationSent, 409, "has been sent this change already"},
		{"removed one of two, the other's not sent yet", false, vigil.NotificationFailed, 409, "already has its own letter for this change"},
		{"removed one of two, the other's a dead letter", false, vigil.NotificationDead, 409, "a dead letter too: retry that one"},
		{"digest, removed one of two", true, vigil.NotificationSent, 409, "has been sent this message already"},
		{"replaced", false, "", 200, ""},
		{"digest, replaced", true, "", 200, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			kicked = 0
			name := "s" + strconv.Itoa(i)
			notify := "webhook " + a
			if tc.sibling != "" {
				notify += ", webhook " + b
			}
			sen := createChecked(t, s, ada, "Create Sentinel "+name+" Using http://a.example/ Notify By "+notify)
			var changeID int64
			payload := `{"sentinelId":` + strconv.FormatInt(sen.ID, 10) + `,"sentinel":"` + name + `","subject":"s","text":"t","digest":true,"changes":[]}`
			if !tc.digest {
				ch := &vigil.Change{SentinelID: sen.ID, ResourceID: r.ID, ToVersion: int64(i + 1), DetectedAt: time.Now()}
				if err := s.Store.CreateChange(ctx, ch); err != nil {
					t.Fatal(err)
				}
				changeID = ch.ID
				payload = `{"sentinelId":` + strconv.FormatInt(sen.ID, 10) + `,"sentinel":"` + name + `","subject":"s","text":"t","changes":[{"change":{"id":0}}]}`
			}
			letter := func(target string, state vigil.NotificationState) int64 {
				n := &vigil.Notification{UserID: ada.ID, ChangeID: changeID, Channel: "webhook", Target: target, Payload: json.RawMessage(payload)}
				if err := s.Store.EnqueueNotification(ctx, n); err != nil {
					t.Fatal(err)
				}
				switch state {
				case vigil.NotificationSent:
					err = s.Store.MarkNotificationSent(ctx, n.ID, time.Now())
				case vigil.NotificationFailed:
					err = s.Store.MarkNotificationFailed(ctx, n.ID, "503", time.Now().Add(time.Hour))
				case vigil.NotificationDead:
					err = s.Store.MarkNotificationDead(ctx, n.ID, "404 Not Found")
				}
				if err != nil {
					t.Fatal(err)
				}
				return n.ID
			}
			dead := letter(a, vigil.NotificationDead)
			if tc.sibling != "" {
				letter(b, tc.sibling)
			}
			edit, _ := json.Marshal(map[string]string{"source": "Create Sentinel " + name + " Using http://a.example/ Notify By webhook " + b})
			if status, body := c.do("PUT", "/api/v1/sentinels/"+strconv.FormatInt(sen.ID, 10), string(edit)); status != 200 {
				t.Fatalf("edit: %d %s", status, body)
			}
			_, before, err := s.Store.FindNotifications(ctx, vigil.NotificationFilter{UserID: ada.ID})
			if err != nil {
				t.Fatal(err)
			}

			action := `action="/notifications/` + strconv.FormatInt(dead, 10) + `/retry"`
			if status, page := c.do("GET", "/notifications?state=dead", ""); status != 200 {
				t.Fatalf("the notifications page: %d", status)
			} else if offered, says := strings.Contains(page, action), strings.Contains(html.UnescapeString(page), tc.want); offered != (tc.status == 200) || !says {
				t.Errorf("the notifications page offers the retry: %v, want %v; says %q: %v", offered, tc.status == 200, tc.want, says)
			}
			status, body := c.do("POST", "/api/v1/notifications/"+strconv.FormatInt(dead, 10)+"/retry", "")
			got, err := s.Store.FindNotificationByID(ctx, dead)
			if err != nil {
				t.Fatal(err)
			}
			_, after, err := s.Store.FindNotifications(ctx, vigil.NotificationFilter{UserID: ada.ID})
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case status != tc.status:
				t.Errorf("retry: %d %s, want %d", status, body, tc.status)
			case status == 200 && (got.State != vigil.NotificationPending || got.Target != b || kicked != 1):
				t.Errorf("retried: %s to %s, kicked %d; want pending to %s, kicked once", got.State, got.Target, kicked, b)
			case status != 200 && (!strings.Contains(body, tc.want) || got.State != vigil.NotificationDead || got.Target != a || kicked != 0):
				t.Errorf("refused: %s; letter %s to %s, kicked %d; want the refusal to say %q, the letter dead to %s, the delivery not woken", body, got.State, got.Target, kicked, tc.want, a)
			case status != 200:
				if status, page := c.do("POST", "/notifications/"+strconv.FormatInt(dead, 10)+"/retry", ""); status != 409 || !strings.Contains(html.UnescapeString(page), tc.want) {
					t.Errorf("retry from the dashboard: %d, the page does not say %q:\n%s", status, tc.want, page)
				}
			}
			if after != before {
				t.Errorf("%d letters after the retry, %d before; a retry writes none", after, before)
			}
		})
	}
}
