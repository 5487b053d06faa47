package monitor

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestDelivererPanicRecovered: a delivery whose channel panics does not
// take the daemon down (its entry, left claimed, would crash it again
// after each restart): the entry is recorded as failed, "internal error",
// retried after its back-off as a failed delivery is, while the other
// entries of the batch are delivered. The panic is logged at Error level
// with the entry, its channel and its stack, its target's secrets hidden,
// and counted (Deliverer.Panicked).
func TestDelivererPanicRecovered(t *testing.T) {
	ctx := context.Background()
	now := time.Unix(1_000_000, 0)
	store := newMemOutbox()
	const target = "https://hooks.example.org/x?token=S3CRET"
	var sent []string
	boom := vigil.NotifierFunc(func(ctx context.Context, target string, m *vigil.Message) error {
		panic("webhook broke on " + target)
	})
	ok := vigil.NotifierFunc(func(ctx context.Context, target string, m *vigil.Message) error {
		sent = append(sent, target)
		return nil
	})
	var logs syncBuffer
	panics := 0
	var in string
	d := &Deliverer{Store: store, Channels: map[string]vigil.Notifier{"boom": boom, "ok": ok}, Workers: 1,
		MaxAttempts: 4, BaseBackoff: time.Minute, MaxBackoff: time.Hour, Now: func() time.Time { return now },
		Logger: slog.New(slog.NewJSONHandler(&logs, nil)), Panicked: func(where string) { panics++; in = where }}
	bad := &vigil.Notification{Channel: "boom", Target: target, Payload: []byte(`{"subject":"hi","text":"x"}`)}
	good := &vigil.Notification{Channel: "ok", Target: "fine", Payload: []byte(`{"subject":"hi","text":"x"}`)}
	store.EnqueueNotification(ctx, bad)
	store.EnqueueNotification(ctx, good)
	if _, err := d.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	if len(sent) != 1 || sent[0] != "fine" {
		t.Errorf("sent %q; want the other entry delivered", sent)
	}
	n, err := store.FindNotificationByID(ctx, bad.ID)
	if err != nil {
		t.Fatal(err)
	}
	if n.State != vigil.NotificationFailed || n.LastError != internalError || !n.NextAttempt.After(now) {
		t.Errorf("the panicking entry is %s, %q, next at %v; want failed, %q, after its back-off", n.State, n.LastError, n.NextAttempt, internalError)
	}
	if panics != 1 || in != PanicDelivery {
		t.Errorf("%d panics counted, in %q; want 1, in %q", panics, in, PanicDelivery)
	}
	log := logs.String()
	if !strings.Contains(log, `"level":"ERROR","msg":"delivery panicked"`) || !strings.Contains(log, "webhook broke on") ||
		!strings.Contains(log, `"stack":"goroutine`) || !strings.Contains(log, `"channel":"boom"`) {
		t.Errorf("the panic is not logged with its entry, channel, value and stack:\n%s", log)
	}
	if strings.Contains(log, "S3CRET") {
		t.Errorf("the log names the target's secret:\n%s", log)
	}
}

// TestDelivererNotifierPanic: a notifier that recovers a panic on a
// goroutine of its own and returns it (a *vigil.PanicError, as chat does
// for its library's) fails the delivery as an error does: the entry is
// failed with the panic's text, its target's secrets hidden, and retried
// after its back-off; the panic is logged at Error level with its stack
// and counted as a notifier's (PanicNotifier).
func TestDelivererNotifierPanic(t *testing.T) {
	ctx := context.Background()
	now := time.Unix(1_000_000, 0)
	store := newMemOutbox()
	const target = "https://hooks.example.org/x?token=S3CRET"
	boom := vigil.NotifierFunc(func(ctx context.Context, target string, m *vigil.Message) error {
		return fmt.Errorf("chat generic: %w", <-vigil.Go(func() error { panic("webhook broke on " + target) }))
	})
	var logs syncBuffer
	var panics []string
	d := &Deliverer{Store: store, Channels: map[string]vigil.Notifier{"boom": boom}, Workers: 1,
		MaxAttempts: 4, BaseBackoff: time.Minute, MaxBackoff: time.Hour, Now: func() time.Time { return now },
		Logger: slog.New(slog.NewJSONHandler(&logs, nil)), Panicked: func(in string) { panics = append(panics, in) }}
	bad := &vigil.Notification{Channel: "boom", Target: target, Payload: []byte(`{"subject":"hi","text":"x"}`)}
	store.EnqueueNotification(ctx, bad)
	if _, err := d.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	n, err := store.FindNotificationByID(ctx, bad.ID)
	if err != nil {
		t.Fatal(err)
	}
	const want = "chat generic: panic: webhook broke on https://hooks.example.org/…"
	if n.State != vigil.NotificationFailed || n.LastError != want || !n.NextAttempt.After(now) {
		t.Errorf("the entry is %s, %q, next at %v; want failed, %q, after its back-off", n.State, n.LastError, n.NextAttempt, want)
	}
	if len(panics) != 1 || panics[0] != PanicNotifier {
		t.Errorf("panics counted %v; want [%s]", panics, PanicNotifier)
	}
	log := logs.String()
	if !strings.Contains(log, `"level":"ERROR","msg":"notifier panicked"`) || !strings.Contains(log, `"stack":"goroutine`) ||
		!strings.Contains(log, `"channel":"boom"`) {
		t.Errorf("the panic is not logged with its entry, channel and stack:\n%s", log)
	}
	if strings.Contains(log, "S3CRET") {
		t.Errorf("the log names the target's secret:\n%s", log)
	}
}
