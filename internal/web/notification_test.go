package web

import (
	"context"
	"encoding/json"
	"html"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

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

// TestNotificationRetry: a user's notifications are listed on the
// dashboard, newest first, each with its state (sent, retrying with its
// error, dead letter with its last error), and a dead letter is retried,
// from the dashboard (with its CSRF token) or the API: pending again, due
// now, its attempts counted afresh, and the delivery woken. Only the
// owner retries, and only a dead letter.
func TestNotificationRetry(t *testing.T) {
	s, ada := newTestServer(t)
	ctx := context.Background()
	now := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	s.Now = func() time.Time { return now }
	kicked := 0
	s.KickOutbox = func() { kicked++ }
	bob := &vigil.User{Email: "bob@example.com", Name: "bob"}
	if err := s.Store.CreateUser(ctx, bob); err != nil {
		t.Fatal(err)
	}
	prices := createChecked(t, s, ada, `Create Sentinel prices Using http://a.example/ Notify By webhook "https://hooks.example/secret-path?key=s3cr3t"`)
	enqueue := func(u *vigil.User, subject, target string) int64 {
		n := &vigil.Notification{UserID: u.ID, Channel: "webhook", Target: target,
			Payload: json.RawMessage(`{"sentinelId":` + strconv.FormatInt(prices.ID, 10) + `,"sentinel":"prices","subject":"` + subject + `","text":"t","changes":[]}`)}
		if err := s.Store.EnqueueNotification(ctx, n); err != nil {
			t.Fatal(err)
		}
		return n.ID
	}
	sent := enqueue(ada, "sent one", "https://hooks.example/sent")
	failed := enqueue(ada, "failing one", "https://hooks.example/failing")
	dead := enqueue(ada, "dead one", "https://hooks.example/secret-path?key=s3cr3t")
	bobs := enqueue(bob, "bob's dead one", "https://hooks.example/bob")
	if _, err := s.Store.ClaimNotifications(ctx, time.Now(), time.Minute, 10); err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(s.Store.MarkNotificationSent(ctx, sent, now))
	must(s.Store.MarkNotificationFailed(ctx, failed, "503 Service Unavailable", now.Add(time.Minute)))
	must(s.Store.MarkNotificationDead(ctx, dead, "410 Gone"))
	must(s.Store.MarkNotificationDead(ctx, bobs, "410 Gone"))

	c := newSignedIn(t, s, ada)
	status, page := c.do("GET", "/notifications", "")
	if status != 200 {
		t.Fatalf("GET /notifications: %d", status)
	}
	for _, want := range []string{"sent one", "failing one", "dead one", "503 Service Unavailable", "410 Gone",
		"dead letter", "retrying", "sent", `action="/notifications/` + strconv.FormatInt(dead, 10) + `/retry"`, "Showing 1–3 of 3"} {
		if !strings.Contains(page, want) {
			t.Errorf("the notifications page has no %q", want)
		}
	}
	for _, not := range []string{"bob's dead one", "s3cr3t", "secret-path", `action="/notifications/` + strconv.FormatInt(failed, 10) + `/retry"`} {
		if strings.Contains(page, not) {
			t.Errorf("the notifications page shows %q", not)
		}
	}
	if i, j := strings.Index(page, "dead one"), strings.Index(page, "sent one"); i < 0 || j < 0 || i > j {
		t.Errorf("the newest is not first")
	}

	id := func(n int64) string { return strconv.FormatInt(n, 10) }
	for _, tc := range []struct {
		method, path string
		status       int
	}{
		{"POST", "/api/v1/notifications/" + id(bobs) + "/retry", 404},
		{"POST", "/notifications/" + id(bobs) + "/retry", 404},
		{"POST", "/api/v1/notifications/" + id(failed) + "/retry", 409},
		{"POST", "/api/v1/notifications/" + id(sent) + "/retry", 409},
		{"POST", "/api/v1/notifications/9999/retry", 404},
		{"POST", "/api/v1/notifications/x/retry", 400},
	} {
		if status, body := c.do(tc.method, tc.path, ""); status != tc.status {
			t.Errorf("%s %s: %d %s, want %d", tc.method, tc.path, status, body, tc.status)
		}
	}
	if kicked != 0 {
		t.Errorf("a refused retry woke the delivery")
	}

	// Without its CSRF token, the dashboard's form is refused.
	c2 := *c
	c2.csrf = "forged"
	if status, _ := c2.do("POST", "/notifications/"+id(dead)+"/retry", ""); status != 403 {
		t.Errorf("retry without the CSRF token: %d, want 403", status)
	}
	if status, _ := c.do("POST", "/notifications/"+id(dead)+"/retry", ""); status != 303 {
		t.Errorf("retry from the dashboard: %d, want 303", status)
	}
	n, err := s.Store.FindNotificationByID(ctx, dead)
	if err != nil || n.State != vigil.NotificationPending || n.Attempts != 0 || !n.NextAttempt.Equal(now) || kicked != 1 {
		t.Errorf("after the retry: %+v %v, kicked %d; want pending, due now, 0 attempts, kicked once", n, err, kicked)
	}
	if _, err := s.Store.ClaimNotifications(ctx, now, time.Minute, 10); err != nil {
		t.Fatal(err)
	}
	must(s.Store.MarkNotificationDead(ctx, dead, "410 Gone"))
	status, body := c.do("POST", "/api/v1/notifications/"+id(dead)+"/retry", "")
	if status != 200 || !strings.Contains(body, `"state": "pending"`) || kicked != 2 {
		t.Errorf("retry from the API: %d %s, kicked %d", status, body, kicked)
	}
	if status, body := c.do("POST", "/api/v1/notifications/"+id(dead)+"/retry", ""); status != 409 || !strings.Contains(body, "not a dead letter") {
		t.Errorf("retry of a pending one: %d %s, want 409", status, body)
	}
}

// TestNotificationRetryOfRemovedSentinel: a dead letter whose sentinel
// was removed after it died (it kept its own error, not SentinelRemoved)
// is not retried either: its sentinel is gone, as for the letters the
// removal gave up. The page offers no Retry for it, and says why.
func TestNotificationRetryOfRemovedSentinel(t *testing.T) {
	s, ada := newTestServer(t)
	ctx := context.Background()
	s.Now = func() time.Time { return time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC) }
	kicked := 0
	s.KickOutbox = func() { kicked++ }
	kept := createChecked(t, s, ada, "Create Sentinel kept Using http://a.example/ Notify By webhook https://hooks.example/x")
	gone := createChecked(t, s, ada, "Create Sentinel gone Using http://b.example/")
	dead := func(sen *vigil.Sentinel) int64 {
		n := &vigil.Notification{UserID: ada.ID, Channel: "webhook", Target: "https://hooks.example/x",
			Payload: json.RawMessage(`{"sentinelId":` + strconv.FormatInt(sen.ID, 10) + `,"sentinel":"` + sen.Name + `","subject":"s","text":"t","changes":[]}`)}
		if err := s.Store.EnqueueNotification(ctx, n); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Store.ClaimNotifications(ctx, time.Now(), time.Minute, 10); err != nil {
			t.Fatal(err)
		}
		if err := s.Store.MarkNotificationDead(ctx, n.ID, "410 Gone"); err != nil {
			t.Fatal(err)
		}
		return n.ID
	}
	keptID, goneID := dead(kept), dead(gone)
	if err := s.Store.DeleteSentinel(ctx, gone.ID); err != nil {
		t.Fatal(err)
	}
	c := newSignedIn(t, s, ada)
	_, page := c.do("GET", "/notifications", "")
	if want := `action="/notifications/` + strconv.FormatInt(keptID, 10) + `/retry"`; !strings.Contains(page, want) {
		t.Errorf("no Retry for the dead letter of a sentinel still there")
	}
	if not := `action="/notifications/` + strconv.FormatInt(goneID, 10) + `/retry"`; strings.Contains(page, not) {
		t.Errorf("a Retry for the dead letter of a removed sentinel")
	}
	// and says why, as it does for every dead letter it offers no Retry
	// for: it said nothing, the letter's own error ("410 Gone") aside.
	if want := "notification " + strconv.FormatInt(goneID, 10) + " is not retried: " + vigil.SentinelRemoved; !strings.Contains(page, want) {
		t.Errorf("the page does not say why the removed sentinel's dead letter is not retried (%q)", want)
	}
	if status, body := c.do("POST", "/api/v1/notifications/"+strconv.FormatInt(goneID, 10)+"/retry", ""); status != 409 || !strings.Contains(body, vigil.SentinelRemoved) {
		t.Errorf("retry of a removed sentinel's dead letter: %d %s, want 409 saying %q", status, body, vigil.SentinelRemoved)
	}
	if n, err := s.Store.FindNotificationByID(ctx, goneID); err != nil || n.State != vigil.NotificationDead || kicked != 0 {
		t.Errorf("after the refused retry: %+v %v, kicked %d", n, err, kicked)
	}
	if status, body := c.do("POST", "/api/v1/notifications/"+strconv.FormatInt(keptID, 10)+"/retry", ""); status != 200 {
		t.Errorf("retry of a kept sentinel's dead letter: %d %s", status, body)
	}
}

