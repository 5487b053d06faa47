package storetest

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// Times past those every store keeps (vigil.StorableTime).
var (
	tooLate  = time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC)
	tooEarly = time.Date(1600, 1, 1, 0, 0, 0, 0, time.UTC)
	lastKept = time.Unix(0, math.MaxInt64).UTC().Truncate(time.Second)
)

// refusedTime fails t unless err is EINVALID naming field.
func refusedTime(t *testing.T, what string, err error, field string) {
	t.Helper()
	if vigil.ErrorCode(err) != vigil.EINVALID {
		t.Errorf("%s: error %v, want EINVALID", what, err)
		return
	}
	if !strings.Contains(err.Error(), field) {
		t.Errorf("%s: error %q does not name %s", what, err, field)
	}
}

// testSentinelTimesOutOfRange holds that a sentinel's times outside those
// every store keeps (before 1677, past 2262) are refused on both
// backends with an error naming the field, and nothing stored, where
// SQLite stored them clamped to the range and PostgreSQL as they were.
func testSentinelTimesOutOfRange(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	sentinel := func(name string, next, last time.Time) *vigil.Sentinel {
		return &vigil.Sentinel{OwnerID: u.ID, Name: name, Source: "x", Status: vigil.SentinelActive, NextCheck: next, LastCheck: last}
	}
	refusedTime(t, "create, next check past 2262", s.CreateSentinel(ctx, sentinel("late", tooLate, time.Time{})), "sentinel nextCheck")
	refusedTime(t, "create, last check before 1677", s.CreateSentinel(ctx, sentinel("early", t0, tooEarly)), "sentinel lastCheck")
	if _, n, err := s.FindSentinels(ctx, vigil.SentinelFilter{OwnerID: u.ID}); err != nil || n != 0 {
		t.Fatalf("after refused creates: %d sentinels, %v", n, err)
	}
	sn := sentinel("kept", t0, time.Time{})
	must(t, s.CreateSentinel(ctx, sn))
	upd := *sn
	upd.NextCheck = tooLate
	refusedTime(t, "update", s.UpdateSentinel(ctx, &upd), "sentinel nextCheck")
	refusedTime(t, "update of a list", s.UpdateSentinels(ctx, []*vigil.Sentinel{&upd}), "sentinel nextCheck")
	refusedTime(t, "checked at", s.CheckedSentinel(ctx, sn.ID, tooLate, t0), "sentinel lastCheck")
	refusedTime(t, "checked, next", s.CheckedSentinel(ctx, sn.ID, t0, tooEarly), "sentinel nextCheck")
	_, err := s.ReleaseSentinels(ctx, []vigil.SentinelLease{{SentinelID: sn.ID, Until: t0}}, tooLate)
	refusedTime(t, "release", err, "sentinel nextCheck")
	// A claim whose lease would end past the range.
	_, err = s.ClaimDueSentinels(ctx, lastKept.Add(-time.Minute), time.Hour, 10)
	refusedTime(t, "claim", err, "sentinel nextCheck")
	got, err := s.FindSentinelByID(ctx, sn.ID)
	must(t, err)
	if !got.NextCheck.Equal(t0) || !got.LastCheck.IsZero() {
		t.Errorf("after refused writes: next check %s, last check %s; want %s and none", got.NextCheck, got.LastCheck, t0)
	}
	// The last second of the range is kept as it is.
	must(t, s.CheckedSentinel(ctx, sn.ID, t0, lastKept))
	got, err = s.FindSentinelByID(ctx, sn.ID)
	must(t, err)
	if !got.NextCheck.Equal(lastKept) {
		t.Errorf("next check %s, want %s", got.NextCheck, lastKept)
	}
}

// testChangeTimesOutOfRange: as testSentinelTimesOutOfRange, for a
// change's detectedAt.
func testChangeTimesOutOfRange(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	sn := &vigil.Sentinel{OwnerID: u.ID, Name: "s", Source: "x", Status: vigil.SentinelActive, NextCheck: t0}
	must(t, s.CreateSentinel(ctx, sn))
	r, err := s.EnsureResource(ctx, "http://example.com/")
	must(t, err)
	v := appendBody(t, s, r, 0, t0, "a")
	for _, at := range []time.Time{tooLate, tooEarly} {
		c := &vigil.Change{SentinelID: sn.ID, ResourceID: r.ID, ToVersion: v.ID, DetectedAt: at, Summary: "x", Records: json.RawMessage("[]")}
		refusedTime(t, "change detected at "+at.String(), s.CreateChange(ctx, c), "change detectedAt")
	}
	if _, n, err := s.FindChanges(ctx, vigil.ChangeFilter{SentinelID: sn.ID}); err != nil || n != 0 {
		t.Fatalf("after refused changes: %d, %v", n, err)
	}
}

