package main

import (
	"context"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestServeStopReleasesClaims stops the daemon (SIGTERM) while a check it
// claimed is still fetching its page, with a lease of an hour: the stop
// gives the claim back, so the sentinel is due at once and the next start
// checks it without waiting for the lease to end.
func TestServeStopReleasesClaims(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	page := newHeldPage(t, false)
	data := t.TempDir()
	addSentinels(t, data, "Create Sentinel slow Using "+page.url+"\nMonitor any change\nFetch 1 second\n")
	args := []string{"--allow-private-networks", "--min-interval", "1s", "--host-delay", "0", "--poll", "50ms", "--lease", "1h"}

	d := startDaemon(t, data, args...)
	page.waitHeld(t)
	db := openData(t, data)
	ctx := context.Background()
	sentinel := func() *vigil.Sentinel {
		t.Helper()
		all, _, err := db.FindSentinels(ctx, vigil.SentinelFilter{})
		if err != nil || len(all) != 1 {
			t.Fatalf("sentinels: %v, %v", all, err)
		}
		return all[0]
	}
	if s := sentinel(); time.Until(s.NextCheck) < 30*time.Minute {
		t.Fatalf("next check %v while being checked, want the claim's lease, an hour ahead", s.NextCheck)
	}
	d.stop(t)
	if s := sentinel(); s.NextCheck.After(time.Now()) {
		t.Fatalf("next check %v after a clean stop: the claim was not released", s.NextCheck)
	}

	startDaemon(t, data, args...)
	url := page.url
	waitFor(t, 20*time.Second, "the check after the restart", func() bool { return versionCount(t, db, url) == 1 })
}
