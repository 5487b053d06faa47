package monitor

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestCommitNextCheckPastStorableTimes: a check whose next check falls
// past the times the stores keep (a Fetch interval of centuries from a
// late check) is recorded with the last time they keep, where the store
// refused the record (EINVALID naming nextCheck) and the check was made
// again at every end of its lease.
func TestCommitNextCheckPastStorableTimes(t *testing.T) {
	ctx := context.Background()
	db, wh, u := testStore(t)
	s := &vigil.Sentinel{OwnerID: u.ID, Name: "far", Source: "x", Status: vigil.SentinelActive, NextCheck: time.Now().UTC()}
	if err := db.CreateSentinel(ctx, s); err != nil {
		t.Fatal(err)
	}
	m := &Monitor{Store: db, Warehouse: wh}
	now := time.Now().UTC().Truncate(time.Second)
	rec := &vigil.CheckRecord{SentinelID: s.ID, CheckedAt: now, NextCheck: time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC), State: json.RawMessage(`{}`)}
	if err := m.commit(ctx, []*vigil.CheckRecord{rec}); err != nil {
		t.Fatalf("commit: %v", err)
	}
	got, err := db.FindSentinelByID(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.NextCheck.Year() != 2262 || !vigil.StorableTime(got.NextCheck) {
		t.Errorf("next check %s, want the last time kept, in 2262", got.NextCheck)
	}
}
