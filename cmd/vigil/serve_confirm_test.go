package main

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestServeConfirmAndIgnore checks the anti-noise features end to end: a
// change inside an ignored part of the page is not reported; a change that
// is reverted before its confirmation re-fetch is not reported; a change
// that persists is reported once, after the confirmation delay.
func TestServeConfirmAndIgnore(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	st := newSite(t)
	page := func(price, clock string) string {
		return fmt.Sprintf(`<!DOCTYPE html><html><body><h1>Offer</h1><p class="price">Price: %s</p><p class="clock">Generated at %s</p></body></html>`, price, clock)
	}
	st.set("/offer", page("100", "10:00"))
	hk := startHooks(t, "confirm-secret-of-thirty-two-characters")
	data := t.TempDir()
	addSentinels(t, data, fmt.Sprintf(`Create Sentinel c1 Using %s/offer
Monitor any change Ignore css ".clock"
Fetch 3 second
Confirm after 2 second
Notify By webhook %s/c1
Every immediate
`, st.srv.URL, hk.srv.URL))
	d := startDaemon(t, data, "--allow-private-networks", "--min-interval", "1s", "--host-delay", "0", "--poll", "50ms",
		"--webhook-secret", "confirm-secret-of-thirty-two-characters")
	db := openData(t, data)
	url := st.srv.URL + "/offer"
	waitFor(t, 30*time.Second, "the first version", func() bool { return versionCount(t, db, url) == 1 })

	// Only the ignored clock changes: a new version, nothing to confirm.
	st.set("/offer", page("100", "10:05"))
	waitFor(t, 30*time.Second, "version 2", func() bool { return versionCount(t, db, url) == 2 })
	time.Sleep(4 * time.Second)
	if strings.Contains(d.stderr.String(), "change to confirm") || len(hk.all()) != 0 {
		t.Fatalf("a change in the ignored part was taken for a change: %d webhooks", len(hk.all()))
	}

	// The price flaps: changed, then back before the confirmation.
	st.set("/offer", page("90", "10:05"))
	waitFor(t, 30*time.Second, "the change to confirm", func() bool { return strings.Contains(d.stderr.String(), "change to confirm") })
	st.set("/offer", page("100", "10:05"))
	waitFor(t, 30*time.Second, "the confirmation that fails", func() bool { return strings.Contains(d.stderr.String(), "change not confirmed") })
	time.Sleep(time.Second)
	if n := len(hk.all()); n != 0 {
		t.Fatalf("%d webhooks for a change that did not last", n)
	}

	// The price really changes: reported once, after the confirmation.
	st.set("/offer", page("80", "10:05"))
	waitFor(t, 15*time.Second, "the confirmed change", func() bool { return len(hk.of("c1")) == 1 })
	call := hk.of("c1")[0]
	if !strings.Contains(call.raw, "Price: 80") || strings.Contains(call.raw, `"new":"Generated`) {
		t.Errorf("confirmed change: %s", call.raw)
	}
	time.Sleep(4 * time.Second)
	if n := len(hk.all()); n != 1 {
		t.Errorf("%d webhooks, want 1", n)
	}
	d.stop(t)
}