// TestNotificationsPastTheEnd: a page past the end of the notifications
// links back to the last page, as the other lists do.
func TestNotificationsPastTheEnd(t *testing.T) {
	s, ada := newTestServer(t)
	for range 3 {
		n := &vigil.Notification{UserID: ada.ID, Channel: "email", Target: "a@b.c", Payload: json.RawMessage(`{}`)}
		if err := s.Store.EnqueueNotification(context.Background(), n); err != nil {
			t.Fatal(err)
		}
	}
	c := newSignedIn(t, s, ada)
	status, page := c.do("GET", "/notifications?offset=10", "")
	if status != 200 || !strings.Contains(page, `rel="prev"`) || !strings.Contains(page, "there are 3") {
		t.Errorf("GET /notifications?offset=10: %d, no link to the last page:\n%s", status, page)
	}
}

// TestShownTarget: the notifications page shows no part of a target that
// may be secret, a URL that does not parse included.
func TestShownTarget(t *testing.T) {
	for _, tc := range []struct{ target, want string }{
		{"ada@example.com", "ada@example.com"},
		{"mailto:ada@example.com", "ada@example.com"},
		{"https://hooks.example/", "https://hooks.example"},
		{"https://hooks.example/T0/B0/s3cr3t", "https://hooks.example/…"},
		{"https://user:s3cr3t@hooks.example/", "https://hooks.example"},
		{"discord://s3cr3t@1234", "discord://…"},
		{"https://hooks.example/s3cr3t%zz", "https://…"},
		{"slack://hook:s3cr3t@x%zz", "slack://…"},
		{"https://hooks .example/s3cr3t", "https://…"},
	} {
		if got := shownTarget(tc.target); got != tc.want {
			t.Errorf("shownTarget(%q) = %q, want %q", tc.target, got, tc.want)
		}
	}
}

