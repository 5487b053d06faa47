package storetest

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// deadLetter enqueues a letter of change changeID (0: none) to target
// and gives it up with errMsg, as the delivery does after its last
// attempt.
func deadLetter(t *testing.T, s vigil.Store, u *vigil.User, changeID int64, target, errMsg string) int64 {
	t.Helper()
	ctx := context.Background()
	n := &vigil.Notification{UserID: u.ID, ChangeID: changeID, Channel: "webhook", Target: target,
		Payload: json.RawMessage(`{}`), NextAttempt: t0}
	must(t, s.EnqueueNotification(ctx, n))
	must(t, s.MarkNotificationDead(ctx, n.ID, errMsg))
	return n.ID
}

// testOutboxRetryRemovedSentinel: a retry names the sentinel of its
// letter, and the store retries the letter only if the sentinel still
// exists, in the transaction of the retry. A sentinel removed after the
// caller looked it up (the dead letter kept its own error, as a removal
// gives up only the letters not yet sent) left the letter pending, to be
// delivered for a sentinel its owner had removed. A sentinel removed
// after the retry gives the retried letter up, as its other letters.
func testOutboxRetryRemovedSentinel(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	r, err := s.EnsureResource(ctx, "http://example.com/")
	must(t, err)
	letter := func(name string) (*vigil.Sentinel, int64) {
		sn := &vigil.Sentinel{OwnerID: u.ID, Name: name, Source: "x", Status: vigil.SentinelActive}
		must(t, s.CreateSentinel(ctx, sn))
		c := &vigil.Change{SentinelID: sn.ID, ResourceID: r.ID, ToVersion: 1, DetectedAt: t0}
		must(t, s.CreateChange(ctx, c))
		return sn, deadLetter(t, s, u, c.ID, "https://hooks.example/"+name, "410 gone")
	}
	kept, keptID := letter("kept")
	gone, goneID := letter("gone")
	must(t, s.DeleteSentinel(ctx, gone.ID))
	at := t0.Add(time.Hour)

	for _, sentinelID := range []int64{gone.ID, 9999} {
		err := s.RetryNotification(ctx, goneID, vigil.NotificationRetry{At: at, SentinelID: sentinelID})
		wantCode(t, err, vigil.ECONFLICT)
		if !strings.Contains(err.Error(), vigil.SentinelRemoved) {
			t.Errorf("retry of a letter of sentinel %d, which does not exist: %v; want it to say %q", sentinelID, err, vigil.SentinelRemoved)
		}
		if n, err := s.FindNotificationByID(ctx, goneID); err != nil || n.State != vigil.NotificationDead || n.LastError != "410 gone" {
			t.Errorf("after the refused retry: %+v %v; want it dead with its own error", n, err)
		}
	}

	// An absent letter is not found, whether its sentinel exists or not.
	for _, sentinelID := range []int64{kept.ID, gone.ID} {
		wantCode(t, s.RetryNotification(ctx, 9999, vigil.NotificationRetry{At: at, SentinelID: sentinelID}), vigil.ENOTFOUND)
	}

	must(t, s.RetryNotification(ctx, keptID, vigil.NotificationRetry{At: at, SentinelID: kept.ID}))
	if n, err := s.FindNotificationByID(ctx, keptID); err != nil || n.State != vigil.NotificationPending {
		t.Fatalf("retry of a letter of a sentinel that exists: %+v %v; want it pending", n, err)
	}
	must(t, s.DeleteSentinel(ctx, kept.ID))
	if n, err := s.FindNotificationByID(ctx, keptID); err != nil || n.State != vigil.NotificationDead || n.LastError != vigil.SentinelRemoved {
		t.Errorf("a retried letter whose sentinel was removed after: %+v %v; want it given up (%q)", n, err, vigil.SentinelRemoved)
	}

	// A letter of no sentinel (SentinelID 0) is retried as before.
	none := deadLetter(t, s, u, 0, "https://hooks.example/none", "410 gone")
	must(t, s.RetryNotification(ctx, none, vigil.NotificationRetry{At: at}))
}

