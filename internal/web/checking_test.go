package web

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestCheckingShowsNoLease: while the monitor checks a sentinel, its
// stored next check is the end of the check's claim (the lease, 5 minutes
// on), not a schedule; the dashboard says it is being checked instead.
// A sentinel just made or saved (Fetch 1 minute) showed its next check 5
// minutes on, while it was being checked.
func TestCheckingShowsNoLease(t *testing.T) {
	s, u := newTestServer(t)
	ctx := context.Background()
	s.Checker = storeChecker(s)
	busy := createChecked(t, s, u, "Create Sentinel busy Using http://a.example/ Fetch 1 minute")
	idle := createChecked(t, s, u, "Create Sentinel idle Using http://b.example/ Fetch 1 minute")
	lease := time.Now().UTC().Add(5 * time.Minute).Truncate(time.Second)
	busy.NextCheck = lease
	if err := s.Store.UpdateSentinel(ctx, busy); err != nil {
		t.Fatal(err)
	}
	s.Checking = func(id int64) bool { return id == busy.ID }
	c := newSignedIn(t, s, u)
	for _, tc := range []struct {
		path     string
		checking bool
	}{
		{"/sentinels/" + strconv.FormatInt(busy.ID, 10), true},
		{"/sentinels/" + strconv.FormatInt(idle.ID, 10), false},
		{"/sentinels", true},
	} {
		status, body := c.do("GET", tc.path, "")
		if status != 200 {
			t.Fatalf("GET %s: %d %s", tc.path, status, body)
		}
		if got := strings.Contains(body, "being checked"); got != tc.checking {
			t.Errorf("GET %s: says it is being checked %v, want %v", tc.path, got, tc.checking)
		}
		if strings.Contains(body, fmtTime(lease, nil)) || strings.Contains(body, datetime(lease)) {
			t.Errorf("GET %s: shows the lease's end %s as the next check", tc.path, fmtTime(lease, nil))
		}
	}
}
