package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestServeResumeAfterPauseDuringCheck pauses a sentinel through the API
// while the daemon, with a lease of an hour, is fetching its page, lets
// the fetch end, then resumes it: the check made during the pause is not
// recorded, and the resumed sentinel is due at once and checked at the
// next poll. Before, the paused sentinel kept its claim's lease as its
// next check, and the resumed sentinel waited up to the lease (an hour).
func TestServeResumeAfterPauseDuringCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	page := newHeldPage(t, true)
	url := page.url
	d := startWebDaemon(t, "--min-interval", "1s", "--host-delay", "0", "--poll", "50ms", "--lease", "1h")
	c := &apiClient{t: t, base: d.base, token: d.addUser(t, "ops@example.com", "a password of ops")}
	var sen struct{ ID int64 }
	c.want(201, "POST", "/api/v1/sentinels", map[string]string{"source": "Create Sentinel slow Using " + url + "\nMonitor any change\nFetch 1 hour\n"}).json(t, &sen)
	path := fmt.Sprintf("/api/v1/sentinels/%d", sen.ID)

	page.waitHeld(t)
	c.want(200, "POST", path+"/pause", nil)
	page.Release()
	waitFor(t, 30*time.Second, "the check made during the pause to end", func() bool {
		return strings.Contains(d.stderr.String(), "check not recorded")
	})
	db := openData(t, d.dir)
	if n := versionCount(t, db, url); n != 1 {
		t.Fatalf("%d versions of the page fetched during the pause, want 1 (stored as any fetch)", n)
	}
	c.want(200, "POST", path+"/resume", nil)
	// Checked at the next poll (every 50 ms): within seconds, where the
	// lease would hold it an hour.
	waitFor(t, 15*time.Second, "the check after the resume", func() bool {
		s, err := db.FindSentinelByID(context.Background(), sen.ID)
		if err != nil {
			t.Fatal(err)
		}
		return !s.LastCheck.IsZero()
	})
	s, err := db.FindSentinelByID(context.Background(), sen.ID)
	if err != nil {
		t.Fatal(err)
	}
	if s.Status != vigil.SentinelActive || !s.NextCheck.After(s.LastCheck) {
		t.Errorf("after the check that followed the resume: %s, last check %v, next %v; want active, next after last", s.Status, s.LastCheck, s.NextCheck)
	}
}
