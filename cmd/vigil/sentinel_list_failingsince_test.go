package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestSentinelListFailingSinceFromState: vigil sentinel list says a
// sentinel's page fails since the start of its run of failures as the
// monitor keeps it for the sentinel (its state's pages[url].failingSince,
// what the failure notice says), with the newest error: a page that
// answered 503 at 10:00 and timed out at 11:00 fails since 10:00 for the
// sentinel checking it since, since 12:00 for one added then, and since
// 11:00 (the newest failed version) for one not checked yet. It said
// 11:00 for all: a new error text is a new version.
func TestSentinelListFailingSinceFromState(t *testing.T) {
	ctx := context.Background()
	data := t.TempDir()
	st, owner, wh := listFixture(t, data, "ops@example.test")
	ten := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	const page = "http://a.example/"
	const timeout = "fetch http://a.example/: context deadline exceeded"
	for _, f := range []*warehouse.Fetch{
		{URL: page, FetchedAt: ten, Status: 503, Error: "fetch http://a.example/: HTTP error status 503"},
		{URL: page, FetchedAt: ten.Add(time.Hour), Error: timeout},
	} {
		if _, err := wh.Put(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
	since := map[string]time.Time{"early": ten, "late": ten.Add(2 * time.Hour), "unchecked": ten.Add(time.Hour)}
	for _, name := range []string{"early", "late", "unchecked"} {
		_, js := checkedSpec(t, "Create Sentinel "+name+" Using "+page+" Fetch 1 hour", ten)
		s := &vigil.Sentinel{OwnerID: owner.ID, Name: name, Source: "Create Sentinel " + name, Spec: js, Status: vigil.SentinelActive, NextCheck: ten}
		if err := st.CreateSentinel(ctx, s); err != nil {
			t.Fatal(err)
		}
		if name == "unchecked" {
			continue
		}
		state := `{"status":{"started":"2026-03-01T00:00:00Z"},"pages":{"` + page + `":{"count":0,"seen":[],"failingSince":"` +
			since[name].Format(time.RFC3339) + `"}}}`
		at := ten.Add(3 * time.Hour)
		rec := &vigil.CheckRecord{SentinelID: s.ID, CheckedAt: at, NextCheck: at.Add(time.Hour), State: json.RawMessage(state)}
		if err := st.(vigil.CheckStore).RecordChecks(ctx, []*vigil.CheckRecord{rec}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}

	code, out, errOut := runVigil(t, "", "sentinel", "list", "--data", data)
	for name, at := range since {
		if want := "\n" + name + ": failing since " + fmtTime(at) + " UTC: " + timeout + "\n"; code != exitOK || !strings.Contains(out, want) {
			t.Errorf("sentinel list: exit %d\n%s%s\nwant exit 0 and %q", code, out, errOut, want)
		}
	}
	code, out, errOut = runVigil(t, "", "sentinel", "list", "--data", data, "--json")
	if code != exitOK {
		t.Fatalf("sentinel list --json: exit %d\n%s", code, errOut)
	}
	for line := range strings.Lines(out) {
		var l struct {
			Name           string    `json:"name"`
			LastFetchError string    `json:"lastFetchError"`
			FailingSince   time.Time `json:"failingSince"`
		}
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if l.LastFetchError != timeout || !l.FailingSince.Equal(since[l.Name]) {
			t.Errorf("sentinel list --json: %s, want lastFetchError %q failing since %s", line, timeout, since[l.Name].Format(time.RFC3339))
		}
	}
}