// TestNotificationListOrder: the API lists notifications oldest first,
// or newest first with order=desc, as the other lists do, and pages
// through them in either order without skipping or repeating one. It
// took no order and listed them oldest first only.
func TestNotificationListOrder(t *testing.T) {
	s, ada := newTestServer(t)
	var ids []int64
	for range 5 {
		n := &vigil.Notification{UserID: ada.ID, Channel: "email", Target: "a@b.c", Payload: json.RawMessage(`{}`)}
		if err := s.Store.EnqueueNotification(context.Background(), n); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, n.ID)
	}
	newest := make([]int64, len(ids))
	for i, id := range ids {
		newest[len(ids)-1-i] = id
	}
	c := newSignedIn(t, s, ada)
	for _, tc := range []struct {
		order string
		want  []int64
	}{{"", ids}, {"asc", ids}, {"desc", newest}} {
		var got []int64
		for offset := 0; offset < len(ids); offset += 2 {
			path := "/api/v1/notifications?limit=2&offset=" + strconv.Itoa(offset)
			if tc.order != "" { // none given: asc; order= is refused (TestAPIRefusesEmptyQueryValues)
				path += "&order=" + tc.order
			}
			status, body := c.do("GET", path, "")
			var page struct {
				Items []vigil.Notification `json:"items"`
				Total int                  `json:"total"`
			}
			if status != 200 || json.Unmarshal([]byte(body), &page) != nil || page.Total != len(ids) {
				t.Fatalf("order %q offset %d: %d %s", tc.order, offset, status, body)
			}
			for _, n := range page.Items {
				got = append(got, n.ID)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("order %q: pages list %v, want %v", tc.order, got, tc.want)
		}
	}
	if status, body := c.do("GET", "/api/v1/notifications?order=newest", ""); status != 400 || !strings.Contains(body, "asc or desc") {
		t.Errorf("order=newest: %d %s, want 400 naming asc and desc", status, body)
	}
}

