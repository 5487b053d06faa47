package monitor

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// memOutbox is an in-memory vigil.OutboxStore for unit tests of the
// delivery loop.
type memOutbox struct {
	mu    sync.Mutex
	items map[int64]*vigil.Notification
	next  int64
}

var _ vigil.OutboxStore = (*memOutbox)(nil)

func newMemOutbox() *memOutbox { return &memOutbox{items: map[int64]*vigil.Notification{}} }

func (m *memOutbox) EnqueueNotification(_ context.Context, n *vigil.Notification) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.next++
	n.ID, n.State = m.next, vigil.NotificationPending
	c := *n
	m.items[n.ID] = &c
	return nil
}
func (m *memOutbox) FindNotificationByID(_ context.Context, id int64) (*vigil.Notification, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n, ok := m.items[id]
	if !ok {
		return nil, vigil.Errorf(vigil.ENOTFOUND, "no")
	}
	c := *n
	return &c, nil
}
func (m *memOutbox) FindNotifications(context.Context, vigil.NotificationFilter) ([]*vigil.Notification, int, error) {
	return nil, 0, nil
}
func (m *memOutbox) ClaimNotifications(_ context.Context, now time.Time, lease time.Duration, limit int) ([]*vigil.Notification, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*vigil.Notification
	ids := make([]int64, 0, len(m.items))
	for id := range m.items {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for _, id := range ids {
		n := m.items[id]
		if (n.State == vigil.NotificationPending || n.State == vigil.NotificationFailed) && !n.NextAttempt.After(now) && len(out) < limit {
			n.NextAttempt = now.Add(lease)
			n.Attempts++
			c := *n
			out = append(out, &c)
		}
	}
	return out, nil
}
func (m *memOutbox) set(id int64, f func(n *vigil.Notification)) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	n, ok := m.items[id]
	if !ok {
		return vigil.Errorf(vigil.ENOTFOUND, "no")
	}
	f(n)
	return nil
}
func (m *memOutbox) ReleaseNotification(_ context.Context, id int64, attempts int, now time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if n, ok := m.items[id]; ok && n.Attempts == attempts && (n.State == vigil.NotificationPending || n.State == vigil.NotificationFailed) {
		n.NextAttempt, n.Attempts = now, n.Attempts-1
	}
	return nil
}
func (m *memOutbox) MarkNotificationSent(_ context.Context, id int64, at time.Time) error {
	return m.set(id, func(n *vigil.Notification) { n.State, n.SentAt = vigil.NotificationSent, at })
}
func (m *memOutbox) MarkNotificationFailed(_ context.Context, id int64, msg string, next time.Time) error {
	return m.set(id, func(n *vigil.Notification) { n.State, n.LastError, n.NextAttempt = vigil.NotificationFailed, msg, next })
}
func (m *memOutbox) MarkNotificationDead(_ context.Context, id int64, msg string) error {
	return m.set(id, func(n *vigil.Notification) { n.State, n.LastError = vigil.NotificationDead, msg })
}
func (m *memOutbox) RetryNotification(_ context.Context, id int64, r vigil.NotificationRetry) error {
	return m.set(id, func(n *vigil.Notification) {
		n.State, n.Attempts, n.NextAttempt = vigil.NotificationPending, 0, r.At
		n.Target = cmp.Or(r.Target, n.Target)
	})
}

func (m *memOutbox) FindNotificationSibling(context.Context, int64, string) (*vigil.Notification, error) {
	return nil, vigil.Errorf(vigil.ENOTFOUND, "no sibling")
}

func TestDeliverer(t *testing.T) {
	ctx := context.Background()
	now := time.Unix(1_000_000, 0)
	store := newMemOutbox()
	var sent []string
	failures := map[string]int{"flaky": 2, "down": 100}
	ch := vigil.NotifierFunc(func(ctx context.Context, target string, m *vigil.Message) error {
		if id, ok := vigil.DeliveryID(ctx); !ok || id == "" {
			t.Error("no delivery id")
		}
		if target == "bad" {
			return vigil.Errorf(vigil.EINVALID, "malformed")
		}
		if failures[target] > 0 {
			failures[target]--
			return errors.New("temporary")
		}
		sent = append(sent, target+":"+m.Subject)
		return nil
	})
	d := &Deliverer{Store: store, Channels: map[string]vigil.Notifier{"test": ch}, Workers: 1,
		MaxAttempts: 4, BaseBackoff: time.Second, MaxBackoff: 8 * time.Second, Now: func() time.Time { return now }}
	for _, target := range []string{"ok", "flaky", "down", "bad"} {
		store.EnqueueNotification(ctx, &vigil.Notification{Channel: "test", Target: target, Payload: []byte(`{"subject":"hi","text":"x"}`)})
	}
	store.EnqueueNotification(ctx, &vigil.Notification{Channel: "sms", Target: "x", Payload: []byte(`{}`)})
	for i := 0; i < 20; i++ {
		if _, err := d.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		now = now.Add(10 * time.Second)
	}
	want := map[string]vigil.NotificationState{"ok": vigil.NotificationSent, "flaky": vigil.NotificationSent,
		"down": vigil.NotificationDead, "bad": vigil.NotificationDead, "x": vigil.NotificationDead}
	for _, n := range store.items {
		if n.State != want[n.Target] {
			t.Errorf("%s: state %s, want %s (attempts %d, last error %q)", n.Target, n.State, want[n.Target], n.Attempts, n.LastError)
		}
	}
	if store.items[3].Attempts != 4 || store.items[4].Attempts != 1 {
		t.Errorf("attempts: down %d (want 4), bad %d (want 1)", store.items[3].Attempts, store.items[4].Attempts)
	}
	if len(sent) != 2 {
		t.Errorf("sent %v", sent)
	}
}

