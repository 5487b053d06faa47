package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestServeNotificationRetention: the daemon deletes, as it starts, the
// notifications done with (sent, dead letters) older than
// --notification-retention, in batches until none is left, and keeps
// those still to be sent and those sent since.
func TestServeNotificationRetention(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test; skipped in -short mode")
	}
	data := t.TempDir()
	ctx := context.Background()
	st, err := openStore(ctx, data, "")
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-100 * 24 * time.Hour)
	later := time.Now().Add(365 * 24 * time.Hour)
	enqueue := func(i int, due time.Time) *vigil.Notification {
		n := &vigil.Notification{Channel: "webhook", Target: fmt.Sprintf("https://hooks.example/%d", i),
			Payload: []byte(fmt.Sprintf(`{"n":%d}`, i)), NextAttempt: due}
		if err := st.EnqueueNotification(ctx, n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	const oldSent, oldDead = 1100, 20 // more than two of the daemon's batches
	for i := range oldSent + oldDead {
		n := enqueue(i, old)
		if i < oldSent {
			err = st.MarkNotificationSent(ctx, n.ID, old)
		} else {
			err = st.MarkNotificationDead(ctx, n.ID, "410 gone")
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	pending := enqueue(-1, later) // not due: the daemon leaves it alone
	sentSince := enqueue(-2, old)
	if err := st.MarkNotificationSent(ctx, sentSince.ID, later); err != nil {
		t.Fatal(err)
	}
	st.Close()
	// A store sets CreatedAt by its clock: a retention of a second takes
	// every entry made more than a second before the start.
	time.Sleep(1100 * time.Millisecond)
	d := startDaemon(t, data, "--notification-retention", "1s")
	want := fmt.Sprintf("deleted=%d", oldSent+oldDead)
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(d.stderr.String(), "old notifications deleted") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	d.stop(t)
	if log := d.stderr.String(); !strings.Contains(log, want) {
		t.Fatalf("the daemon's log does not say %q:\n%s", want, log)
	}
	db := openData(t, data)
	list, total, err := db.FindNotifications(ctx, vigil.NotificationFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if total != 2 || list[0].ID != pending.ID || list[0].State != vigil.NotificationPending || list[1].ID != sentSince.ID {
		t.Fatalf("left %d notifications: %+v; want the pending one %d and the one sent since, %d", total, list, pending.ID, sentSince.ID)
	}
}
