package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestWebBeingChecked: while the daemon checks a sentinel (here its page
// answers slowly), the dashboard says so instead of showing the end of the
// check's claim, 5 minutes on, as its next check: a sentinel just made
// showed "in 5m" though it said Fetch 1 minute.
func TestWebBeingChecked(t *testing.T) {
	s := slowSentinel(t)
	deadline := time.Now().Add(20 * time.Second)
	for {
		body := s.get("/sentinels/1")
		if strings.Contains(body, "being checked") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the sentinel page never says it is being checked:\n%s", body)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if body := s.get("/sentinels"); !strings.Contains(body, "being checked") || strings.Contains(body, "in 4m") {
		t.Errorf("the sentinels list does not say it is being checked:\n%s", body)
	}
}

// TestAPIBeingChecked: while the daemon checks a sentinel (its page answers
// slowly), the API says "checking": true and gives no next check, where it
// gave the end of the check's claim, 5 minutes on, as "nextCheck".
func TestAPIBeingChecked(t *testing.T) {
	s := slowSentinel(t)
	type view struct {
		Checking  bool      `json:"checking"`
		NextCheck time.Time `json:"nextCheck"`
	}
	deadline := time.Now().Add(20 * time.Second)
	var one view
	for {
		body := s.get("/api/v1/sentinels/1")
		one = view{}
		if err := json.Unmarshal([]byte(body), &one); err != nil {
			t.Fatalf("decode %s: %v", body, err)
		}
		if one.Checking {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the API never says the sentinel is being checked: %s", body)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !one.NextCheck.IsZero() {
		t.Errorf("GET /api/v1/sentinels/1: nextCheck %v while being checked, want none", one.NextCheck)
	}
	body := s.get("/api/v1/sentinels")
	var list struct{ Items []view }
	if err := json.Unmarshal([]byte(body), &list); err != nil {
		t.Fatalf("decode %s: %v", body, err)
	}
	if len(list.Items) != 1 || !list.Items[0].Checking || !list.Items[0].NextCheck.IsZero() {
		t.Errorf("GET /api/v1/sentinels: want it being checked, without a next check: %s", body)
	}
}

// slowSentinel starts a daemon, signs in as its admin and makes sentinel 1,
// checked every minute, of a page that does not answer until the test
// ends: its first check stays in flight.
func slowSentinel(t *testing.T) *browserSession {
	t.Helper()
	release := make(chan struct{})
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<p>hello</p>"))
	}))
	t.Cleanup(page.Close)
	t.Cleanup(func() { close(release) })
	d := startWebDaemon(t)
	s, status := signIn(t, d.base, testAdminPassword)
	if status != http.StatusSeeOther {
		t.Fatalf("sign in: %d", status)
	}
	src := "Create Sentinel slow Using " + page.URL + "/ Monitor any change Fetch 1 minute"
	if code, body := s.post("/sentinels", url.Values{"csrf": {s.csrf()}, "source": {src}}); code != http.StatusOK {
		t.Fatalf("create: %d %s", code, body)
	}
	return s
}