// removedAfterLookup is a store whose sentinel id is removed right after
// it is looked up: a removal between the retry's check and its write.
type removedAfterLookup struct {
	vigil.Store
	id int64
}

func (s *removedAfterLookup) FindSentinelByID(ctx context.Context, id int64) (*vigil.Sentinel, error) {
	sen, err := s.Store.FindSentinelByID(ctx, id)
	if err == nil && id == s.id {
		err = s.Store.DeleteSentinel(ctx, id)
	}
	return sen, err
}

// TestNotificationRetryRacesRemoval: a sentinel removed between the
// retry's look-up of it and the retry's write leaves its dead letter
// dead; the letter was made pending, to be delivered for a sentinel its
// owner had removed.
func TestNotificationRetryRacesRemoval(t *testing.T) {
	s, ada := newTestServer(t)
	ctx := context.Background()
	kicked := 0
	s.KickOutbox = func() { kicked++ }
	sen := createChecked(t, s, ada, "Create Sentinel gone Using http://a.example/ Notify By webhook https://hooks.example/x")
	n := &vigil.Notification{UserID: ada.ID, Channel: "webhook", Target: "https://hooks.example/x",
		Payload: json.RawMessage(`{"sentinelId":` + strconv.FormatInt(sen.ID, 10) + `,"sentinel":"gone","subject":"s","text":"t","changes":[]}`)}
	if err := s.Store.EnqueueNotification(ctx, n); err != nil {
		t.Fatal(err)
	}
	if err := s.Store.MarkNotificationDead(ctx, n.ID, "410 Gone"); err != nil {
		t.Fatal(err)
	}
	s.Store = &removedAfterLookup{Store: s.Store, id: sen.ID}
	c := newSignedIn(t, s, ada)
	if status, body := c.do("POST", "/api/v1/notifications/"+strconv.FormatInt(n.ID, 10)+"/retry", ""); status != 409 || !strings.Contains(body, vigil.SentinelRemoved) {
		t.Errorf("retry as the sentinel is removed: %d %s, want 409 saying %q", status, body, vigil.SentinelRemoved)
	}
	if got, err := s.Store.FindNotificationByID(ctx, n.ID); err != nil || got.State != vigil.NotificationDead || kicked != 0 {
		t.Errorf("after the refused retry: %+v %v, kicked %d; want it dead, the delivery not woken", got, err, kicked)
	}
}

