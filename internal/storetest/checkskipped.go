package storetest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// testRecordChecksSkipped: a check record of a sentinel paused or deleted
// while it was checked writes nothing (no state, change, notification,
// site snapshot, next check) and is marked Skipped, as the monitor reads
// it to log only what was stored; one of an active sentinel of the same
// batch is written and not marked. A paused sentinel's check is stored
// neither: what it found is found again once it is resumed.
func testRecordChecksSkipped(t *testing.T, s interface {
	vigil.Store
	vigil.CheckStore
}) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	r, err := s.EnsureResource(ctx, "http://example.com/")
	must(t, err)
	var sens []*vigil.Sentinel
	for _, name := range []string{"active", "paused", "gone"} {
		sn := &vigil.Sentinel{OwnerID: u.ID, Name: name, Source: "x", Status: vigil.SentinelActive, NextCheck: t0}
		must(t, s.CreateSentinel(ctx, sn))
		sens = append(sens, sn)
	}
	sens[1].Status = vigil.SentinelPaused
	must(t, s.UpdateSentinel(ctx, sens[1]))
	must(t, s.DeleteSentinel(ctx, sens[2].ID))
	recs := make([]*vigil.CheckRecord, len(sens))
	for i, sn := range sens {
		recs[i] = &vigil.CheckRecord{SentinelID: sn.ID, CheckedAt: t0, NextCheck: t0.Add(time.Hour), State: json.RawMessage(`{"n":1}`),
			Changes:       []*vigil.Change{{SentinelID: sn.ID, ResourceID: r.ID, FromVersion: 1, ToVersion: 2, DetectedAt: t0, Summary: "c"}},
			Notifications: []*vigil.Notification{{UserID: u.ID, Channel: "email", Target: "ada@example.com", Payload: json.RawMessage(`{}`)}},
			ChangeIndex:   []int{0}, Site: []byte("site")}
	}
	must(t, s.RecordChecks(ctx, recs))
	if recs[0].Skipped || !recs[1].Skipped || !recs[2].Skipped {
		t.Errorf("Skipped: active %v, paused %v, deleted %v; want false, true, true", recs[0].Skipped, recs[1].Skipped, recs[2].Skipped)
	}
	states, err := s.SentinelStates(ctx, []int64{sens[0].ID, sens[1].ID})
	must(t, err)
	if _, ok := states[sens[1].ID]; ok || states[sens[0].ID] == nil {
		t.Errorf("states %v: want the active sentinel's only", states)
	}
	for i, want := range []int{1, 0} {
		cs, _, err := s.FindChanges(ctx, vigil.ChangeFilter{SentinelID: sens[i].ID})
		must(t, err)
		if len(cs) != want {
			t.Errorf("sentinel %s: %d changes, want %d", sens[i].Name, len(cs), want)
		}
	}
	ns, _, err := s.FindNotifications(ctx, vigil.NotificationFilter{UserID: u.ID})
	must(t, err)
	if len(ns) != 1 || ns[0].ChangeID != recs[0].Changes[0].ID {
		t.Errorf("%d notifications, want the active sentinel's one", len(ns))
	}
	_, _, err = s.SiteSnapshot(ctx, sens[1].ID)
	wantCode(t, err, vigil.ENOTFOUND)
	paused, err := s.FindSentinelByID(ctx, sens[1].ID)
	must(t, err)
	if !paused.NextCheck.Equal(t0) {
		t.Errorf("the paused sentinel's next check is %v, want %v as before its check", paused.NextCheck, t0)
	}

	// Recorded again once active, the record is written.
	paused.Status = vigil.SentinelActive
	must(t, s.UpdateSentinel(ctx, paused))
	recs[1].Changes[0].ID, recs[1].Notifications[0].ID = 0, 0
	must(t, s.RecordChecks(ctx, recs[1:2]))
	if recs[1].Skipped {
		t.Errorf("the resumed sentinel's record is Skipped")
	}
}
