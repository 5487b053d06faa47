package main

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
)

// TestLifespans reads the lifespan phase the monitor recorded for each
// sentinel, as the API shows it: an ended sentinel is still active (not
// paused) but checked no more, and says so.
func TestLifespans(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	u := &vigil.User{Email: "ada@example.com", Name: "Ada", PasswordHash: "x"}
	if err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	now := time.Now().UTC()
	var ids []int64
	var sens []*vigil.Sentinel
	for i, state := range []string{
		`{"status":{"started":"2026-01-01T00:00:00Z","ended":"2026-02-01T00:00:00Z"}}`,
		`{"status":{"started":"2026-01-01T00:00:00Z"}}`,
		"",
	} {
		s := &vigil.Sentinel{OwnerID: u.ID, Name: fmt.Sprint("s", i), Source: "x", Status: vigil.SentinelActive, NextCheck: now}
		if err := st.CreateSentinel(ctx, s); err != nil {
			t.Fatal(err)
		}
		ids, sens = append(ids, s.ID), append(sens, s)
		if state != "" {
			rec := &vigil.CheckRecord{SentinelID: s.ID, CheckedAt: now, NextCheck: now.Add(time.Hour), State: json.RawMessage(state)}
			if err := st.RecordChecks(ctx, []*vigil.CheckRecord{rec}); err != nil {
				t.Fatal(err)
			}
		}
	}
	got, err := sentinelStates(ctx, st, sens)
	if err != nil {
		t.Fatal(err)
	}
	if got[ids[0]].Lifespan != "ended" || got[ids[1]].Lifespan != "active" || got[ids[2]].Lifespan != "" {
		t.Errorf("lifespans %v, want ended, active and none", got)
	}
}