// TestNotificationRetryTarget: a dead letter is retried to the target its
// sentinel notifies now by the letter's channel: its owner may have fixed
// the one the letter was written for, which is why they retry. Of several
// targets by that channel, the letter's own if it is one of them. A
// sentinel that notifies by the channel no more, or by several targets
// none of which is the letter's, refuses the retry (409, saying why),
// the letter left as it was. The retry went to the letter's own target.
func TestNotificationRetryTarget(t *testing.T) {
	s, ada := newTestServer(t)
	s.Checker = storeChecker(s)
	s.Now = func() time.Time { return time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC) }
	ctx := context.Background()
	c := newSignedIn(t, s, ada)
	for i, tc := range []struct {
		name            string
		channel, target string // the letter's
		notify          string // the sentinel's Notify clause, edited after the letter died
		status          int
		want            string // the target retried to, or a part of the refusal
	}{
		{"fixed", "webhook", "https://hooks.example/wrong", "webhook https://hooks.example/fixed", 200, "https://hooks.example/fixed"},
		{"fixed among others", "webhook", "https://hooks.example/wrong", "email ada@example.com, webhook https://hooks.example/fixed", 200, "https://hooks.example/fixed"},
		{"the same", "webhook", "https://hooks.example/same", "webhook https://hooks.example/same", 200, "https://hooks.example/same"},
		{"its own of several", "webhook", "https://hooks.example/b", "webhook https://hooks.example/a, webhook https://hooks.example/b", 200, "https://hooks.example/b"},
		{"email fixed", "email", "ada@exmaple.com", "email ada@example.com", 200, "ada@example.com"},
		{"chat fixed", "chat", "slack://hooks/T0/B0/wrong", "slack://hooks/T0/B0/fixed", 200, "slack://hooks/T0/B0/fixed"},
		{"several, none its own", "webhook", "https://hooks.example/wrong", "webhook https://hooks.example/a, webhook https://other.example/b",
			409, "notifies by webhook at 2 targets (https://hooks.example/…, https://other.example/…), none of them this letter's"},
		// The refusal says what to do, as the README does.
		{"several, none its own: what to do", "webhook", "https://hooks.example/wrong", "webhook https://hooks.example/a, webhook https://other.example/b",
			409, "cannot tell which one replaced it: retry those targets' own letters of the message where they are dead letters too, or keep one webhook target in its Notify clause"},
		{"channel removed", "webhook", "https://hooks.example/wrong", "email ada@example.com", 409, "no longer notifies by webhook"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := "s" + strconv.Itoa(i)
			sen := createChecked(t, s, ada, "Create Sentinel "+name+" Using http://a.example/ Notify By webhook https://hooks.example/before")
			n := &vigil.Notification{UserID: ada.ID, Channel: tc.channel, Target: tc.target,
				Payload: json.RawMessage(`{"sentinelId":` + strconv.FormatInt(sen.ID, 10) + `,"sentinel":"` + name + `","subject":"s","text":"t","changes":[]}`)}
			if err := s.Store.EnqueueNotification(ctx, n); err != nil {
				t.Fatal(err)
			}
			if err := s.Store.MarkNotificationDead(ctx, n.ID, "404 Not Found"); err != nil {
				t.Fatal(err)
			}
			edit, _ := json.Marshal(map[string]string{"source": "Create Sentinel " + name + " Using http://a.example/ Notify By " + tc.notify})
			if status, body := c.do("PUT", "/api/v1/sentinels/"+strconv.FormatInt(sen.ID, 10), string(edit)); status != 200 {
				t.Fatalf("edit: %d %s", status, body)
			}
			// The Notifications page offers the retry only where it is
			// not refused, and says why where it is.
			action := `action="/notifications/` + strconv.FormatInt(n.ID, 10) + `/retry"`
			if status, page := c.do("GET", "/notifications?state=dead", ""); status != 200 {
				t.Fatalf("the notifications page: %d", status)
			} else if offered := strings.Contains(page, action); offered != (tc.status == 200) ||
				tc.status != 200 && !strings.Contains(html.UnescapeString(page), tc.want) {
				t.Errorf("the notifications page offers the retry: %v, want %v; says %q: %v", offered, tc.status == 200, tc.want,
					strings.Contains(html.UnescapeString(page), tc.want))
			}
			status, body := c.do("POST", "/api/v1/notifications/"+strconv.FormatInt(n.ID, 10)+"/retry", "")
			got, err := s.Store.FindNotificationByID(ctx, n.ID)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case status != tc.status:
				t.Errorf("retry: %d %s, want %d", status, body, tc.status)
			case status == 200 && (got.State != vigil.NotificationPending || got.Target != tc.want):
				t.Errorf("retried: %s to %s, want pending to %s", got.State, got.Target, tc.want)
			case status != 200 && (!strings.Contains(body, tc.want) || got.State != vigil.NotificationDead || got.Target != tc.target):
				t.Errorf("refused: %s; letter %s to %s; want the refusal to say %q, the letter dead to %s", body, got.State, got.Target, tc.want, tc.target)
			case status != 200:
				// The Notifications page's Retry button says why too.
				if status, page := c.do("POST", "/notifications/"+strconv.FormatInt(n.ID, 10)+"/retry", ""); status != tc.status || !strings.Contains(html.UnescapeString(page), tc.want) {
					t.Errorf("retry from the dashboard: %d, the page does not say %q:\n%s", status, tc.want, page)
				}
			}
		})
	}
}

