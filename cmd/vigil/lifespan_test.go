package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/spec"
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

// TestLifespanOfEditedEndedSentinel: a sentinel that ended and was then
// edited to a later To is active again as soon as it is saved, as its next
// check (due at once) finds it, not "ended" until then: the dashboard's
// page the edit leads to said "ended, checked no more" with no next check,
// as did the API's answer to the PUT and vigil sentinel list. One edited
// in another clause stays ended.
func TestLifespanOfEditedEndedSentinel(t *testing.T) {
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
	now := time.Now().UTC().Truncate(time.Minute)
	const page = "https://example.com/"
	src := func(name, clauses string) string {
		return "Create Sentinel " + name + " Using " + page + " Monitor any change" + clauses
	}
	checked := func(t *testing.T, at time.Time, source string) *spec.Checked {
		t.Helper()
		ps, err := spec.ParseSentinel("", []byte(source))
		if err != nil {
			t.Fatal(err)
		}
		c, err := spec.NewChecker(at).Check(ps)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	started := now.Add(-48 * time.Hour)
	const endedTo = " To Now + 5 hour" // at started + 5 hours
	for _, tc := range []struct {
		name, edited, want string
	}{
		{"later_to", " Fetch 1 hour To Now + 1 day", "active"},
		{"same_to_other_fetch", " Fetch 2 hour" + endedTo, "ended"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// It ended under endedTo, as the monitor records it.
			old := checked(t, started, src("s", " Fetch 1 hour"+endedTo))
			state, err := json.Marshal(map[string]any{"status": map[string]any{
				"started": started, "ended": started.Add(5 * time.Hour), "endedUnder": strconv.Quote(spec.Print(old.Sentinel.To)),
			}})
			if err != nil {
				t.Fatal(err)
			}
			c := checked(t, now, src(tc.name, tc.edited))
			s := &vigil.Sentinel{OwnerID: u.ID, Name: c.Sentinel.Name.Name, Source: "x", Status: vigil.SentinelActive, NextCheck: now}
			if s.Spec, err = c.MarshalJSON(); err != nil {
				t.Fatal(err)
			}
			if err := st.CreateSentinel(ctx, s); err != nil {
				t.Fatal(err)
			}
			rec := &vigil.CheckRecord{SentinelID: s.ID, CheckedAt: now, NextCheck: now, State: state}
			if err := st.RecordChecks(ctx, []*vigil.CheckRecord{rec}); err != nil {
				t.Fatal(err)
			}
			got, err := sentinelStates(ctx, st, []*vigil.Sentinel{s})
			if err != nil {
				t.Fatal(err)
			}
			if got[s.ID].Lifespan != tc.want {
				t.Errorf("lifespan %q, want %q", got[s.ID].Lifespan, tc.want)
			}
		})
	}
}
