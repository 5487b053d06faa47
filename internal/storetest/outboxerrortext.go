package storetest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// testOutboxErrorText: the error of an attempt is recorded whatever its
// bytes, on every backend alike: an SMTP server's answer in Latin-1 (not
// UTF-8), a receiver's with a NUL. PostgreSQL refuses either in a text
// column, so that the failure, and the giving up, of such an entry could
// never be recorded: it stayed claimed, was sent again each time its
// lease ended, and held back its address's queue, for ever. Each byte
// that is not text is kept as U+FFFD, as SQLite now keeps it too.
func testOutboxErrorText(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	var ids []int64
	for _, target := range []string{"a@example.com", "b@example.com"} {
		n := &vigil.Notification{UserID: u.ID, Channel: "email", Target: target, Payload: json.RawMessage(`{}`), NextAttempt: t0}
		must(t, s.EnqueueNotification(ctx, n))
		ids = append(ids, n.ID)
	}
	claimed, err := s.ClaimNotifications(ctx, t0, time.Minute, 10)
	must(t, err)
	if len(claimed) != 2 {
		t.Fatalf("claimed %d, want 2", len(claimed))
	}
	const (
		latin1 = "550 5.1.1 Empf\xe4nger unbekannt"
		nul    = "status 400: bad\x00request"
	)
	must(t, s.MarkNotificationFailed(ctx, ids[0], latin1, t0.Add(time.Hour)))
	must(t, s.MarkNotificationDead(ctx, ids[1], nul))
	for _, want := range []struct {
		id    int64
		state vigil.NotificationState
		text  string
	}{
		{ids[0], vigil.NotificationFailed, "550 5.1.1 Empf\uFFFDnger unbekannt"},
		{ids[1], vigil.NotificationDead, "status 400: bad\uFFFDrequest"},
	} {
		n, err := s.FindNotificationByID(ctx, want.id)
		must(t, err)
		if n.State != want.state || n.LastError != want.text {
			t.Errorf("entry %d: %s, last error %q; want %s, %q", want.id, n.State, n.LastError, want.state, want.text)
		}
	}
	// The failed one is claimed again when due, and given up then.
	again, err := s.ClaimNotifications(ctx, t0.Add(time.Hour), time.Minute, 10)
	must(t, err)
	if len(again) != 1 || again[0].ID != ids[0] {
		t.Fatalf("claim after the failure: %d entries, want entry %d", len(again), ids[0])
	}
	must(t, s.MarkNotificationDead(ctx, ids[0], latin1+" (again)"))
	n, err := s.FindNotificationByID(ctx, ids[0])
	must(t, err)
	if n.State != vigil.NotificationDead || n.LastError != "550 5.1.1 Empf\uFFFDnger unbekannt (again)" {
		t.Errorf("given up: %s, %q", n.State, n.LastError)
	}
}
