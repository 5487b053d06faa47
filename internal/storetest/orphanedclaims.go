package storetest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// testOrphanedClaims: a store one process at a time works from
// (vigil.OrphanedClaimStore: SQLite) gives back, at a process's start,
// the claims a previous process left held, sentinels' and outbox
// entries', due at once and not when their lease ends; the claims that
// ended otherwise (a check recorded, a delivery marked, a release, an
// edit), and what was never claimed, are left alone. A store processes
// share (PostgreSQL) does not implement it: a claim there may be another
// daemon's.
func testOrphanedClaims(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	oc, ok := s.(vigil.OrphanedClaimStore)
	if !ok {
		// A claim there may be another daemon's: it holds until its
		// lease ends, whoever asks.
		sn := &vigil.Sentinel{OwnerID: u.ID, Name: "shared", Source: "x", Status: vigil.SentinelActive, NextCheck: t0}
		must(t, s.CreateSentinel(ctx, sn))
		for _, step := range []struct {
			at   time.Duration
			want int
		}{{0, 1}, {30 * time.Minute, 0}, {2 * time.Hour, 1}} {
			got, err := s.ClaimDueSentinels(ctx, t0.Add(step.at), time.Hour, 10)
			must(t, err)
			if len(got) != step.want {
				t.Fatalf("a store processes share: a claim at +%v took %d sentinels, want %d (a claim holds until its lease ends)", step.at, len(got), step.want)
			}
		}
		return
	}
	names := []string{"left", "checked", "edited", "released", "never claimed"}
	sens := map[string]*vigil.Sentinel{}
	for _, name := range names[:4] {
		sn := &vigil.Sentinel{OwnerID: u.ID, Name: name, Source: "x", Status: vigil.SentinelActive, NextCheck: t0}
		must(t, s.CreateSentinel(ctx, sn))
		sens[name] = sn
	}
	claimed, err := s.ClaimDueSentinels(ctx, t0, time.Hour, 10)
	must(t, err)
	if len(claimed) != 4 {
		t.Fatalf("claimed %d sentinels, want 4", len(claimed))
	}
	lease := claimed[0].NextCheck
	later := t0.Add(3 * time.Hour)
	sn := &vigil.Sentinel{OwnerID: u.ID, Name: "never claimed", Source: "x", Status: vigil.SentinelActive, NextCheck: later}
	must(t, s.CreateSentinel(ctx, sn))
	sens[sn.Name] = sn
	must(t, s.CheckedSentinel(ctx, sens["checked"].ID, t0, later))
	cur, err := s.FindSentinelByID(ctx, sens["edited"].ID)
	must(t, err)
	cur.NextCheck = later
	must(t, s.UpdateSentinel(ctx, cur))
	released := t0.Add(time.Minute)
	_, err = s.ReleaseSentinels(ctx, []vigil.SentinelLease{{SentinelID: sens["released"].ID, Until: lease}}, released)
	must(t, err)

	notes := map[string]*vigil.Notification{}
	for _, name := range []string{"left", "sent", "failed", "released"} {
		n := &vigil.Notification{Channel: "webhook", Target: "https://hooks.example/" + name, Payload: json.RawMessage(`{}`), NextAttempt: t0}
		must(t, s.EnqueueNotification(ctx, n))
		notes[name] = n
	}
	got, err := s.ClaimNotifications(ctx, t0, time.Hour, 10)
	must(t, err)
	if len(got) != 4 {
		t.Fatalf("claimed %d entries, want 4", len(got))
	}
	must(t, s.MarkNotificationSent(ctx, notes["sent"].ID, t0))
	must(t, s.MarkNotificationFailed(ctx, notes["failed"].ID, "refused", later))
	must(t, s.ReleaseNotification(ctx, notes["released"].ID, 1, released))

	start := t0.Add(2 * time.Minute) // within the lease: the previous process was killed
	ns, nn, err := oc.ReleaseOrphanedClaims(ctx, start)
	must(t, err)
	if ns != 1 || nn != 1 {
		t.Errorf("ReleaseOrphanedClaims gave back %d sentinels and %d entries, want 1 and 1", ns, nn)
	}
	for name, want := range map[string]time.Time{"left": start, "checked": later, "edited": later, "released": released, "never claimed": later} {
		got, err := s.FindSentinelByID(ctx, sens[name].ID)
		must(t, err)
		if !got.NextCheck.Equal(want) {
			t.Errorf("sentinel %q: next check %v, want %v", name, got.NextCheck, want)
		}
	}
	type entry struct {
		state    vigil.NotificationState
		next     time.Time
		attempts int
	}
	for name, want := range map[string]entry{
		"left":     {vigil.NotificationPending, start, 1}, // its attempt counted, as when its lease runs out
		"failed":   {vigil.NotificationFailed, later, 1},
		"released": {vigil.NotificationPending, released, 0},
	} {
		got, err := s.FindNotificationByID(ctx, notes[name].ID)
		must(t, err)
		if got.State != want.state || !got.NextAttempt.Equal(want.next) || got.Attempts != want.attempts {
			t.Errorf("entry %q: %s, next attempt %v, %d attempts; want %s, %v, %d", name, got.State, got.NextAttempt, got.Attempts,
				want.state, want.next, want.attempts)
		}
	}
	again, err := s.ClaimNotifications(ctx, start, time.Hour, 10)
	must(t, err)
	if len(again) != 2 || again[0].ID != notes["left"].ID {
		t.Errorf("claim at the start: %d entries; want the one left first, and the one released", len(again))
	}
	// Every claim held is given back, whoever took it: the process
	// asks before it claims anything itself.
	if ns, nn, err := oc.ReleaseOrphanedClaims(ctx, start.Add(time.Minute)); err != nil || ns != 0 || nn != 2 {
		t.Errorf("ReleaseOrphanedClaims again: %d, %d, %v; want 0 sentinels and the 2 entries claimed since", ns, nn, err)
	}
}
