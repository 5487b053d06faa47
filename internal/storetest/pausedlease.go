package storetest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// testRecordChecksPausedLease: a sentinel paused while it is checked
// keeps nothing of its check (testRecordChecksSkipped), and the claim of
// that check is given back: its NextCheck, still the claim's lease, becomes
// the check's time, so that once resumed it is due at once, as a claim
// released by a clean stop is (ReleaseSentinels), and not when the lease
// (an hour, say) ends. A paused sentinel whose NextCheck was set while it
// was checked (its lease no longer) keeps it.
func testRecordChecksPausedLease(t *testing.T, s interface {
	vigil.Store
	vigil.CheckStore
}) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	var sens []*vigil.Sentinel
	for _, name := range []string{"paused", "paused and set"} {
		sn := &vigil.Sentinel{OwnerID: u.ID, Name: name, Source: "x", Status: vigil.SentinelActive, NextCheck: t0}
		must(t, s.CreateSentinel(ctx, sn))
		sens = append(sens, sn)
	}
	claimed, err := s.ClaimDueSentinels(ctx, t0, time.Hour, 10)
	must(t, err)
	if len(claimed) != 2 {
		t.Fatalf("claimed %d sentinels, want 2", len(claimed))
	}
	lease := claimed[0].NextCheck
	set := t0.Add(2 * time.Hour)
	for i, sn := range sens {
		// Paused as the API and the dashboard pause: the sentinel read,
		// its status set with the NextCheck it read.
		cur, err := s.FindSentinelByID(ctx, sn.ID)
		must(t, err)
		if i == 1 {
			cur.NextCheck = set
		}
		must(t, s.SetSentinelStatus(ctx, cur.ID, vigil.SentinelPaused, cur.NextCheck))
	}
	checked := t0.Add(time.Minute)
	recs := make([]*vigil.CheckRecord, len(sens))
	for i, sn := range sens {
		recs[i] = &vigil.CheckRecord{SentinelID: sn.ID, CheckedAt: checked, NextCheck: checked.Add(24 * time.Hour), Leased: lease,
			State: json.RawMessage(`{"n":1}`)}
	}
	must(t, s.RecordChecks(ctx, recs))
	for i, want := range []time.Time{checked, set} {
		if !recs[i].Skipped {
			t.Errorf("sentinel %s: record not Skipped", sens[i].Name)
		}
		got, err := s.FindSentinelByID(ctx, sens[i].ID)
		must(t, err)
		if got.Status != vigil.SentinelPaused || !got.NextCheck.Equal(want) || !got.LastCheck.IsZero() {
			t.Errorf("sentinel %s after its skipped check: %s, next check %v, last check %v; want paused, %v, none",
				sens[i].Name, got.Status, got.NextCheck, got.LastCheck, want)
		}
	}
	states, err := s.SentinelStates(ctx, []int64{sens[0].ID, sens[1].ID})
	must(t, err)
	if len(states) != 0 {
		t.Errorf("states %v: want none", states)
	}
}
