package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// retentionBound is the bound of the outbox retention tests: after every
// entry they make (a store sets CreatedAt by its own clock), and after
// the times they give the entries to delete, before those they give the
// entries to keep.
func retentionBound() time.Time { return time.Now().Add(time.Hour).Truncate(time.Second) }

// testOutboxRetention: DeleteNotificationsBefore deletes the sent
// entries and dead letters last touched before the bound (their sending,
// their last attempt's lease end or due time), and keeps every entry
// still to be sent, those touched since, and a sent one while a sibling
// of it (the same message by the same channel) may yet be retried to its
// target: a dead letter but for one given up as its sentinel was
// removed, or one still to be sent. A dead sibling deleted by the same
// call holds nothing. The entries kept are read back as they were, the
// deleted ones are not found, and the outbox's claims go on.
func testOutboxRetention(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	r, err := s.EnsureResource(ctx, "http://example.com/")
	must(t, err)
	sn := &vigil.Sentinel{OwnerID: u.ID, Name: "prices", Source: "x", Status: vigil.SentinelActive}
	must(t, s.CreateSentinel(ctx, sn))
	gone := &vigil.Sentinel{OwnerID: u.ID, Name: "gone", Source: "x", Status: vigil.SentinelActive}
	must(t, s.CreateSentinel(ctx, gone))
	bound := retentionBound()
	old, recent := bound.Add(-100*24*time.Hour), bound.Add(24*time.Hour)
	version := int64(0)
	newChange := func() int64 {
		version++
		ch := &vigil.Change{SentinelID: sn.ID, ResourceID: r.ID, ToVersion: version, DetectedAt: t0}
		must(t, s.CreateChange(ctx, ch))
		return ch.ID
	}
	targets := 0
	// letter queues a letter due at due, to a target of its own unless
	// target is given, and brings it to state: sent at sentAt, failed
	// with its next attempt at due, dead after an attempt whose lease
	// ended at due.
	letter := func(changeID int64, channel, target, payload string, state vigil.NotificationState, due, sentAt time.Time) int64 {
		t.Helper()
		if target == "" {
			targets++
			target = fmt.Sprintf("https://hooks.example/%d", targets)
		}
		n := &vigil.Notification{UserID: u.ID, ChangeID: changeID, Channel: channel, Target: target,
			Payload: json.RawMessage(payload), NextAttempt: due}
		must(t, s.EnqueueNotification(ctx, n))
		switch state {
		case vigil.NotificationSent:
			must(t, s.MarkNotificationSent(ctx, n.ID, sentAt))
		case vigil.NotificationFailed:
			must(t, s.MarkNotificationFailed(ctx, n.ID, "503", due))
		case vigil.NotificationDead:
			must(t, s.MarkNotificationDead(ctx, n.ID, "410 gone"))
		}
		return n.ID
	}
	const change = `{"subject":"s","text":"t","changes":[{"change":{"id":0}}]}`
	// A letter of no change of its own: no other has its payload.
	solo := 0
	alone := func() string {
		solo++
		return fmt.Sprintf(`{"subject":"notice %d","text":"t","changes":[]}`, solo)
	}
	digest := func(sen *vigil.Sentinel, n int) string {
		return fmt.Sprintf(`{"sentinelId":%d,"subject":"digest %d","text":"t","changes":[]}`, sen.ID, n)
	}

	keep := map[int64]string{}
	drop := map[int64]string{}
	keep[letter(0, "webhook", "", alone(), vigil.NotificationPending, old, time.Time{})] = "pending, due long ago"
	keep[letter(0, "webhook", "", alone(), vigil.NotificationFailed, old, time.Time{})] = "failed, retried long ago"
	drop[letter(0, "webhook", "", alone(), vigil.NotificationSent, old, old)] = "sent long ago"
	drop[letter(newChange(), "email", "", change, vigil.NotificationSent, old, old)] = "a change's, sent long ago"
	keep[letter(0, "webhook", "", alone(), vigil.NotificationSent, old, recent)] = "sent since the bound"
	keep[letter(0, "webhook", "", alone(), vigil.NotificationSent, recent, old)] = "sent long ago, after a try since the bound"
	drop[letter(0, "webhook", "", alone(), vigil.NotificationDead, old, time.Time{})] = "dead long ago"
	keep[letter(0, "webhook", "", alone(), vigil.NotificationDead, recent, time.Time{})] = "dead, its last try since the bound"

	// A change's letters to A (sent long ago) and B (dead since the
	// bound): a retry of B's moved to A would send A the change again.
	c := newChange()
	keep[letter(c, "webhook", "", change, vigil.NotificationSent, old, old)] = "sent long ago, its sibling a dead letter"
	keep[letter(c, "webhook", "", change, vigil.NotificationDead, recent, time.Time{})] = "dead since the bound, the sent one's sibling"
	// ... and one by another channel is no sibling.
	c = newChange()
	drop[letter(c, "email", "", change, vigil.NotificationSent, old, old)] = "sent long ago, a dead letter by another channel"
	keep[letter(c, "webhook", "", change, vigil.NotificationDead, recent, time.Time{})] = "dead since the bound, by another channel"
	// A change's letter sent long ago, its sibling still to be sent.
	c = newChange()
	keep[letter(c, "webhook", "", change, vigil.NotificationSent, old, old)] = "sent long ago, its sibling pending"
	keep[letter(c, "webhook", "", change, vigil.NotificationPending, recent, time.Time{})] = "pending, the sent one's sibling"
	// Both letters of a change long done with go in one call, the dead
	// letter holding the sent one back no more.
	c = newChange()
	drop[letter(c, "webhook", "", change, vigil.NotificationSent, old, old)] = "sent long ago, its sibling dead long ago"
	drop[letter(c, "webhook", "", change, vigil.NotificationDead, old, time.Time{})] = "dead long ago, the sent one's sibling"

	// A digest's letters are siblings by their user and payload.
	keep[letter(0, "webhook", "", digest(sn, 1), vigil.NotificationSent, old, old)] = "a digest sent long ago, its sibling dead"
	keep[letter(0, "webhook", "", digest(sn, 1), vigil.NotificationDead, recent, time.Time{})] = "a digest's dead letter"
	drop[letter(0, "webhook", "", digest(sn, 2), vigil.NotificationSent, old, old)] = "a digest sent long ago, another digest dead"
	keep[letter(0, "webhook", "", digest(sn, 3), vigil.NotificationDead, recent, time.Time{})] = "another digest's dead letter"
	// The same payload by another channel is no sibling.
	drop[letter(0, "webhook", "", digest(sn, 4), vigil.NotificationSent, old, old)] = "a digest sent long ago, its payload dead by another channel"
	keep[letter(0, "email", "", digest(sn, 4), vigil.NotificationDead, recent, time.Time{})] = "a digest's dead letter by another channel"
	// A dead letter given up as its sentinel was removed is never
	// retried: it holds back no sibling.
	drop[letter(0, "webhook", "", digest(gone, 1), vigil.NotificationSent, old, old)] = "a removed sentinel's digest, sent long ago"
	keep[letter(0, "webhook", "", digest(gone, 1), vigil.NotificationPending, recent, time.Time{})] = "a removed sentinel's digest, given up"
	must(t, s.DeleteSentinel(ctx, gone.ID))

	before := map[int64]*vigil.Notification{}
	for id := range keep {
		n, err := s.FindNotificationByID(ctx, id)
		must(t, err)
		before[id] = n
	}
	deleted, err := s.DeleteNotificationsBefore(ctx, bound, 1000)
	must(t, err)
	if deleted != len(drop) {
		t.Errorf("deleted %d entries, want %d", deleted, len(drop))
	}
	for id, what := range drop {
		if _, err := s.FindNotificationByID(ctx, id); vigil.ErrorCode(err) != vigil.ENOTFOUND {
			t.Errorf("%s (notification %d): %v, want it deleted (ENOTFOUND)", what, id, err)
		}
	}
	for id, what := range keep {
		n, err := s.FindNotificationByID(ctx, id)
		if err != nil {
			t.Errorf("%s (notification %d): %v, want it kept", what, id, err)
			continue
		}
		if b := before[id]; n.State != b.State || !n.NextAttempt.Equal(b.NextAttempt) || !n.SentAt.Equal(b.SentAt) || n.Attempts != b.Attempts {
			t.Errorf("%s (notification %d): %+v, want it as it was, %+v", what, id, n, b)
		}
	}
	if _, total, err := s.FindNotifications(ctx, vigil.NotificationFilter{UserID: u.ID}); err != nil || total != len(keep) {
		t.Errorf("the user's notifications: %d (%v), want %d", total, err, len(keep))
	}
	// Nothing more goes until time passes.
	if again, err := s.DeleteNotificationsBefore(ctx, bound, 1000); err != nil || again != 0 {
		t.Errorf("a second deletion: %d (%v), want 0", again, err)
	}
	// Every entry still to be sent is claimed, and once the dead
	// letters that held them go, so are the sent ones.
	claimed, err := s.ClaimNotifications(ctx, recent, time.Minute, 100)
	must(t, err)
	if len(claimed) != 3 {
		t.Errorf("claimed %d entries after the deletion, want the 3 pending or failed", len(claimed))
	}
	for _, n := range claimed {
		must(t, s.MarkNotificationSent(ctx, n.ID, recent))
	}
	later := recent.Add(24 * time.Hour)
	_, err = s.DeleteNotificationsBefore(ctx, later.Add(time.Hour), 1000)
	must(t, err)
	if left, total, err := s.FindNotifications(ctx, vigil.NotificationFilter{}); err != nil || total != 0 {
		t.Errorf("left after every entry was done with long ago: %d (%v): %+v", total, err, left)
	}
}

