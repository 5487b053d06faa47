package monitor

import (
	"context"
	"errors"
	"sort"
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
func (m *memOutbox) MarkNotificationSent(_ context.Context, id int64, at time.Time) error {
	return m.set(id, func(n *vigil.Notification) { n.State, n.SentAt = vigil.NotificationSent, at })
}
func (m *memOutbox) MarkNotificationFailed(_ context.Context, id int64, msg string, next time.Time) error {
	return m.set(id, func(n *vigil.Notification) { n.State, n.LastError, n.NextAttempt = vigil.NotificationFailed, msg, next })
}
func (m *memOutbox) MarkNotificationDead(_ context.Context, id int64, msg string) error {
	return m.set(id, func(n *vigil.Notification) { n.State, n.LastError = vigil.NotificationDead, msg })
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
