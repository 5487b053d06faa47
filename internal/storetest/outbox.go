package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

func testOutbox(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	var ids []int64
	for i := range 3 {
		// Each to an address of its own: one claimed holds back those
		// after it to its address (testOutboxAddressOrder).
		n := &vigil.Notification{UserID: u.ID, Channel: "webhook", Target: fmt.Sprintf("https://hooks.example/x%d", i),
			Payload: json.RawMessage(fmt.Sprintf(`{"n":%d}`, i)), NextAttempt: t0.Add(time.Duration(i) * time.Second)}
		must(t, s.EnqueueNotification(ctx, n))
		if n.State != vigil.NotificationPending {
			t.Fatalf("state %q", n.State)
		}
		ids = append(ids, n.ID)
	}
	wantCode(t, s.EnqueueNotification(ctx, &vigil.Notification{Channel: "email", Target: "a@b", Payload: json.RawMessage(`{`)}), vigil.EINVALID)
	now := t0.Add(time.Minute)
	got, err := s.ClaimNotifications(ctx, now, 30*time.Second, 2)
	must(t, err)
	if len(got) != 2 || got[0].ID != ids[0] || got[0].Attempts != 1 {
		t.Fatalf("claim %v", got)
	}
	more, err := s.ClaimNotifications(ctx, now, 30*time.Second, 10)
	must(t, err)
	if len(more) != 1 || more[0].ID != ids[2] {
		t.Fatalf("second claim %v", more)
	}
	must(t, s.MarkNotificationSent(ctx, ids[0], now))
	must(t, s.MarkNotificationFailed(ctx, ids[1], "503 from hook", now.Add(5*time.Minute)))
	must(t, s.MarkNotificationDead(ctx, ids[2], "410 gone"))
	// Only the failed one comes back, when due.
	got, err = s.ClaimNotifications(ctx, now.Add(time.Minute), time.Minute, 10)
	must(t, err)
	if len(got) != 0 {
		t.Fatalf("claimed before due: %v", got)
	}
	got, err = s.ClaimNotifications(ctx, now.Add(6*time.Minute), time.Minute, 10)
	must(t, err)
	if len(got) != 1 || got[0].ID != ids[1] || got[0].Attempts != 2 || got[0].LastError != "503 from hook" || got[0].State != vigil.NotificationFailed {
		t.Fatalf("retry claim %+v", got)
	}
	sent, err := s.FindNotificationByID(ctx, ids[0])
	must(t, err)
	if sent.State != vigil.NotificationSent || !sent.SentAt.Equal(now) || string(sent.Payload) != `{"n":0}` {
		t.Fatalf("sent %+v", sent)
	}
	dead, n, err := s.FindNotifications(ctx, vigil.NotificationFilter{State: vigil.NotificationDead})
	must(t, err)
	if n != 1 || dead[0].ID != ids[2] || dead[0].LastError != "410 gone" {
		t.Fatalf("dead %v", dead)
	}
	wantCode(t, s.MarkNotificationSent(ctx, 9999, now), vigil.ENOTFOUND)
	// Paged one at a time, in either order, each entry comes once.
	for _, desc := range []bool{false, true} {
		var got []int64
		for offset := range len(ids) + 1 {
			page, total, err := s.FindNotifications(ctx, vigil.NotificationFilter{UserID: u.ID, Descending: desc, Offset: offset, Limit: 1})
			must(t, err)
			if total != len(ids) {
				t.Fatalf("descending %v, offset %d: total %d, want %d", desc, offset, total, len(ids))
			}
			for _, n := range page {
				got = append(got, n.ID)
			}
		}
		want := ids
		if desc {
			want = []int64{ids[2], ids[1], ids[0]}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("descending %v: pages list %v, want %v", desc, got, want)
		}
	}
}

