package storetest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// testTimePrecision holds that every backend keeps times to the
// microsecond, the rest truncated (toward the past, before 1970 too), so
// that a time stored reads back the same on both, where SQLite kept
// nanoseconds and PostgreSQL microseconds.
func testTimePrecision(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	given := []time.Time{
		t0.Add(999 * time.Nanosecond),
		t0.Add(time.Microsecond + time.Nanosecond),
		time.Date(1960, 5, 1, 0, 0, 0, 1500, time.UTC),
		time.Unix(0, 500).UTC(), // just after the epoch: the epoch
	}
	check := func(what string, got, gave time.Time) {
		t.Helper()
		want := gave.Truncate(time.Microsecond)
		if !got.Equal(want) {
			t.Errorf("%s: %s given, %s read back; want %s", what, gave.Format(time.RFC3339Nano), got.Format(time.RFC3339Nano), want.Format(time.RFC3339Nano))
		}
	}
	r, err := s.EnsureResource(ctx, "http://example.com/")
	must(t, err)
	u := newUser(t, s, "ada@example.com")
	// A touch at the time already stored moves it by the least step kept.
	later := u.UpdatedAt.Add(time.Hour).Truncate(time.Second)
	must(t, s.TouchUser(ctx, u.ID, later))
	must(t, s.TouchUser(ctx, u.ID, later))
	gotU, err := s.FindUserByID(ctx, u.ID)
	must(t, err)
	if want := later.Add(time.Microsecond); !gotU.UpdatedAt.Equal(want) {
		t.Errorf("touched twice at %s: updated at %s, want %s", later, gotU.UpdatedAt.Format(time.RFC3339Nano), want.Format(time.RFC3339Nano))
	}
	var prev int64
	for i, at := range given {
		v := appendBody(t, s, r, prev, at, string(rune('a'+i)))
		prev = v.ID
		got, err := s.FindVersionByID(ctx, v.ID)
		must(t, err)
		check("version fetchedAt", got.FetchedAt, at)
		check("version lastModified", got.LastModified, at.Add(-time.Hour))
		// Found at the time it was given, which is at or after the one kept.
		found, err := s.VersionAt(ctx, r.ID, at)
		must(t, err)
		if found.ID != v.ID {
			t.Errorf("version at %s: %d, want %d", at.Format(time.RFC3339Nano), found.ID, v.ID)
		}

		sn := &vigil.Sentinel{OwnerID: u.ID, Name: "s" + string(rune('a'+i)), Source: "x", Status: vigil.SentinelActive, NextCheck: at}
		must(t, s.CreateSentinel(ctx, sn))
		gotS, err := s.FindSentinelByID(ctx, sn.ID)
		must(t, err)
		check("sentinel nextCheck", gotS.NextCheck, at)
		if !gotS.CreatedAt.Equal(sn.CreatedAt) || !gotS.UpdatedAt.Equal(sn.UpdatedAt) {
			t.Errorf("sentinel created %s, updated %s, read back %s, %s", sn.CreatedAt.Format(time.RFC3339Nano), sn.UpdatedAt.Format(time.RFC3339Nano),
				gotS.CreatedAt.Format(time.RFC3339Nano), gotS.UpdatedAt.Format(time.RFC3339Nano))
		}
		must(t, s.CheckedSentinel(ctx, sn.ID, at, at.Add(time.Hour)))
		gotS, err = s.FindSentinelByID(ctx, sn.ID)
		must(t, err)
		check("sentinel lastCheck", gotS.LastCheck, at)
		check("sentinel nextCheck after a check", gotS.NextCheck, at.Add(time.Hour))

		c := &vigil.Change{SentinelID: sn.ID, ResourceID: r.ID, ToVersion: v.ID, DetectedAt: at, Summary: "x", Records: json.RawMessage("[]")}
		must(t, s.CreateChange(ctx, c))
		gotC, err := s.FindChangeByID(ctx, c.ID)
		must(t, err)
		check("change detectedAt", gotC.DetectedAt, at)

		n := &vigil.Notification{UserID: u.ID, Channel: "webhook", Target: "https://hooks.example/x", Payload: json.RawMessage(`{}`), NextAttempt: at}
		must(t, s.EnqueueNotification(ctx, n))
		must(t, s.MarkNotificationSent(ctx, n.ID, at.Add(time.Minute)))
		gotN, err := s.FindNotificationByID(ctx, n.ID)
		must(t, err)
		check("notification nextAttempt", gotN.NextAttempt, at)
		check("notification sentAt", gotN.SentAt, at.Add(time.Minute))
		if !gotN.CreatedAt.Equal(n.CreatedAt) {
			t.Errorf("notification created %s, read back %s", n.CreatedAt.Format(time.RFC3339Nano), gotN.CreatedAt.Format(time.RFC3339Nano))
		}
	}
}
