package main

import (
	"fmt"
	"log"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestServerErrorLogRedacted: what net/http itself logs of a connection
// (here a panic that no handler recovered, as one of the middleware
// around the dashboard's recovery would be) goes to the daemon's logger,
// with the token of the URL and the request's Authorization hidden, and
// nothing to the standard logger, net/http's default.
func TestServerErrorLogRedacted(t *testing.T) {
	var stderr lockedBuffer
	defer log.SetOutput(log.Writer())
	log.SetOutput(&stderr)
	var out lockedBuffer
	logger := slog.New(slog.NewTextHandler(&out, nil))
	srv := httptest.NewUnstartedServer(nil)
	srv.Config = newHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		panic(fmt.Sprintf("bad request https://vigil.example%s with %v", r.URL, r.Header))
	}), logger)
	srv.Start()
	defer srv.Close()
	req, _ := http.NewRequest("GET", srv.URL+"/api/v1/feed?token=URLSECRET", nil)
	req.Header.Set("Authorization", "Bearer HEADERSECRET")
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(out.String(), "panic serving") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	got := out.String()
	if !strings.Contains(got, "level=ERROR") || !strings.Contains(got, "panic serving") || !strings.Contains(got, "https://vigil.example/…") {
		t.Errorf("the daemon's log lacks the panic:\n%s", got)
	}
	if strings.Contains(got, "SECRET") {
		t.Errorf("the daemon's log shows a secret:\n%s", got)
	}
	if s := stderr.String(); s != "" {
		t.Errorf("net/http logged to the standard logger:\n%s", s)
	}
}
