package storetest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// testSentinelStatus holds that SetSentinelStatus, by which the API and
// the dashboard pause, resume and ask for a check now, sets the status
// and the next check alone: the sentinel's definition, its feed
// generation and its UpdatedAt (the last edit, which a site's reference
// that can never be compared again waits for) stay. An edit
// (UpdateSentinel) still moves UpdatedAt.
func testSentinelStatus(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	sn := &vigil.Sentinel{OwnerID: u.ID, Name: "docs", Source: "Create Sentinel docs Using site http://example.com/docs/",
		Spec: json.RawMessage(`{"url":"http://example.com/docs/"}`), Status: vigil.SentinelActive, NextCheck: t0, TimeZone: "Asia/Tokyo"}
	must(t, s.CreateSentinel(ctx, sn))
	_, err := s.RotateSentinelFeed(ctx, sn.ID)
	must(t, err)
	created, err := s.FindSentinelByID(ctx, sn.ID)
	must(t, err)

	for _, tc := range []struct {
		name   string
		status vigil.SentinelStatus
		next   time.Time
	}{
		{"pause", vigil.SentinelPaused, t0},
		{"resume", vigil.SentinelActive, t0.Add(time.Hour)},
		{"check now", vigil.SentinelActive, t0.Add(2 * time.Hour)},
		{"pause, checked later", vigil.SentinelPaused, t0.Add(24 * time.Hour)},
	} {
		time.Sleep(2 * time.Millisecond) // the store's clock moves: an edit now would show
		must(t, s.SetSentinelStatus(ctx, sn.ID, tc.status, tc.next))
		got, err := s.FindSentinelByID(ctx, sn.ID)
		must(t, err)
		if got.Status != tc.status || !got.NextCheck.Equal(tc.next) {
			t.Errorf("%s: status %s, next check %v; want %s, %v", tc.name, got.Status, got.NextCheck, tc.status, tc.next)
		}
		if !got.UpdatedAt.Equal(created.UpdatedAt) {
			t.Errorf("%s: updatedAt %v, want %v as created: a change of status is no edit", tc.name, got.UpdatedAt, created.UpdatedAt)
		}
		if got.Name != created.Name || got.Source != created.Source || string(got.Spec) != string(created.Spec) ||
			got.TimeZone != created.TimeZone || got.FeedGeneration != created.FeedGeneration || !got.CreatedAt.Equal(created.CreatedAt) {
			t.Errorf("%s: read back %+v; want all but status and next check as %+v", tc.name, got, created)
		}
	}

	for _, tc := range []struct {
		name   string
		id     int64
		status vigil.SentinelStatus
		next   time.Time
		code   string
	}{
		{"no such sentinel", sn.ID + 1000, vigil.SentinelActive, t0, vigil.ENOTFOUND},
		{"unknown status", sn.ID, "sleeping", t0, vigil.EINVALID},
		{"empty status", sn.ID, "", t0, vigil.EINVALID},
		{"next check past 2262", sn.ID, vigil.SentinelActive, tooLate, vigil.EINVALID},
	} {
		if err := s.SetSentinelStatus(ctx, tc.id, tc.status, tc.next); vigil.ErrorCode(err) != tc.code {
			t.Errorf("%s: error %v, want code %s", tc.name, err, tc.code)
		}
	}
	got, err := s.FindSentinelByID(ctx, sn.ID)
	must(t, err)
	if got.Status != vigil.SentinelPaused || !got.NextCheck.Equal(t0.Add(24*time.Hour)) {
		t.Errorf("after refused changes: status %s, next check %v; want paused, %v", got.Status, got.NextCheck, t0.Add(24*time.Hour))
	}

	// An edit, saving the sentinel unchanged, is one.
	time.Sleep(2 * time.Millisecond)
	must(t, s.UpdateSentinel(ctx, got))
	edited, err := s.FindSentinelByID(ctx, sn.ID)
	must(t, err)
	if !edited.UpdatedAt.After(created.UpdatedAt) {
		t.Errorf("after an edit: updatedAt %v, want after %v", edited.UpdatedAt, created.UpdatedAt)
	}
}
