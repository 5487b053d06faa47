package main

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestServeTwoPages runs a sentinel on two pages (Using a OR b): a change
// on either is reported, with the page it was found on.
func TestServeTwoPages(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	st := newSite(t)
	st.set("/a", "<html><body><p>alpha 1</p></body></html>")
	st.set("/b", "<html><body><p>beta 1</p></body></html>")
	hk := startHooks(t, "two-secret")
	data := t.TempDir()
	addSentinels(t, data, fmt.Sprintf("Create Sentinel two Using %s/a OR %s/b Monitor any change Fetch 1 second Notify By webhook %s/two\n",
		st.srv.URL, st.srv.URL, hk.srv.URL))
	d := startDaemon(t, data, "--allow-private-networks", "--min-interval", "1s", "--host-delay", "0", "--poll", "50ms",
		"--webhook-secret", "two-secret")
	db := openData(t, data)
	waitFor(t, 30*time.Second, "both pages fetched", func() bool {
		return versionCount(t, db, st.srv.URL+"/a") == 1 && versionCount(t, db, st.srv.URL+"/b") == 1
	})
	st.set("/b", "<html><body><p>beta 2</p></body></html>")
	waitFor(t, 30*time.Second, "the change on b", func() bool { return len(hk.of("two")) == 1 })
	if c := hk.of("two")[0]; c.msg.URL != st.srv.URL+"/b" || !strings.Contains(c.raw, "beta 2") {
		t.Errorf("webhook for b: %s", c.raw)
	}
	st.set("/a", "<html><body><p>alpha 2</p></body></html>")
	waitFor(t, 30*time.Second, "the change on a", func() bool { return len(hk.of("two")) == 2 })
	if c := hk.of("two")[1]; c.msg.URL != st.srv.URL+"/a" || !strings.Contains(c.raw, "alpha 2") {
		t.Errorf("webhook for a: %s", c.raw)
	}
	d.stop(t)
}