// testNotificationTimesOutOfRange: as testSentinelTimesOutOfRange, for a
// notification's nextAttempt and sentAt.
func testNotificationTimesOutOfRange(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	notification := func(next, sent time.Time) *vigil.Notification {
		return &vigil.Notification{UserID: u.ID, Channel: "webhook", Target: "https://hooks.example/x",
			Payload: json.RawMessage(`{}`), NextAttempt: next, SentAt: sent}
	}
	refusedTime(t, "enqueue, next attempt past 2262", s.EnqueueNotification(ctx, notification(tooLate, time.Time{})), "notification nextAttempt")
	refusedTime(t, "enqueue, sent before 1677", s.EnqueueNotification(ctx, notification(t0, tooEarly)), "notification sentAt")
	if _, n, err := s.FindNotifications(ctx, vigil.NotificationFilter{}); err != nil || n != 0 {
		t.Fatalf("after refused enqueues: %d, %v", n, err)
	}
	n := notification(t0, time.Time{})
	must(t, s.EnqueueNotification(ctx, n))
	refusedTime(t, "sent", s.MarkNotificationSent(ctx, n.ID, tooLate), "notification sentAt")
	refusedTime(t, "failed", s.MarkNotificationFailed(ctx, n.ID, "503", tooLate), "notification nextAttempt")
	refusedTime(t, "release", s.ReleaseNotification(ctx, n.ID, 0, tooEarly), "notification nextAttempt")
	_, err := s.ClaimNotifications(ctx, lastKept.Add(-time.Minute), time.Hour, 10)
	refusedTime(t, "claim", err, "notification nextAttempt")
	must(t, s.MarkNotificationDead(ctx, n.ID, "gone"))
	refusedTime(t, "retry", s.RetryNotification(ctx, n.ID, vigil.NotificationRetry{At: tooLate}), "notification nextAttempt")
	got, err := s.FindNotificationByID(ctx, n.ID)
	must(t, err)
	if got.State != vigil.NotificationDead || !got.NextAttempt.Equal(t0) || !got.SentAt.IsZero() || got.Attempts != 0 {
		t.Errorf("after refused writes: %+v; want dead, due at %s, never sent nor attempted", got, t0)
	}
}

// testRecordChecksTimesOutOfRange: a check record whose times, or those of
// its changes and notifications, are outside those every store keeps is
// refused (EINVALID naming the field), nothing of it written.
func testRecordChecksTimesOutOfRange(t *testing.T, s interface {
	vigil.Store
	vigil.CheckStore
}) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	r, err := s.EnsureResource(ctx, "http://example.com/")
	must(t, err)
	sn := &vigil.Sentinel{OwnerID: u.ID, Name: "s", Source: "x", Status: vigil.SentinelActive, NextCheck: t0}
	must(t, s.CreateSentinel(ctx, sn))
	record := func() *vigil.CheckRecord {
		return &vigil.CheckRecord{SentinelID: sn.ID, CheckedAt: t0, NextCheck: t0.Add(time.Hour), State: json.RawMessage(`{"n":1}`),
			Changes:       []*vigil.Change{{SentinelID: sn.ID, ResourceID: r.ID, FromVersion: 1, ToVersion: 2, DetectedAt: t0, Summary: "c"}},
			Notifications: []*vigil.Notification{{UserID: u.ID, Channel: "email", Target: "ada@example.com", Payload: json.RawMessage(`{}`)}},
			ChangeIndex:   []int{0}}
	}
	for _, tc := range []struct {
		field string
		bad   func(*vigil.CheckRecord)
	}{
		{"check record nextCheck", func(r *vigil.CheckRecord) { r.NextCheck = tooLate }},
		{"check record checkedAt", func(r *vigil.CheckRecord) { r.CheckedAt = tooEarly }},
		{"change detectedAt", func(r *vigil.CheckRecord) { r.Changes[0].DetectedAt = tooLate }},
		{"notification nextAttempt", func(r *vigil.CheckRecord) { r.Notifications[0].NextAttempt = tooLate }},
	} {
		rec := record()
		tc.bad(rec)
		refusedTime(t, tc.field, s.RecordChecks(ctx, []*vigil.CheckRecord{rec}), tc.field)
	}
	got, err := s.FindSentinelByID(ctx, sn.ID)
	must(t, err)
	if !got.NextCheck.Equal(t0) || !got.LastCheck.IsZero() {
		t.Errorf("after refused records: next check %s, last check %s; want %s and none", got.NextCheck, got.LastCheck, t0)
	}
	if _, n, err := s.FindChanges(ctx, vigil.ChangeFilter{SentinelID: sn.ID}); err != nil || n != 0 {
		t.Errorf("after refused records: %d changes, %v", n, err)
	}
}

// testUserTimesOutOfRange: as testSentinelTimesOutOfRange, for a user's
// update time (TouchUser) and a token's expiry and last use.
func testUserTimesOutOfRange(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	refusedTime(t, "touch", s.TouchUser(ctx, u.ID, tooLate), "user updatedAt")
	hash := vigil.HashToken("secret")
	refusedTime(t, "token expiring past 2262", s.CreateToken(ctx, &vigil.Token{UserID: u.ID, Name: "far", Hash: hash, ExpiresAt: tooLate}), "token expiresAt")
	if ts, err := s.FindTokens(ctx, u.ID); err != nil || len(ts) != 0 {
		t.Fatalf("after a refused token: %v, %v", ts, err)
	}
	tok := &vigil.Token{UserID: u.ID, Name: "t", Hash: hash}
	must(t, s.CreateToken(ctx, tok))
	_, err := s.FindTokenByHash(ctx, hash, tooLate)
	refusedTime(t, "token used past 2262", err, "token lastUsedAt")
	got, err := s.FindUserByID(ctx, u.ID)
	must(t, err)
	if !got.UpdatedAt.Equal(u.UpdatedAt) {
		t.Errorf("after a refused touch: updated at %s, want %s", got.UpdatedAt, u.UpdatedAt)
	}
	ts, err := s.FindTokens(ctx, u.ID)
	must(t, err)
	if len(ts) != 1 || !ts[0].LastUsedAt.IsZero() {
		t.Errorf("after a refused use: tokens %+v, want one never used", ts)
	}
}