// TestNotificationRetryOfAnothersSentinel: a dead letter whose message
// names a sentinel of another user is not retried, neither to that
// sentinel's targets nor to its own: the retry takes its target from
// the letter's sentinel, and another's would send the letter to that
// user's webhook and show its URL, secret and all, in the letter.
func TestNotificationRetryOfAnothersSentinel(t *testing.T) {
	s, ada := newTestServer(t)
	ctx := context.Background()
	kicked := 0
	s.KickOutbox = func() { kicked++ }
	bob := &vigil.User{Email: "bob@example.com", Name: "bob"}
	if err := s.Store.CreateUser(ctx, bob); err != nil {
		t.Fatal(err)
	}
	adas := createChecked(t, s, ada, `Create Sentinel prices Using http://a.example/ Notify By webhook "https://hooks.example/ada?key=s3cr3t"`)
	n := &vigil.Notification{UserID: bob.ID, Channel: "webhook", Target: "https://hooks.example/bob",
		Payload: json.RawMessage(`{"sentinelId":` + strconv.FormatInt(adas.ID, 10) + `,"sentinel":"prices","subject":"s","text":"t","changes":[]}`)}
	if err := s.Store.EnqueueNotification(ctx, n); err != nil {
		t.Fatal(err)
	}
	if err := s.Store.MarkNotificationDead(ctx, n.ID, "410 Gone"); err != nil {
		t.Fatal(err)
	}
	c := newSignedIn(t, s, bob)
	status, body := c.do("POST", "/api/v1/notifications/"+strconv.FormatInt(n.ID, 10)+"/retry", "")
	if status != 409 || strings.Contains(body, "s3cr3t") {
		t.Errorf("bob's retry of a letter naming ada's sentinel: %d %s, want 409", status, body)
	}
	got, err := s.Store.FindNotificationByID(ctx, n.ID)
	if err != nil || got.State != vigil.NotificationDead || got.Target != "https://hooks.example/bob" || kicked != 0 {
		t.Errorf("after: %+v %v, kicked %d; want it dead to its own target, the delivery not woken", got, err, kicked)
	}
}

