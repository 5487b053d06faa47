package web

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/warehouse"
)

// TestFailingSinceFromState: a sentinel's failingSince is the start of its
// page's run of failures as the monitor keeps it for the sentinel
// (SentinelState.FailingSince, the time its failure notice says), not the
// time of the newest failed version: a page that answered 503 at 10:00
// and timed out at 11:00 (two versions, their errors differ) fails since
// 10:00, and a sentinel added at 12:00 on it fails since 12:00 for its
// own state; one the monitor has not checked yet falls back to the
// version's time. The error is the newest one. failingSince said 11:00
// for both.
func TestFailingSinceFromState(t *testing.T) {
	s, u := newTestServer(t)
	w := useWarehouse(t, s)
	ctx := context.Background()
	ten := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	const page = "http://a.example/"
	const timeout = "fetch http://a.example/: context deadline exceeded"
	for _, f := range []*warehouse.Fetch{
		{URL: page, FetchedAt: ten, Status: 503, Error: "fetch http://a.example/: HTTP error status 503"},
		{URL: page, FetchedAt: ten.Add(time.Hour), Error: timeout},
	} {
		if _, err := w.Put(ctx, f); err != nil {
			t.Fatal(err)
		}
	}
	early := createChecked(t, s, u, "Create Sentinel early Using "+page+" Fetch 1 hour")
	late := createChecked(t, s, u, "Create Sentinel late Using "+page+" Fetch 1 hour")
	unchecked := createChecked(t, s, u, "Create Sentinel unchecked Using "+page+" Fetch 1 hour")
	s.SentinelStates = func(_ context.Context, _ []*vigil.Sentinel) (map[int64]SentinelState, error) {
		return map[int64]SentinelState{
			early.ID: {Lifespan: "active", FailingSince: map[string]time.Time{page: ten}},
			late.ID:  {Lifespan: "active", FailingSince: map[string]time.Time{page: ten.Add(2 * time.Hour)}},
		}, nil
	}
	c := newSignedIn(t, s, u)
	for _, tc := range []struct {
		sen   *vigil.Sentinel
		since time.Time
	}{{early, ten}, {late, ten.Add(2 * time.Hour)}, {unchecked, ten.Add(time.Hour)}} {
		path := "/api/v1/sentinels/" + strconv.FormatInt(tc.sen.ID, 10)
		status, body := c.do("GET", path, "")
		var v struct {
			LastFetchError string
			FailingSince   time.Time
		}
		if err := json.Unmarshal([]byte(body), &v); status != 200 || err != nil {
			t.Fatalf("GET %s: %d %v %s", path, status, err, body)
		}
		if v.LastFetchError != timeout || !v.FailingSince.Equal(tc.since) {
			t.Errorf("GET %s (%s): %s, want lastFetchError %q failing since %s", path, tc.sen.Name, body, timeout, tc.since.Format(time.RFC3339))
		}
	}
}

// TestFailingSinceOnDashboard: the sentinel's page and the sentinel list
// say since when its page fails, beside its last error, as vigil sentinel
// list and the API's failingSince do ("failing since 2026-03-01 10:00:00
// UTC"): the dashboard showed the error alone, so that a page failing for
// a week could not be told from one failing since the last check.
func TestFailingSinceOnDashboard(t *testing.T) {
	s, u := newTestServer(t)
	w := useWarehouse(t, s)
	ctx := context.Background()
	ten := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	const page = "http://a.example/"
	if _, err := w.Put(ctx, &warehouse.Fetch{URL: page, FetchedAt: ten.Add(time.Hour), Status: 503, Error: "fetch http://a.example/: HTTP error status 503"}); err != nil {
		t.Fatal(err)
	}
	sen := createChecked(t, s, u, "Create Sentinel down Using "+page+" Fetch 1 hour")
	s.SentinelStates = func(_ context.Context, _ []*vigil.Sentinel) (map[int64]SentinelState, error) {
		return map[int64]SentinelState{sen.ID: {Lifespan: "active", FailingSince: map[string]time.Time{page: ten}}}, nil
	}
	c := newSignedIn(t, s, u)
	const want = "failing since 2026-03-01 10:00:00 UTC"
	for _, path := range []string{"/sentinels/" + strconv.FormatInt(sen.ID, 10), "/sentinels"} {
		status, body := c.do("GET", path, "")
		if status != 200 || !strings.Contains(body, "HTTP error status 503") {
			t.Fatalf("GET %s: %d, want 200 with the last error: %s", path, status, body)
		}
		if !strings.Contains(body, want) {
			t.Errorf("GET %s: no %q beside the last error", path, want)
		}
	}
}
