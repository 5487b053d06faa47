package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
)

// TestSentinelListScopeNotes: vigil sentinel list says, below its table,
// what a sentinel's scopes were found to select nothing of on its pages
// (the monitor's state), and --json gives them as "scopeNotes"; a sentinel
// without says nothing.
func TestSentinelListScopeNotes(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	src := "Create Sentinel lost Using http://a.example/ Monitor table {u}\nCreate Sentinel fine Using http://b.example/\n"
	if code, out, errOut := runVigil(t, "", "sentinel", "add", "--data", data, writeFile(t, dir, "s.ssl", src)); code != exitOK {
		t.Fatalf("add: exit %d\n%s%s", code, out, errOut)
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, data)
	if err != nil {
		t.Fatal(err)
	}
	sens, _, err := st.FindSentinels(ctx, vigil.SentinelFilter{})
	if err != nil {
		t.Fatal(err)
	}
	const note = "scope table#u matches nothing on http://a.example/"
	now := time.Now().UTC()
	for _, s := range sens {
		state := `{"status":{"started":"2026-01-01T00:00:00Z"}}`
		if s.Name == "lost" {
			state = `{"status":{"started":"2026-01-01T00:00:00Z"},"scopeNotes":["` + note + `"]}`
		}
		rec := &vigil.CheckRecord{SentinelID: s.ID, CheckedAt: now, NextCheck: now.Add(time.Hour), State: json.RawMessage(state)}
		if err := st.RecordChecks(ctx, []*vigil.CheckRecord{rec}); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	code, out, errOut := runVigil(t, "", "sentinel", "list", "--data", data)
	if code != exitOK {
		t.Fatalf("list: exit %d\n%s", code, errOut)
	}
	if !strings.Contains(out, "\nlost: "+note+"\n") || strings.Count(out, "matches nothing") != 1 {
		t.Errorf("list does not say the scope of lost matches nothing, once:\n%s", out)
	}
	_, out, _ = runVigil(t, "", "sentinel", "list", "--data", data, "--json")
	got := map[string][]string{}
	for line := range strings.Lines(out) {
		var s struct {
			Name       string   `json:"name"`
			ScopeNotes []string `json:"scopeNotes"`
		}
		if err := json.Unmarshal([]byte(line), &s); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		got[s.Name] = s.ScopeNotes
	}
	if len(got["lost"]) != 1 || got["lost"][0] != note || got["fine"] != nil {
		t.Errorf("--json scopeNotes %q, want lost's alone", got)
	}
}

// countedStates is a store that counts its reads of the sentinels' states.
type countedStates struct {
	*sqlite.DB
	reads int
}

func (c *countedStates) SentinelStates(ctx context.Context, ids []int64) (map[int64]json.RawMessage, error) {
	c.reads++
	return c.DB.SentinelStates(ctx, ids)
}

// TestSentinelStatesReadOnce: the lifespans and scope notes the dashboard
// and vigil sentinel list show come from one read of the sentinels'
// states, decoded once each; each was read and decoded twice.
func TestSentinelStatesReadOnce(t *testing.T) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	u := &vigil.User{Email: "a@example.org"}
	if err := db.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	s := &vigil.Sentinel{OwnerID: u.ID, Name: "lost", Source: "Create Sentinel lost Using http://a.example/", Spec: json.RawMessage(`{}`), Status: vigil.SentinelActive, NextCheck: time.Now().UTC()}
	if err := db.CreateSentinel(ctx, s); err != nil {
		t.Fatal(err)
	}
	const note = "scope table#u matches nothing on http://a.example/"
	now := time.Now().UTC()
	state := `{"status":{"started":"2026-01-01T00:00:00Z"},"scopeNotes":["` + note + `"]}`
	if err := db.RecordChecks(ctx, []*vigil.CheckRecord{{SentinelID: s.ID, CheckedAt: now, NextCheck: now.Add(time.Hour), State: json.RawMessage(state)}}); err != nil {
		t.Fatal(err)
	}
	st := &countedStates{DB: db}
	got, err := sentinelStates(ctx, st, []*vigil.Sentinel{s})
	if err != nil {
		t.Fatal(err)
	}
	if v := got[s.ID]; v.Lifespan != "active" || len(v.ScopeNotes) != 1 || v.ScopeNotes[0] != note {
		t.Errorf("state of lost: %+v, want active with %q", v, note)
	}
	if st.reads != 1 {
		t.Errorf("the states were read %d times, want once", st.reads)
	}
}
