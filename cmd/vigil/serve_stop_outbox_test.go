package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestServeStopReleasesDeliveries stops the daemon (SIGTERM) while a
// webhook it claimed is being delivered, with a lease of an hour: the stop
// gives the claim back, uncounted, so the next start delivers it at once.
// It stayed claimed, and the next start waited for the lease to end.
func TestServeStopReleasesDeliveries(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	var (
		mu   sync.Mutex
		hits int
	)
	hung := make(chan struct{}, 1)
	delivered := make(chan struct{}, 1)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hits++
		first := hits == 1
		mu.Unlock()
		if first { // the first delivery hangs until the daemon gives up on it
			hung <- struct{}{}
			select {
			case <-r.Context().Done():
			case <-release:
			}
			return
		}
		w.WriteHeader(http.StatusNoContent)
		select {
		case delivered <- struct{}{}:
		default:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) }) // runs before srv.Close

	data := t.TempDir()
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
	args := []string{"--allow-private-networks", "--poll", "50ms", "--lease", "1h"}
	d := startDaemon(t, data, args...)
	select {
	case <-hung:
	case <-time.After(30 * time.Second):
		t.Fatal("the daemon did not deliver the webhook")
	}
	d.stop(t)
	db := openData(t, data)
	got, err := db.FindNotificationByID(ctx, n.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.State != vigil.NotificationPending || got.NextAttempt.After(time.Now()) || got.Attempts != 0 {
		t.Fatalf("after a clean stop during its delivery: %s, next attempt %v, %d attempts; want pending, due now, none counted",
			got.State, got.NextAttempt, got.Attempts)
	}

	startDaemon(t, data, args...)
	select {
	case <-delivered:
	case <-time.After(30 * time.Second):
		t.Fatal("the next start did not deliver the webhook")
	}
}
