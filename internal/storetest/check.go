package storetest

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// CheckOpener returns a fresh, empty store that also keeps the monitor's
// check records.
type CheckOpener func(t *testing.T) interface {
	vigil.Store
	vigil.CheckStore
}

// RunCheckStore runs the conformance tests of vigil.CheckStore.
func RunCheckStore(t *testing.T, open CheckOpener) {
	t.Run("RecordChecks", func(t *testing.T) { testRecordChecks(t, open(t)) })
	t.Run("RecordChecksSkipped", func(t *testing.T) { testRecordChecksSkipped(t, open(t)) })
	t.Run("RecordChecksPausedLease", func(t *testing.T) { testRecordChecksPausedLease(t, open(t)) })
	t.Run("RecordChecksTimesOutOfRange", func(t *testing.T) { testRecordChecksTimesOutOfRange(t, open(t)) })
	t.Run("SiteSnapshot", func(t *testing.T) { testSiteSnapshot(t, open(t)) })
	t.Run("Importance", func(t *testing.T) { testImportance(t, open(t)) })
	t.Run("ClaimPriority", func(t *testing.T) { testClaimPriority(t, open(t)) })
	t.Run("NotificationIDsNeverReused", func(t *testing.T) { testCheckNotificationIDsNeverReused(t, open(t)) })
}

// testSiteSnapshot: a check record's site snapshot is kept per sentinel,
// replaced by the next one that has one, kept by one that has none, not
// written for a sentinel deleted meanwhile, deleted by a record that drops
// it and with its sentinel.
func testSiteSnapshot(t *testing.T, s interface {
	vigil.Store
	vigil.CheckStore
}) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	var sens []*vigil.Sentinel
	for _, name := range []string{"site", "other", "gone"} {
		sn := &vigil.Sentinel{OwnerID: u.ID, Name: name, Source: "x", Status: vigil.SentinelActive, NextCheck: t0}
		must(t, s.CreateSentinel(ctx, sn))
		sens = append(sens, sn)
	}
	must(t, s.DeleteSentinel(ctx, sens[2].ID))
	_, _, err := s.SiteSnapshot(ctx, sens[0].ID)
	wantCode(t, err, vigil.ENOTFOUND)

	first := []byte{0x1f, 0x8b, 0, 1, 2, 0xff} // any bytes: compressed, say
	must(t, s.RecordChecks(ctx, []*vigil.CheckRecord{
		{SentinelID: sens[0].ID, CheckedAt: t0, NextCheck: t0.Add(time.Hour), Site: first},
		{SentinelID: sens[1].ID, CheckedAt: t0, NextCheck: t0.Add(time.Hour)},
		{SentinelID: sens[2].ID, CheckedAt: t0, NextCheck: t0.Add(time.Hour), Site: []byte("deleted")},
	}))
	got, at, err := s.SiteSnapshot(ctx, sens[0].ID)
	must(t, err)
	if string(got) != string(first) || !at.Equal(t0) {
		t.Errorf("site snapshot %x at %v, want %x at %v", got, at, first, t0)
	}
	for _, id := range []int64{sens[1].ID, sens[2].ID} {
		_, _, err := s.SiteSnapshot(ctx, id)
		wantCode(t, err, vigil.ENOTFOUND)
	}

	// A check without a snapshot keeps the one stored; one with replaces it.
	t1 := t0.Add(time.Hour)
	must(t, s.RecordChecks(ctx, []*vigil.CheckRecord{{SentinelID: sens[0].ID, CheckedAt: t1, NextCheck: t1.Add(time.Hour)}}))
	if got, at, err = s.SiteSnapshot(ctx, sens[0].ID); err != nil || string(got) != string(first) || !at.Equal(t0) {
		t.Errorf("after a check without a snapshot: %x at %v, %v; want %x at %v", got, at, err, first, t0)
	}
	second := []byte(strings.Repeat("page ", 100000)) // larger than a page of the database
	must(t, s.RecordChecks(ctx, []*vigil.CheckRecord{{SentinelID: sens[0].ID, CheckedAt: t1, NextCheck: t1.Add(time.Hour), Site: second}}))
	if got, at, err = s.SiteSnapshot(ctx, sens[0].ID); err != nil || string(got) != string(second) || !at.Equal(t1) {
		t.Errorf("after a check with a snapshot: %d bytes at %v, %v; want %d at %v", len(got), at, err, len(second), t1)
	}

	// An invalid record writes nothing, its snapshot included.
	err = s.RecordChecks(ctx, []*vigil.CheckRecord{{SentinelID: sens[0].ID, CheckedAt: t1, Site: []byte("lost"),
		Changes: []*vigil.Change{{SentinelID: sens[0].ID}}}})
	wantCode(t, err, vigil.EINVALID)
	if got, _, err = s.SiteSnapshot(ctx, sens[0].ID); err != nil || string(got) != string(second) {
		t.Errorf("after an invalid record: %d bytes, %v; want the %d before", len(got), err, len(second))
	}

	// A record with DropSite deletes it, unless it has a snapshot, which
	// replaces it; one for a sentinel without a snapshot is no error.
	t2 := t1.Add(time.Hour)
	must(t, s.RecordChecks(ctx, []*vigil.CheckRecord{{SentinelID: sens[0].ID, CheckedAt: t2, NextCheck: t2.Add(time.Hour), Site: first, DropSite: true}}))
	if got, at, err = s.SiteSnapshot(ctx, sens[0].ID); err != nil || string(got) != string(first) || !at.Equal(t2) {
		t.Errorf("after a record with a snapshot and DropSite: %x at %v, %v; want %x at %v", got, at, err, first, t2)
	}
	must(t, s.RecordChecks(ctx, []*vigil.CheckRecord{
		{SentinelID: sens[0].ID, CheckedAt: t2, NextCheck: t2.Add(time.Hour), DropSite: true},
		{SentinelID: sens[1].ID, CheckedAt: t2, NextCheck: t2.Add(time.Hour), DropSite: true},
	}))
	_, _, err = s.SiteSnapshot(ctx, sens[0].ID)
	wantCode(t, err, vigil.ENOTFOUND)
	must(t, s.RecordChecks(ctx, []*vigil.CheckRecord{{SentinelID: sens[0].ID, CheckedAt: t2, NextCheck: t2.Add(time.Hour), Site: second}}))

	must(t, s.DeleteSentinel(ctx, sens[0].ID))
	_, _, err = s.SiteSnapshot(ctx, sens[0].ID)
	wantCode(t, err, vigil.ENOTFOUND)
}

