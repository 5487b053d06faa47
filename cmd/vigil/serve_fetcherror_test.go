package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestServeFetchErrorListed runs sentinels whose pages, served on
// loopback, answer 404 (gone) and redirect to a URL with a password
// (moved), beside one whose page answers (fine): vigil sentinel list
// says, below its table, since when each failing one's fetches fail and
// why, as the dashboard shows it, the password not shown, and --json
// gives it as "lastFetchError" and "failingSince": the time of the first
// failure of the run, which the checks after it keep (a run of failures
// alike is stored once); once the page answers, neither says it. The list
// said nothing: a failing sentinel looked quiet. It then said the first
// failure's time as the last fetch's ("last fetch failed at").
func TestServeFetchErrorListed(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	st := newSite(t)
	st.set("/fine", `<!DOCTYPE html><html><body><p>here</p></body></html>`)
	moved := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/moved" {
			http.NotFound(w, r)
			return
		}
		http.Redirect(w, r, strings.Replace(st.srv.URL, "://", "://user:s3cret@", 1)+"/fine", http.StatusFound)
	}))
	t.Cleanup(moved.Close)
	data := t.TempDir()
	addSentinels(t, data, "Create Sentinel gone Using "+st.srv.URL+"/gone\nFetch 1 second\nEvery interactive\n"+
		"Create Sentinel moved Using "+moved.URL+"/moved\nFetch 1 second\nEvery interactive\n"+
		"Create Sentinel fine Using "+st.srv.URL+"/fine\nFetch 1 second\nEvery interactive\n")
	startDaemon(t, data, "--allow-private-networks", "--min-interval", "1s", "--max-interval", "2s", "--initial-interval", "1s",
		"--host-delay", "0", "--poll", "50ms")
	want := map[string]string{
		"gone":  ": fetch " + st.srv.URL + "/gone: HTTP error status 404",
		"moved": ": fetch " + moved.URL + "/moved: redirect to ",
	}
	list := func() string { return runBinary(t, "sentinel", "list", "--data", data) }
	lines := map[string]string{}
	waitFor(t, 30*time.Second, "the fetch errors", func() bool {
		for l := range strings.Lines(list()) {
			if name, _, ok := strings.Cut(l, ": failing since "); ok {
				lines[name] = l
			}
		}
		return lines["gone"] != "" && lines["moved"] != ""
	})
	for name, w := range want {
		if l := lines[name]; !strings.Contains(l, w) || strings.Contains(l, "s3cret") {
			t.Errorf("list says %q, want %q, no password", l, w)
		}
	}
	if lines["fine"] != "" {
		t.Errorf("list says the fine sentinel failed: %q", lines["fine"])
	}
	type listed struct {
		Name           string     `json:"name"`
		LastFetchError string     `json:"lastFetchError"`
		FailingSince   *time.Time `json:"failingSince"`
		LastCheck      time.Time  `json:"lastCheck"`
	}
	got := map[string]listed{}
	for l := range strings.Lines(runBinary(t, "sentinel", "list", "--data", data, "--json")) {
		var s listed
		if err := json.Unmarshal([]byte(l), &s); err != nil {
			t.Fatalf("%v: %s", err, l)
		}
		got[s.Name] = s
	}
	for name, w := range want {
		if g := got[name]; !strings.Contains(": "+g.LastFetchError, w) || strings.Contains(g.LastFetchError, "s3cret") || g.FailingSince == nil {
			t.Errorf("--json: %s %+v, want lastFetchError %q, no password, and failingSince", name, g, w)
		}
	}
	if f := got["fine"]; f.LastFetchError != "" || f.FailingSince != nil {
		t.Errorf("--json: fine %+v, want no lastFetchError", f)
	}

	// The checks after the first failure keep its time: it is when the
	// page began to fail, not when it was last fetched.
	since := got["gone"].FailingSince
	var later listed
	waitFor(t, 30*time.Second, "a later check of gone", func() bool {
		for l := range strings.Lines(runBinary(t, "sentinel", "list", "--data", data, "--json")) {
			var s listed
			if json.Unmarshal([]byte(l), &s) == nil && s.Name == "gone" {
				later = s
			}
		}
		return since != nil && later.LastCheck.After(since.Add(time.Second))
	})
	if later.FailingSince == nil || !later.FailingSince.Equal(*since) || later.LastFetchError != got["gone"].LastFetchError {
		t.Errorf("--json after a later check: gone %+v, want it failing since %v still", later, since)
	}

	st.set("/gone", `<!DOCTYPE html><html><body><p>back</p></body></html>`)
	waitFor(t, 30*time.Second, "the fetch error of gone gone", func() bool { return !strings.Contains(list(), "gone: failing since") })
}
