package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestSentinelListUnreadableJSON: vigil sentinel list --json says why a
// stored sentinel's form cannot be read, as "unreadable" (absent for one
// that reads), and the list, table and JSON, says the last fetch error of
// its page as of any other: --json gave no sign of it, and its pages'
// fetch errors were not looked for (its checked form did not decode).
func TestSentinelListUnreadableJSON(t *testing.T) {
	ctx := context.Background()
	data := filepath.Join(t.TempDir(), "data")
	st, owner, wh := listFixture(t, data, "ann@example.org")
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	const broken = "fetch http://a.example/5: HTTP error status 404"
	if _, err := wh.Put(ctx, &warehouse.Fetch{URL: "http://a.example/5", FetchedAt: at, Status: 404, Error: broken}); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*vigil.Sentinel{
		{Name: "lost", Source: "Create Sentinel lost Using http://a.example/5", Spec: storedSpec("lost", "http://a.example/5", `{"kind":"most words"}`)},
		{Name: "fine", Source: "Create Sentinel fine Using http://a.example/6", Spec: storedSpec("fine", "http://a.example/6", `{"kind":"any change"}`)},
	} {
		s.OwnerID, s.Status, s.NextCheck = owner.ID, vigil.SentinelActive, at
		if err := st.CreateSentinel(ctx, s); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	const why = `monitor.kind: unknown change type "most words": want one of any change, all links, all images, all words, keywords, phrase, table, list, regular expression, value`

	code, out, errOut := runVigil(t, "", "sentinel", "list", "--data", data)
	if want := "\nlost: failing since 2026-03-01 12:00:00 UTC: " + broken + "\n"; code != exitOK || !strings.Contains(out, want) {
		t.Errorf("list: exit %d, stderr %q, stdout:\n%s\nwant %q", code, errOut, out, want)
	}
	code, out, errOut = runVigil(t, "", "sentinel", "list", "--data", data, "--json")
	if code != exitOK {
		t.Fatalf("list --json: exit %d\n%s", code, errOut)
	}
	got := map[string]map[string]json.RawMessage{}
	for line := range strings.Lines(out) {
		var m map[string]json.RawMessage
		var name string
		if err := json.Unmarshal([]byte(line), &m); err != nil || json.Unmarshal(m["name"], &name) != nil {
			t.Fatalf("%v: %s", err, line)
		}
		got[name] = m
	}
	var unreadable, lastErr string
	json.Unmarshal(got["lost"]["unreadable"], &unreadable)
	json.Unmarshal(got["lost"]["lastFetchError"], &lastErr)
	if unreadable != why || lastErr != broken {
		t.Errorf("list --json: lost %s, want unreadable %q and lastFetchError %q", out, why, broken)
	}
	if _, ok := got["fine"]["unreadable"]; ok || got["fine"] == nil {
		t.Errorf("list --json: fine %s, want no unreadable", out)
	}
}