// testOutboxRetentionBatches: a call deletes at most limit entries, the
// dead letters first, then the sent ones, each oldest first, so that
// calls until one deletes fewer than limit delete them all; a zero bound
// deletes nothing and a limit under 1 is refused; an id deleted is not
// given again.
func testOutboxRetentionBatches(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	bound := retentionBound()
	old := bound.Add(-100 * 24 * time.Hour)
	var dead, sent []int64
	for i := range 7 {
		at := old.Add(time.Duration(7-i) * time.Minute) // queued newest first
		n := &vigil.Notification{UserID: u.ID, Channel: "webhook", Target: fmt.Sprintf("https://hooks.example/%d", i),
			Payload: json.RawMessage(fmt.Sprintf(`{"n":%d}`, i)), NextAttempt: at}
		must(t, s.EnqueueNotification(ctx, n))
		if i%2 == 0 {
			must(t, s.MarkNotificationSent(ctx, n.ID, at))
			sent = append([]int64{n.ID}, sent...)
		} else {
			must(t, s.MarkNotificationDead(ctx, n.ID, "410 gone"))
			dead = append([]int64{n.ID}, dead...)
		}
	}
	pending := &vigil.Notification{UserID: u.ID, Channel: "webhook", Target: "https://hooks.example/pending",
		Payload: json.RawMessage(`{}`), NextAttempt: old}
	must(t, s.EnqueueNotification(ctx, pending))
	order := append(slices.Clone(dead), sent...) // the order they go in
	wantCode(t, func() error { _, err := s.DeleteNotificationsBefore(ctx, bound, 0); return err }(), vigil.EINVALID)
	if n, err := s.DeleteNotificationsBefore(ctx, time.Time{}, 10); err != nil || n != 0 {
		t.Fatalf("a zero bound: %d (%v), want 0", n, err)
	}
	left := func() []int64 {
		list, _, err := s.FindNotifications(ctx, vigil.NotificationFilter{})
		must(t, err)
		var ids []int64
		for _, n := range list {
			ids = append(ids, n.ID)
		}
		return ids
	}
	for i, want := range []int{3, 3, 1, 0} {
		n, err := s.DeleteNotificationsBefore(ctx, bound, 3)
		must(t, err)
		if n != want {
			t.Fatalf("call %d: deleted %d, want %d", i+1, n, want)
		}
		gone := min(3*(i+1), len(order))
		for _, id := range order[:gone] {
			if slices.Contains(left(), id) {
				t.Fatalf("call %d: notification %d is left, want the oldest %d gone (%v)", i+1, id, gone, order[:gone])
			}
		}
		for _, id := range order[gone:] {
			if !slices.Contains(left(), id) {
				t.Fatalf("call %d: notification %d deleted, want only the oldest %d gone (%v)", i+1, id, gone, order[:gone])
			}
		}
	}
	if ids := left(); !slices.Equal(ids, []int64{pending.ID}) {
		t.Fatalf("left %v, want the pending entry %d alone", ids, pending.ID)
	}
	n := &vigil.Notification{UserID: u.ID, Channel: "webhook", Target: "https://hooks.example/next", Payload: json.RawMessage(`{}`)}
	must(t, s.EnqueueNotification(ctx, n))
	if n.ID <= pending.ID || slices.Contains(order, n.ID) {
		t.Fatalf("an entry queued after the deletion has id %d, given before (last %d)", n.ID, pending.ID)
	}
}
