package monitor

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// brokenOutbox is a memOutbox whose claims, or whose records of a
// delivery, fail as a store whose connection was cut does.
type brokenOutbox struct {
	*memOutbox
	claim, mark error
}

func (b *brokenOutbox) ClaimNotifications(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]*vigil.Notification, error) {
	if b.claim != nil {
		return nil, b.claim
	}
	return b.memOutbox.ClaimNotifications(ctx, now, lease, limit)
}

func (b *brokenOutbox) MarkNotificationSent(ctx context.Context, id int64, at time.Time) error {
	if b.mark != nil {
		return b.mark
	}
	return b.memOutbox.MarkNotificationSent(ctx, id, at)
}

func (b *brokenOutbox) MarkNotificationFailed(ctx context.Context, id int64, msg string, next time.Time) error {
	if b.mark != nil {
		return b.mark
	}
	return b.memOutbox.MarkNotificationFailed(ctx, id, msg, next)
}

// TestDelivererStoreErrorsSayWhat: a store failure of the delivery loop
// says what it was doing, and of which notification, and the daemon's log
// line says it was delivering notifications; with a PostgreSQL connection
// cut, the log said only `msg=outbox err="FATAL: terminating connection
// ..."`.
func TestDelivererStoreErrorsSayWhat(t *testing.T) {
	ctx := context.Background()
	cut := errors.New("FATAL: terminating connection due to administrator command (SQLSTATE 57P01)")
	sent := vigil.NotifierFunc(func(context.Context, string, *vigil.Message) error { return nil })
	failed := vigil.NotifierFunc(func(context.Context, string, *vigil.Message) error { return errors.New("connection refused") })
	for _, tc := range []struct {
		name       string
		claim      error
		mark       error
		channel    vigil.Notifier
		wantPrefix string
	}{
		{"claim", cut, nil, sent, "claim notifications: "},
		{"record sent", nil, cut, sent, "notification 1: record it sent: "},
		{"record failed", nil, cut, failed, "notification 1: record its failure: "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := &brokenOutbox{memOutbox: newMemOutbox()}
			store.EnqueueNotification(ctx, &vigil.Notification{Channel: "test", Target: "t", Payload: []byte(`{"subject":"hi","text":"x"}`)})
			store.claim, store.mark = tc.claim, tc.mark
			var log bytes.Buffer
			d := &Deliverer{Store: store, Channels: map[string]vigil.Notifier{"test": tc.channel}, Workers: 1, MaxAttempts: 4,
				Logger: slog.New(slog.NewTextHandler(&log, nil))}
			_, err := d.RunOnce(ctx)
			if err == nil || !strings.HasPrefix(err.Error(), tc.wantPrefix) || !errors.Is(err, cut) {
				t.Errorf("RunOnce: %v, want %q and the store's error", err, tc.wantPrefix)
			}
			store.claim = cut
			runCtx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
			defer cancel()
			d.Run(runCtx, time.Hour, nil)
			if !strings.Contains(log.String(), `msg="deliver notifications"`) || !strings.Contains(log.String(), "claim notifications: FATAL") {
				t.Errorf("the log does not say what failed:\n%s", log.String())
			}
		})
	}
}
