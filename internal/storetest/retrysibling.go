package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// testOutboxRetrySibling: the monitor writes a message once a contact,
// so a channel with targets A and B gives each a letter of its own. A
// retry to a target other than the letter's own (its sentinel's contact
// by that channel, the letter's having been removed) is refused if that
// target has a letter of the same message, in any state: A's dead letter,
// A then removed, sent the change to B a second time. A target with no
// letter of the message (A replaced by B) is still the one retried to.
// The sibling of a change's letter is of the same change (whatever its
// payload); that of a digest or a failure notice carries the same
// payload. A refusal leaves the letter as it was and writes none.
func testOutboxRetrySibling(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	r, err := s.EnsureResource(ctx, "http://example.com/")
	must(t, err)
	sn := &vigil.Sentinel{OwnerID: u.ID, Name: "prices", Source: "x", Status: vigil.SentinelActive}
	must(t, s.CreateSentinel(ctx, sn))
	const a, b, c = "https://hooks.example/a", "https://hooks.example/b", "https://hooks.example/c"
	// Every change's letters carry this payload: only their change tells
	// them apart, as the monitor's own payloads carry no change id.
	changePayload := fmt.Sprintf(`{"sentinelId":%d,"sentinel":"prices","subject":"s","text":"t","changes":[{"change":{"id":0}}]}`, sn.ID)
	version := int64(0)
	newChange := func() int64 {
		version++
		ch := &vigil.Change{SentinelID: sn.ID, ResourceID: r.ID, ToVersion: version, DetectedAt: t0}
		must(t, s.CreateChange(ctx, ch))
		return ch.ID
	}
	letter := func(changeID int64, payload, channel, target string, state vigil.NotificationState) int64 {
		t.Helper()
		n := &vigil.Notification{UserID: u.ID, ChangeID: changeID, Channel: channel, Target: target,
			Payload: json.RawMessage(payload), NextAttempt: t0}
		must(t, s.EnqueueNotification(ctx, n))
		switch state {
		case vigil.NotificationSent:
			must(t, s.MarkNotificationSent(ctx, n.ID, t0))
		case vigil.NotificationFailed:
			must(t, s.MarkNotificationFailed(ctx, n.ID, "503", t0.Add(time.Hour)))
		case vigil.NotificationDead:
			must(t, s.MarkNotificationDead(ctx, n.ID, "410 gone"))
		}
		return n.ID
	}
	count := func() int {
		_, total, err := s.FindNotifications(ctx, vigil.NotificationFilter{UserID: u.ID})
		must(t, err)
		return total
	}
	at := t0.Add(time.Hour)

	for i, tc := range []struct {
		name    string
		kind    string                  // of the message: "change", "digest" or "failure"
		sibling vigil.NotificationState // of B's letter of it, "" for none
		refusal string                  // what the refusal says, "" if the letter is retried to B
	}{
		{"replaced target", "change", "", ""},
		{"replaced target, digest", "digest", "", ""},
		{"replaced target, failure notice", "failure", "", ""},
		{"removed one of two", "change", vigil.NotificationSent, "has been sent this change already"},
		{"removed one of two, the other's pending", "change", vigil.NotificationPending, "already has its own letter for this change"},
		{"removed one of two, the other's failing", "change", vigil.NotificationFailed, "already has its own letter for this change"},
		{"removed one of two, the other's a dead letter", "change", vigil.NotificationDead, "a dead letter too: retry that one"},
		{"digest, removed one of two", "digest", vigil.NotificationSent, "has been sent this message already"},
		{"failure notice, removed one of two", "failure", vigil.NotificationFailed, "already has its own letter for this message"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var changeID, otherChange int64
			var payload, otherPayload string
			switch tc.kind {
			case "change":
				changeID, otherChange = newChange(), newChange()
				payload, otherPayload = changePayload, changePayload
			case "digest":
				digest := func(period int) string {
					return fmt.Sprintf(`{"sentinelId":%d,"sentinel":"prices","subject":"%d changes since %d","text":"t","digest":true,"changes":[]}`, sn.ID, i, period)
				}
				payload, otherPayload = digest(1), digest(2)
			case "failure":
				notice := func(recovered bool) string {
					return fmt.Sprintf(`{"sentinelId":%d,"sentinel":"prices","subject":"%d fails","text":"t","changes":[],"failure":{"url":"http://example.com/","since":"2026-11-01T12:00:00Z","recovered":%t}}`, sn.ID, i, recovered)
				}
				payload, otherPayload = notice(false), notice(true)
			}
			dead := letter(changeID, payload, "webhook", a, vigil.NotificationDead)
			sibling := int64(0)
			if tc.sibling != "" {
				sibling = letter(changeID, payload, "webhook", b, tc.sibling)
			}
			// Not siblings: B's letter of another message, the letter of
			// this one to a third target, and another channel's.
			letter(otherChange, otherPayload, "webhook", b, vigil.NotificationSent)
			letter(changeID, payload, "webhook", c, vigil.NotificationSent)
			letter(changeID, payload, "chat", b, vigil.NotificationSent)

			got, err := s.FindNotificationSibling(ctx, dead, b)
			switch {
			case sibling == 0 && vigil.ErrorCode(err) != vigil.ENOTFOUND:
				t.Errorf("the sibling to %s: %+v %v; want none (ENOTFOUND)", b, got, err)
			case sibling != 0 && (err != nil || got.ID != sibling || got.State != tc.sibling):
				t.Errorf("the sibling to %s: %+v %v; want notification %d, %s", b, got, err, sibling, tc.sibling)
			}

			before := count()
			err = s.RetryNotification(ctx, dead, vigil.NotificationRetry{At: at, SentinelID: sn.ID, Target: b})
			n, ferr := s.FindNotificationByID(ctx, dead)
			must(t, ferr)
			if tc.refusal == "" {
				if err != nil || n.State != vigil.NotificationPending || n.Target != b {
					t.Errorf("retry to %s, which has no letter of the message: %v; letter %s to %s, want it pending to %s", b, err, n.State, n.Target, b)
				}
				return
			}
			wantCode(t, err, vigil.ECONFLICT)
			if msg := vigil.ErrorMessage(err); !strings.Contains(msg, tc.refusal) || !strings.Contains(msg, fmt.Sprintf("notification %d", sibling)) {
				t.Errorf("the refusal says %q; want it to say %q and name notification %d", msg, tc.refusal, sibling)
			}
			if n.State != vigil.NotificationDead || n.Target != a || n.LastError != "410 gone" || count() != before {
				t.Errorf("after the refusal: letter %s to %s (%q), %d letters; want it dead to %s with its error, %d letters", n.State, n.Target, n.LastError, count(), a, before)
			}
			if tc.sibling == vigil.NotificationDead {
				// The refusal's advice: the sibling's own retry, to its
				// own target, is taken.
				must(t, s.RetryNotification(ctx, sibling, vigil.NotificationRetry{At: at, SentinelID: sn.ID, Target: b}))
				if n, err := s.FindNotificationByID(ctx, sibling); err != nil || n.State != vigil.NotificationPending || n.Target != b {
					t.Errorf("the sibling's own retry: %+v %v; want it pending to %s", n, err, b)
				}
			}
		})
	}

	// A and B both removed for C: the first letter retried goes to C, and
	// the second, whose sibling to C is now the first, is refused.
	t.Run("two letters moved to one target", func(t *testing.T) {
		changeID := newChange()
		first := letter(changeID, changePayload, "webhook", a, vigil.NotificationDead)
		second := letter(changeID, changePayload, "webhook", b, vigil.NotificationDead)
		must(t, s.RetryNotification(ctx, first, vigil.NotificationRetry{At: at, SentinelID: sn.ID, Target: c}))
		err := s.RetryNotification(ctx, second, vigil.NotificationRetry{At: at, SentinelID: sn.ID, Target: c})
		wantCode(t, err, vigil.ECONFLICT)
		if msg := vigil.ErrorMessage(err); !strings.Contains(msg, fmt.Sprintf("notification %d, not sent yet (pending)", first)) {
			t.Errorf("the second retry to %s: %q; want it to name the first letter, not sent yet", c, msg)
		}
		if n, err := s.FindNotificationByID(ctx, second); err != nil || n.State != vigil.NotificationDead || n.Target != b {
			t.Errorf("after the refusal: %+v %v; want it dead to %s", n, err, b)
		}
	})

	wantCode(t, func() error { _, err := s.FindNotificationSibling(ctx, 9999, b); return err }(), vigil.ENOTFOUND)
}