func TestBackoff(t *testing.T) {
	for _, tc := range []struct {
		attempts int
		want     time.Duration
	}{{1, time.Second}, {2, 2 * time.Second}, {3, 4 * time.Second}, {5, 16 * time.Second}, {30, time.Minute}} {
		if got := Backoff(time.Second, time.Minute, tc.attempts, 0); got != tc.want {
			t.Errorf("Backoff(%d) = %v, want %v", tc.attempts, got, tc.want)
		}
	}
	if got := Backoff(time.Second, time.Minute, 1, 1); got != 1100*time.Millisecond {
		t.Errorf("full jitter: %v", got)
	}
}

// TestDelivererKeepsSecretsOut fails deliveries with errors that quote
// their target's secret (net/http quotes the whole target; shoutrrr's
// Gotify quotes a bad token alone) and looks for the secret in the log and
// in the error the outbox keeps.
func TestDelivererKeepsSecretsOut(t *testing.T) {
	for _, tc := range []struct {
		target string
		fail   func(target string) error
	}{
		{"https://hooks.example.org/x?token=S3CRET", func(target string) error {
			return fmt.Errorf("webhook: %w", &url.Error{Op: "Post", URL: target, Err: errors.New("connection refused")})
		}},
		{"gotify://hooks.example.org/AsuperS3CRETtok1", func(string) error {
			return errors.New(`chat gotify: failed to build request: invalid gotify token: "AsuperS3CRETtok1" (connection refused to hooks.example.org)`)
		}},
		{"ntfy://user:S3CRETpw@hooks.example.org/topic", func(string) error {
			return errors.New(`ntfy: auth failed for user with password S3CRETpw: connection refused at hooks.example.org`)
		}},
	} {
		ctx := context.Background()
		store := newMemOutbox()
		ch := vigil.NotifierFunc(func(ctx context.Context, target string, m *vigil.Message) error { return tc.fail(target) })
		var logged bytes.Buffer
		d := &Deliverer{Store: store, Channels: map[string]vigil.Notifier{"webhook": ch}, Workers: 1, MaxAttempts: 2,
			BaseBackoff: time.Second, MaxBackoff: time.Second, Now: time.Now, Logger: slog.New(slog.NewTextHandler(&logged, nil))}
		store.EnqueueNotification(ctx, &vigil.Notification{Channel: "webhook", Target: tc.target, Payload: []byte(`{}`)})
		if _, err := d.RunOnce(ctx); err != nil {
			t.Fatal(err)
		}
		n := store.items[1]
		if n.State != vigil.NotificationFailed || !strings.Contains(n.LastError, "connection refused") {
			t.Fatalf("%s: state %s, last error %q", tc.target, n.State, n.LastError)
		}
		for what, text := range map[string]string{"log": logged.String(), "last error": n.LastError} {
			if strings.Contains(text, "S3CRET") {
				t.Errorf("%s: the target's secret is in the %s: %s", tc.target, what, text)
			}
		}
		if !strings.Contains(logged.String(), "hooks.example.org") {
			t.Errorf("%s: the log does not say which host failed: %s", tc.target, logged.String())
		}
	}
}

func (m *memOutbox) DeleteNotificationsBefore(_ context.Context, before time.Time, limit int) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ids := make([]int64, 0, len(m.items))
	for id, n := range m.items {
		if (n.State == vigil.NotificationSent || n.State == vigil.NotificationDead) && n.NextAttempt.Before(before) {
			ids = append(ids, id)
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	if len(ids) > limit {
		ids = ids[:limit]
	}
	for _, id := range ids {
		delete(m.items, id)
	}
	return len(ids), nil
}
