package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestServeFailingSinceKept runs a sentinel on a page, served on
// loopback, that answers 503, then 500: vigil sentinel list --json says
// it fails since its first failure still, with the newest error, as its
// failure notice does (the monitor keeps the start of the run for the
// sentinel); a sentinel added then on the same page fails since its own
// first check, not since the other's failures. A new error text is a new
// stored version, and failingSince was that version's time: it moved to
// the 500's, and the later sentinel was given it too.
func TestServeFailingSinceKept(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	var status atomic.Int32
	status.Store(http.StatusServiceUnavailable)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/p" {
			http.NotFound(w, r)
			return
		}
		http.Error(w, "down", int(status.Load()))
	}))
	t.Cleanup(srv.Close)
	data := t.TempDir()
	addSentinels(t, data, "Create Sentinel early Using "+srv.URL+"/p\nFetch 1 second\nEvery interactive\n")
	startDaemon(t, data, "--allow-private-networks", "--min-interval", "1s", "--max-interval", "2s", "--initial-interval", "1s",
		"--host-delay", "0", "--poll", "50ms")
	type listed struct {
		Name           string    `json:"name"`
		CreatedAt      time.Time `json:"createdAt"`
		LastCheck      time.Time `json:"lastCheck"`
		LastFetchError string    `json:"lastFetchError"`
		FailingSince   time.Time `json:"failingSince"`
	}
	list := func() map[string]listed {
		got := map[string]listed{}
		for l := range strings.Lines(runBinary(t, "sentinel", "list", "--data", data, "--json")) {
			var s listed
			if err := json.Unmarshal([]byte(l), &s); err != nil {
				t.Fatalf("%v: %s", err, l)
			}
			got[s.Name] = s
		}
		return got
	}
	var first listed
	waitFor(t, 60*time.Second, "the 503", func() bool {
		first = list()["early"]
		return strings.Contains(first.LastFetchError, "HTTP error status 503")
	})
	// The failed version is stored before the check's state: wait for a
	// check begun after the 503 was seen, so that the state holds the run.
	seen := first.LastCheck
	waitFor(t, 60*time.Second, "a check after the 503", func() bool {
		first = list()["early"]
		return first.LastCheck.After(seen)
	})
	status.Store(http.StatusInternalServerError)
	var later listed
	waitFor(t, 60*time.Second, "the 500", func() bool {
		later = list()["early"]
		return strings.Contains(later.LastFetchError, "HTTP error status 500")
	})
	if first.FailingSince.IsZero() || !later.FailingSince.Equal(first.FailingSince) {
		t.Errorf("early failing since %v at the 503, %v at the 500; want the same, set", first.FailingSince, later.FailingSince)
	}

	addSentinels(t, data, "Create Sentinel late Using "+srv.URL+"/p\nFetch 1 second\nEvery interactive\n")
	var late listed
	waitFor(t, 60*time.Second, "a check of late", func() bool {
		late = list()["late"]
		return late.LastCheck.After(late.CreatedAt) && late.LastFetchError != ""
	})
	if !strings.Contains(late.LastFetchError, "HTTP error status 500") || late.FailingSince.Before(late.CreatedAt) {
		t.Errorf("late: %+v; want the 500, failing since its first check, not before it was added", late)
	}
}
