package main

import (
	"strings"
	"testing"
	"time"
)

// TestServeScopeMatchesNothing runs a sentinel whose table {u} names a
// table the page, served on loopback, lacks: the daemon's checks go on,
// and vigil sentinel list says "scope table#u matches nothing on" the
// page; once the page has the table, it says nothing more.
func TestServeScopeMatchesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	st := newSite(t)
	st.set("/fares", `<!DOCTYPE html><html><body><table id="prices"><tr><td>1</td></tr></table></body></html>`)
	data := t.TempDir()
	addSentinels(t, data, "Create Sentinel fares Using "+st.srv.URL+"/fares\nMonitor table {u}\nFetch 1 second\nEvery interactive\n")
	startDaemon(t, data, "--allow-private-networks", "--min-interval", "1s", "--max-interval", "2s", "--initial-interval", "1s",
		"--host-delay", "0", "--poll", "50ms")
	note := "fares: scope table#u matches nothing on " + st.srv.URL + "/fares"
	list := func() string { return runBinary(t, "sentinel", "list", "--data", data) }
	waitFor(t, 30*time.Second, "the note", func() bool { return strings.Contains(list(), note) })

	st.set("/fares", `<!DOCTYPE html><html><body><table id="u"><tr><td>1</td></tr></table></body></html>`)
	waitFor(t, 30*time.Second, "the note gone", func() bool { return !strings.Contains(list(), "matches nothing") })
}