// testOutboxRetryTarget: a retry may name the letter's target afresh
// (the one its sentinel notifies now, its owner having fixed the one the
// letter was written for); without one, the letter keeps its own. A
// refused retry changes neither.
func testOutboxRetryTarget(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	at := t0.Add(time.Hour)
	for _, tc := range []struct {
		name, target, want string
	}{
		{"new target", "https://hooks.example/fixed", "https://hooks.example/fixed"},
		{"its own", "", "https://hooks.example/wrong"},
	} {
		id := deadLetter(t, s, u, 0, "https://hooks.example/wrong", "404 Not Found")
		must(t, s.RetryNotification(ctx, id, vigil.NotificationRetry{At: at, Target: tc.target}))
		if n, err := s.FindNotificationByID(ctx, id); err != nil || n.State != vigil.NotificationPending || n.Target != tc.want {
			t.Errorf("%s: %+v %v; want it pending, to %s", tc.name, n, err, tc.want)
		}
		wantCode(t, s.RetryNotification(ctx, id, vigil.NotificationRetry{At: at, Target: "https://hooks.example/other"}), vigil.ECONFLICT)
		if n, err := s.FindNotificationByID(ctx, id); err != nil || n.Target != tc.want {
			t.Errorf("%s: the refused retry of a pending letter: %+v %v; want its target kept", tc.name, n, err)
		}
	}
	id := deadLetter(t, s, u, 0, "https://hooks.example/wrong", "404 Not Found")
	wantCode(t, s.RetryNotification(ctx, id, vigil.NotificationRetry{At: at, Target: "https://hooks.example/fixed", SentinelID: 9999}), vigil.ECONFLICT)
	if n, err := s.FindNotificationByID(ctx, id); err != nil || n.State != vigil.NotificationDead || n.Target != "https://hooks.example/wrong" {
		t.Errorf("the refused retry of a letter of a removed sentinel: %+v %v; want it dead, to its own target", n, err)
	}
}

// testSentinelRemovalGivesUpItsDigests: the removal of a sentinel gives
// up its letters not yet sent that report no one change (a digest, a
// notice that its page fails), known by the sentinel their message
// names, as it gives up those of its changes; a retried one with them.
// Those letters stayed pending, to be sent and tried again for hours for
// a sentinel its owner had removed, and a dead one retried just before
// the removal was sent after it. Another sentinel's stay as they were.
func testSentinelRemovalGivesUpItsDigests(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	var sens []*vigil.Sentinel
	for _, name := range []string{"gone", "other"} {
		sn := &vigil.Sentinel{OwnerID: u.ID, Name: name, Source: "x", Status: vigil.SentinelActive}
		must(t, s.CreateSentinel(ctx, sn))
		sens = append(sens, sn)
	}
	gone, other := sens[0], sens[1]
	letter := func(sn *vigil.Sentinel, body string) int64 {
		n := &vigil.Notification{UserID: u.ID, Channel: "webhook", Target: "https://hooks.example/" + sn.Name,
			Payload: json.RawMessage(`{"sentinelId":` + strconv.FormatInt(sn.ID, 10) + `,"sentinel":"` + sn.Name + `",` + body + `}`), NextAttempt: t0}
		must(t, s.EnqueueNotification(ctx, n))
		return n.ID
	}
	const digest, failure = `"subject":"s","text":"t","digest":true,"changes":[]`, `"subject":"s","text":"t","changes":[],"failure":{}`
	pendingDigest := letter(gone, digest)
	failedNotice := letter(gone, failure)
	must(t, s.MarkNotificationFailed(ctx, failedNotice, "503", t0.Add(time.Hour)))
	retried := letter(gone, digest)
	must(t, s.MarkNotificationDead(ctx, retried, "410 gone"))
	must(t, s.RetryNotification(ctx, retried, vigil.NotificationRetry{At: t0, SentinelID: gone.ID}))
	othersDigest := letter(other, digest)
	unreadable := &vigil.Notification{UserID: u.ID, Channel: "webhook", Target: "https://hooks.example/x", Payload: json.RawMessage(`[1]`)}
	must(t, s.EnqueueNotification(ctx, unreadable))

	must(t, s.DeleteSentinel(ctx, gone.ID))
	for name, id := range map[string]int64{"pending digest": pendingDigest, "failing notice": failedNotice, "retried digest": retried} {
		if n, err := s.FindNotificationByID(ctx, id); err != nil || n.State != vigil.NotificationDead || n.LastError != vigil.SentinelRemoved {
			t.Errorf("the %s of the removed sentinel: %+v %v; want it given up (%q)", name, n, err, vigil.SentinelRemoved)
		}
	}
	for name, id := range map[string]int64{"another sentinel's digest": othersDigest, "a letter naming no sentinel": unreadable.ID} {
		if n, err := s.FindNotificationByID(ctx, id); err != nil || n.State != vigil.NotificationPending {
			t.Errorf("%s: %+v %v; want it pending still", name, n, err)
		}
	}
}