// testOutboxRetry: a dead letter is retried on demand: it is pending
// again, due at the time given, with its attempts counted afresh (else the
// first failure would kill it again) and its last error kept until the
// next attempt. Only a dead letter is retried, and not one given up
// because its sentinel was removed. Listed newest first on demand.
func testOutboxRetry(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	enqueue := func() int64 {
		n := &vigil.Notification{UserID: u.ID, Channel: "webhook", Target: "https://hooks.example/x",
			Payload: json.RawMessage(`{}`), NextAttempt: t0}
		must(t, s.EnqueueNotification(ctx, n))
		return n.ID
	}
	dead, pending, failed, sent, removed := enqueue(), enqueue(), enqueue(), enqueue(), enqueue()
	claimed, err := s.ClaimNotifications(ctx, t0, time.Minute, 10)
	must(t, err)
	if len(claimed) != 5 {
		t.Fatalf("claimed %d, want 5", len(claimed))
	}
	must(t, s.MarkNotificationDead(ctx, dead, "410 gone"))
	must(t, s.MarkNotificationFailed(ctx, failed, "503", t0.Add(time.Hour)))
	must(t, s.MarkNotificationSent(ctx, sent, t0))
	must(t, s.MarkNotificationDead(ctx, removed, vigil.SentinelRemoved))
	// pending is claimed: under its lease, pending still.

	at := t0.Add(2 * time.Hour)
	must(t, s.RetryNotification(ctx, dead, vigil.NotificationRetry{At: at}))
	n, err := s.FindNotificationByID(ctx, dead)
	must(t, err)
	if n.State != vigil.NotificationPending || n.Attempts != 0 || !n.NextAttempt.Equal(at) || n.LastError != "410 gone" {
		t.Errorf("retried: %+v, want pending, 0 attempts, due %v, its last error kept", n, at)
	}
	got, err := s.ClaimNotifications(ctx, at, time.Minute, 10)
	must(t, err)
	// The claimed one's lease and the failed one's back-off ended before;
	// the three come in the order they were queued, the retried one last,
	// queued again when it was retried (testOutboxRetriedLetterOrder).
	if len(got) != 3 || got[0].ID != pending || got[1].ID != failed || got[2].ID != dead || got[2].Attempts != 1 {
		t.Errorf("claim after the retry: %d entries, want the claimed, the failed, then the retried one at its first attempt", len(got))
	}
	// Back in their states, as the monitor's delivery leaves them.
	must(t, s.MarkNotificationDead(ctx, dead, "410 gone again"))
	must(t, s.MarkNotificationFailed(ctx, failed, "503", at.Add(time.Hour)))
	must(t, s.MarkNotificationSent(ctx, pending, at))
	pending = enqueue()
	for name, id := range map[string]int64{"pending": pending, "failed": failed, "sent": sent, "removed": removed} {
		wantCode(t, s.RetryNotification(ctx, id, vigil.NotificationRetry{At: at}), vigil.ECONFLICT)
		if name == "removed" {
			if n, _ := s.FindNotificationByID(ctx, id); n.State != vigil.NotificationDead {
				t.Errorf("the dead letter of a removed sentinel was retried: %+v", n)
			}
		}
	}
	wantCode(t, s.RetryNotification(ctx, 9999, vigil.NotificationRetry{At: at}), vigil.ENOTFOUND)
	must(t, s.RetryNotification(ctx, dead, vigil.NotificationRetry{At: at})) // dead again: retried again

	list, total, err := s.FindNotifications(ctx, vigil.NotificationFilter{UserID: u.ID, Descending: true, Limit: 2})
	must(t, err)
	if total != 6 || len(list) != 2 || list[0].ID != pending || list[1].ID != removed {
		t.Errorf("newest first: %d of %d, want %d and %d first", len(list), total, pending, removed)
	}
}