func testRecordChecks(t *testing.T, s interface {
	vigil.Store
	vigil.CheckStore
}) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	var sens []*vigil.Sentinel
	for _, name := range []string{"s1", "s2", "gone"} {
		sn := &vigil.Sentinel{OwnerID: u.ID, Name: name, Source: "x", Status: vigil.SentinelActive, NextCheck: t0.Add(24 * time.Hour)}
		must(t, s.CreateSentinel(ctx, sn))
		sens = append(sens, sn)
	}
	must(t, s.DeleteSentinel(ctx, sens[2].ID))
	r, err := s.EnsureResource(ctx, "http://example.com/")
	must(t, err)

	states, err := s.SentinelStates(ctx, []int64{sens[0].ID, sens[1].ID})
	must(t, err)
	if len(states) != 0 {
		t.Fatalf("states of new sentinels: %v", states)
	}
	change := &vigil.Change{SentinelID: sens[0].ID, ResourceID: r.ID, FromVersion: 1, ToVersion: 2, DetectedAt: t0, Summary: "c"}
	recs := []*vigil.CheckRecord{
		{SentinelID: sens[0].ID, CheckedAt: t0, NextCheck: t0.Add(time.Hour), State: json.RawMessage(`{"n":1}`),
			Changes: []*vigil.Change{change},
			Notifications: []*vigil.Notification{
				{UserID: u.ID, Channel: "email", Target: "ada@example.com", Payload: json.RawMessage(`{}`)},
				{UserID: u.ID, Channel: "webhook", Target: "https://h.example/", Payload: json.RawMessage(`{}`), NextAttempt: t0.Add(time.Minute)},
			},
			ChangeIndex: []int{0, -1},
			Wake:        []int64{sens[1].ID}},
		{SentinelID: sens[2].ID, CheckedAt: t0, NextCheck: t0.Add(time.Hour), State: json.RawMessage(`{"n":9}`),
			Changes: []*vigil.Change{{SentinelID: sens[2].ID, ResourceID: r.ID, FromVersion: 1, ToVersion: 2, DetectedAt: t0, Summary: "x"}}},
	}
	must(t, s.RecordChecks(ctx, recs))
	if change.ID == 0 || recs[0].Notifications[0].ChangeID != change.ID || recs[0].Notifications[1].ChangeID != 0 {
		t.Fatalf("ids: change %d, notifications %+v", change.ID, recs[0].Notifications)
	}
	if pages, err := s.FindChangePages(ctx, vigil.ChangePageFilter{SentinelIDs: []int64{sens[0].ID}}); err != nil ||
		len(pages) != 1 || pages[0] != (vigil.ChangePage{SentinelID: sens[0].ID, ResourceID: r.ID}) {
		t.Fatalf("pages the recorded change names: %+v, %v", pages, err)
	}
	got, err := s.FindSentinelByID(ctx, sens[0].ID)
	must(t, err)
	if !got.LastCheck.Equal(t0) || !got.NextCheck.Equal(t0.Add(time.Hour)) {
		t.Errorf("sentinel check times %v %v", got.LastCheck, got.NextCheck)
	}
	woken, err := s.FindSentinelByID(ctx, sens[1].ID)
	must(t, err)
	if !woken.NextCheck.Equal(t0) {
		t.Errorf("woken sentinel's next check %v, want %v", woken.NextCheck, t0)
	}
	states, err = s.SentinelStates(ctx, []int64{sens[0].ID, sens[1].ID, sens[2].ID})
	must(t, err)
	if len(states) != 1 || string(states[sens[0].ID]) != `{"n":1}` {
		t.Errorf("states %v", states)
	}
	due, err := s.ClaimNotifications(ctx, t0, time.Minute, 10)
	must(t, err)
	if len(due) != 1 || due[0].Channel != "email" || due[0].ChangeID != change.ID {
		t.Errorf("due notifications %+v", due)
	}
	cs, _, err := s.FindChanges(ctx, vigil.ChangeFilter{SentinelID: sens[0].ID})
	must(t, err)
	if len(cs) != 1 {
		t.Errorf("changes %v", cs)
	}
	// A second record replaces the state.
	must(t, s.RecordChecks(ctx, []*vigil.CheckRecord{{SentinelID: sens[0].ID, CheckedAt: t0.Add(time.Hour), NextCheck: t0.Add(2 * time.Hour), State: json.RawMessage(`{"n":2}`)}}))
	states, err = s.SentinelStates(ctx, []int64{sens[0].ID})
	must(t, err)
	if string(states[sens[0].ID]) != `{"n":2}` {
		t.Errorf("state after update %s", states[sens[0].ID])
	}
	// A check asked for while a check ran (the stored next check is no
	// longer the lease the claim set) is kept when it comes first; one the
	// lease still holds is replaced.
	leased := t0.Add(3 * time.Hour)
	for _, tt := range []struct {
		stored, want time.Time
	}{
		{leased, t0.Add(5 * time.Hour)},                // nothing asked: the record's next check
		{t0.Add(2 * time.Hour), t0.Add(2 * time.Hour)}, // asked for, earlier: kept
		{t0.Add(9 * time.Hour), t0.Add(5 * time.Hour)}, // moved later meanwhile: the record's
	} {
		sn, err := s.FindSentinelByID(ctx, sens[0].ID)
		must(t, err)
		sn.NextCheck = tt.stored
		must(t, s.UpdateSentinel(ctx, sn))
		must(t, s.RecordChecks(ctx, []*vigil.CheckRecord{{SentinelID: sens[0].ID, CheckedAt: t0.Add(4 * time.Hour), NextCheck: t0.Add(5 * time.Hour), Leased: leased}}))
		got, err := s.FindSentinelByID(ctx, sens[0].ID)
		must(t, err)
		if !got.NextCheck.Equal(tt.want) {
			t.Errorf("stored next check %v, leased %v: after the record %v, want %v", tt.stored, leased, got.NextCheck, tt.want)
		}
	}
	// Invalid input writes nothing.
	bad := []*vigil.CheckRecord{
		{SentinelID: sens[1].ID, CheckedAt: t0, NextCheck: t0.Add(9 * time.Hour), State: json.RawMessage(`{"n":3}`)},
		{SentinelID: sens[0].ID, CheckedAt: t0, NextCheck: t0, Changes: []*vigil.Change{{SentinelID: sens[0].ID}}},
	}
	wantCode(t, s.RecordChecks(ctx, bad), vigil.EINVALID)
	states, err = s.SentinelStates(ctx, []int64{sens[1].ID})
	must(t, err)
	if len(states) != 0 {
		t.Errorf("invalid batch wrote %v", states)
	}
}