// TestNotificationRetryUnsendable: a dead letter by a channel this server
// cannot send on (Server.Unsendable: email without SMTP settings) is not
// retried, as the retry would die again at once: the Notifications page
// says why instead of offering Retry, and the retry answers 409 saying
// why, the letter left dead and the delivery not woken. A letter by a
// channel it can send on, or every letter when Unsendable is nil, is
// retried.
func TestNotificationRetryUnsendable(t *testing.T) {
	const why = "email is not configured on this server: start vigil serve with --smtp-host (or $VIGIL_SMTP_HOST) and the other SMTP settings of vigil serve -h"
	unsendable := func(channel string) string {
		if channel == "email" {
			return why
		}
		return ""
	}
	for i, tc := range []struct {
		name       string
		unsendable func(string) string
		channel    string
		target     string
		sentinel   bool // the letter names its sentinel
		status     int
	}{
		{"email without SMTP", unsendable, "email", "ada@example.com", true, 409},
		{"email without SMTP, no sentinel", unsendable, "email", "ada@example.com", false, 409},
		{"webhook", unsendable, "webhook", "https://hooks.example/h", true, 200},
		{"every channel sendable (nil)", nil, "email", "ada@example.com", true, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, ada := newTestServer(t)
			s.Checker = storeChecker(s)
			s.Unsendable = tc.unsendable
			kicked := 0
			s.KickOutbox = func() { kicked++ }
			ctx := context.Background()
			payload := `{"sentinel":"s","subject":"s","text":"t","changes":[]}`
			if tc.sentinel {
				sen := createChecked(t, s, ada, "Create Sentinel s"+strconv.Itoa(i)+" Using http://a.example/ Notify By email ada@example.com, webhook https://hooks.example/h")
				payload = `{"sentinelId":` + strconv.FormatInt(sen.ID, 10) + `,"sentinel":"s","subject":"s","text":"t","changes":[]}`
			}
			n := &vigil.Notification{UserID: ada.ID, Channel: tc.channel, Target: tc.target, Payload: json.RawMessage(payload)}
			if err := s.Store.EnqueueNotification(ctx, n); err != nil {
				t.Fatal(err)
			}
			if err := s.Store.MarkNotificationDead(ctx, n.ID, "channel "+tc.channel+" is not configured"); err != nil {
				t.Fatal(err)
			}
			c := newSignedIn(t, s, ada)
			action := `action="/notifications/` + strconv.FormatInt(n.ID, 10) + `/retry"`
			status, page := c.do("GET", "/notifications?state=dead", "")
			if status != 200 {
				t.Fatalf("the notifications page: %d", status)
			}
			offered, says := strings.Contains(page, action), strings.Contains(html.UnescapeString(page), why)
			if offered != (tc.status == 200) || says != (tc.status != 200) {
				t.Errorf("the notifications page offers the retry: %v, says %q: %v; want %v, %v", offered, why, says, tc.status == 200, tc.status != 200)
			}
			status, body := c.do("POST", "/api/v1/notifications/"+strconv.FormatInt(n.ID, 10)+"/retry", "")
			got, err := s.Store.FindNotificationByID(ctx, n.ID)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case status != tc.status:
				t.Errorf("retry: %d %s, want %d", status, body, tc.status)
			case status == 200 && (got.State != vigil.NotificationPending || kicked != 1):
				t.Errorf("retried: %s, kicked %d; want pending, kicked once", got.State, kicked)
			case status != 200 && (!strings.Contains(body, why) || got.State != vigil.NotificationDead || kicked != 0):
				t.Errorf("refused: %s; letter %s, kicked %d; want the refusal to say %q, the letter dead, the delivery not woken", body, got.State, kicked, why)
			case status != 200:
				if status, page := c.do("POST", "/notifications/"+strconv.FormatInt(n.ID, 10)+"/retry", ""); status != 409 || !strings.Contains(html.UnescapeString(page), why) {
					t.Errorf("retry from the dashboard: %d, the page does not say %q:\n%s", status, why, page)
				}
			}
		})
	}
}