// testOutboxStaleMarks: the outcome of an attempt that comes after
// another has settled the entry does not undo it. A worker whose lease
// ended while it was sending (another claimed the entry and delivered it)
// records its failure late: the entry stays sent, else the dashboard
// would show a dead letter that its user retries, delivering it again.
// A dead letter given up because its sentinel was removed
// (DeleteSentinel, while an attempt was under way) keeps that reason when
// the attempt fails for good: it is not retried.
func testOutboxStaleMarks(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	enqueue := func() int64 {
		n := &vigil.Notification{UserID: u.ID, Channel: "webhook", Target: "https://hooks.example/x",
			Payload: json.RawMessage(`{}`), NextAttempt: t0}
		must(t, s.EnqueueNotification(ctx, n))
		return n.ID
	}
	sent, removed := enqueue(), enqueue()
	if got, err := s.ClaimNotifications(ctx, t0, time.Minute, 10); err != nil || len(got) != 2 {
		t.Fatalf("first claim: %d entries, %v", len(got), err)
	}
	// The first worker's lease ends; a second claims both again.
	if got, err := s.ClaimNotifications(ctx, t0.Add(2*time.Minute), time.Minute, 10); err != nil || len(got) != 2 {
		t.Fatalf("claim after the lease: %d entries, %v", len(got), err)
	}
	must(t, s.MarkNotificationSent(ctx, sent, t0.Add(2*time.Minute)))
	must(t, s.MarkNotificationDead(ctx, removed, vigil.SentinelRemoved)) // as DeleteSentinel leaves it
	// The first worker's attempts end now, failed.
	for name, mark := range map[string]func(id int64) error{
		"failed": func(id int64) error { return s.MarkNotificationFailed(ctx, id, "timeout", t0.Add(time.Hour)) },
		"dead":   func(id int64) error { return s.MarkNotificationDead(ctx, id, "410 gone") },
	} {
		must(t, mark(sent))
		if n, err := s.FindNotificationByID(ctx, sent); err != nil || n.State != vigil.NotificationSent || n.LastError != "" {
			t.Errorf("a late attempt marked %s a sent entry: %+v %v; want it sent", name, n, err)
		}
		must(t, mark(removed))
		if n, err := s.FindNotificationByID(ctx, removed); err != nil || n.State != vigil.NotificationDead || n.LastError != vigil.SentinelRemoved {
			t.Errorf("a late attempt marked %s the dead letter of a removed sentinel: %+v %v; want %q kept", name, n, err, vigil.SentinelRemoved)
		}
	}
	for _, id := range []int64{sent, removed} {
		wantCode(t, s.RetryNotification(ctx, id, vigil.NotificationRetry{At: t0.Add(time.Hour)}), vigil.ECONFLICT)
	}
	wantCode(t, s.MarkNotificationDead(ctx, 9999, "x"), vigil.ENOTFOUND)
	wantCode(t, s.MarkNotificationFailed(ctx, 9999, "x", t0), vigil.ENOTFOUND)
}

// testOutboxRelease gives back a claim a stopping worker did not see
// through: the entry is due again, the attempt uncounted; a release that
// comes after the entry was claimed again, or sent, changes nothing.
func testOutboxRelease(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	n := &vigil.Notification{Channel: "webhook", Target: "https://hooks.example/r", Payload: json.RawMessage(`{}`), NextAttempt: t0}
	must(t, s.EnqueueNotification(ctx, n))
	got, err := s.ClaimNotifications(ctx, t0, time.Hour, 10)
	must(t, err)
	if len(got) != 1 || got[0].Attempts != 1 {
		t.Fatalf("claim %v", got)
	}
	released := t0.Add(time.Minute)
	must(t, s.ReleaseNotification(ctx, n.ID, got[0].Attempts, released))
	back, err := s.FindNotificationByID(ctx, n.ID)
	must(t, err)
	if back.State != vigil.NotificationPending || back.Attempts != 0 || !back.NextAttempt.Equal(released) {
		t.Fatalf("released: %s, %d attempts, next %v; want pending, 0, %v", back.State, back.Attempts, back.NextAttempt, released)
	}
	// Claimed again after the lease of a first claim ended: the first
	// worker's late release leaves the second claim alone.
	first, err := s.ClaimNotifications(ctx, released, time.Minute, 10)
	must(t, err)
	second, err := s.ClaimNotifications(ctx, released.Add(2*time.Minute), time.Hour, 10)
	must(t, err)
	if len(first) != 1 || len(second) != 1 {
		t.Fatalf("claims %v, %v", first, second)
	}
	must(t, s.ReleaseNotification(ctx, n.ID, first[0].Attempts, released))
	back, err = s.FindNotificationByID(ctx, n.ID)
	must(t, err)
	if back.Attempts != second[0].Attempts || !back.NextAttempt.Equal(second[0].NextAttempt) {
		t.Fatalf("a stale release changed the entry: %d attempts, next %v; want %d, %v", back.Attempts, back.NextAttempt, second[0].Attempts, second[0].NextAttempt)
	}
	must(t, s.MarkNotificationSent(ctx, n.ID, released))
	must(t, s.ReleaseNotification(ctx, n.ID, second[0].Attempts, released))
	back, err = s.FindNotificationByID(ctx, n.ID)
	must(t, err)
	if back.State != vigil.NotificationSent {
		t.Fatalf("a release after the entry was sent: %s", back.State)
	}
	must(t, s.ReleaseNotification(ctx, n.ID+1000, 1, released)) // missing: nothing to give back
}
