package main

import (
	"encoding/json"
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

// TestServeSiteScopeMatchesNothing runs a site sentinel whose table {u}
// names a table no page of the site, served on loopback, has: vigil
// sentinel list says "scope table#u matches nothing on site" the site,
// with the number of pages looked at, and --json gives it as
// "scopeNotes"; once a page of the site has the table, neither says it.
// A site sentinel got no scope notes.
func TestServeSiteScopeMatchesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	st := newSite(t)
	page := func(title, body string) string {
		return "<!DOCTYPE html><html><head><title>" + title + "</title></head><body>" + body + "</body></html>"
	}
	st.set("/docs/", page("Docs", `<a href="guide.html">Guide</a>`))
	st.set("/docs/guide.html", page("Guide", `<table id="prices"><tr><td>1</td></tr></table>`))
	data := t.TempDir()
	addSentinels(t, data, "Create Sentinel docs Using site "+st.srv.URL+"/docs/\nMonitor table {u}\nFetch 1 second\nEvery interactive\n")
	startDaemon(t, data, "--allow-private-networks", "--min-interval", "1s", "--max-interval", "2s", "--initial-interval", "1s",
		"--host-delay", "0", "--poll", "50ms")
	note := "scope table#u matches nothing on site " + st.srv.URL + "/docs/ (2 pages looked at)"
	list := func() string { return runBinary(t, "sentinel", "list", "--data", data) }
	waitFor(t, 30*time.Second, "the note", func() bool { return strings.Contains(list(), "docs: "+note) })
	var listed struct {
		ScopeNotes []string `json:"scopeNotes"`
	}
	if err := json.Unmarshal([]byte(runBinary(t, "sentinel", "list", "--data", data, "--json")), &listed); err != nil {
		t.Fatal(err)
	}
	if len(listed.ScopeNotes) != 1 || listed.ScopeNotes[0] != note {
		t.Errorf("--json scopeNotes %q, want [%q]", listed.ScopeNotes, note)
	}

	st.set("/docs/guide.html", page("Guide", `<table id="u"><tr><td>1</td></tr></table>`))
	waitFor(t, 30*time.Second, "the note gone", func() bool { return !strings.Contains(list(), "matches nothing") })
}
