package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestServeStartReleasesKilledClaims kills the daemon (SIGKILL) while a
// webhook it claimed is being delivered and while a sentinel it claimed
// is being checked, both under a lease of an hour: the next start on the
// SQLite store, which holds the data directory's lock and so knows that
// no other daemon holds a claim, gives both back at once. They stayed
// claimed until their lease ended, the webhook's delivery and the
// sentinel's check an hour late.
func TestServeStartReleasesKilledClaims(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	hookHung, delivered := make(chan struct{}, 1), make(chan struct{}, 1)
	pageHung, fetched := make(chan struct{}, 1), make(chan struct{}, 1)
	release := make(chan struct{})
	hang := func(r *http.Request, hung chan struct{}) {
		hung <- struct{}{}
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}
	var hookHits, pageHits atomic.Int32 // the first request of each hangs
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/hook":
			if hookHits.Add(1) == 1 {
				hang(r, hookHung)
				return
			}
			w.WriteHeader(http.StatusNoContent)
			select {
			case delivered <- struct{}{}:
			default:
			}
		case "/page":
			if pageHits.Add(1) == 1 {
				hang(r, pageHung)
				return
			}
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			io.WriteString(w, "<html><body><p>the page</p></body></html>")
			select {
			case fetched <- struct{}{}:
			default:
			}
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) }) // runs before srv.Close

	data := t.TempDir()
	addSentinels(t, data, fmt.Sprintf("Create Sentinel k1 Using %s/page\nMonitor any change\nFetch 1 hour\n", srv.URL))
	ctx := context.Background()
	st, err := openStore(ctx, data, "")
	if err != nil {
		t.Fatal(err)
	}
	n := &vigil.Notification{Channel: "webhook", Target: srv.URL + "/hook", Payload: []byte(`{}`)}
	err = st.EnqueueNotification(ctx, n)
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"--allow-private-networks", "--ignore-robots", "--poll", "50ms", "--lease", "1h"}
	d := startDaemon(t, data, args...)
	for name, hung := range map[string]chan struct{}{"deliver the webhook": hookHung, "check the sentinel": pageHung} {
		select {
		case <-hung:
		case <-time.After(30 * time.Second):
			t.Fatalf("the daemon did not %s", name)
		}
	}
	d.kill()

	startDaemon(t, data, args...)
	for name, done := range map[string]chan struct{}{"deliver the webhook": delivered, "check the sentinel": fetched} {
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatalf("the start after a kill did not %s again before the lease ended", name)
		}
	}
}
