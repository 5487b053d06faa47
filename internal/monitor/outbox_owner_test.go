package monitor

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestDelivererPassesOwner: the notifier learns, with the delivery id,
// the user who owns each entry (vigil.DeliveryUser), which a webhook signs
// for; an entry nobody owns carries none.
func TestDelivererPassesOwner(t *testing.T) {
	ctx := context.Background()
	now := time.Unix(1_000_000, 0)
	store := newMemOutbox()
	type passed struct {
		owner int64
		ok    bool
	}
	var mu sync.Mutex
	got := map[string]passed{}
	ch := vigil.NotifierFunc(func(ctx context.Context, target string, m *vigil.Message) error {
		owner, ok := vigil.DeliveryUser(ctx)
		mu.Lock()
		defer mu.Unlock()
		got[target] = passed{owner, ok}
		return nil
	})
	d := &Deliverer{Store: store, Channels: map[string]vigil.Notifier{"test": ch}, Workers: 1,
		MaxAttempts: 4, BaseBackoff: time.Second, MaxBackoff: 8 * time.Second, Now: func() time.Time { return now }}
	for target, owner := range map[string]int64{"ada's": 3, "bob's": 4, "nobody's": 0} {
		if err := store.EnqueueNotification(ctx, &vigil.Notification{UserID: owner, Channel: "test", Target: target, Payload: []byte(`{"subject":"hi"}`)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := d.RunOnce(ctx); err != nil {
		t.Fatal(err)
	}
	want := map[string]passed{"ada's": {3, true}, "bob's": {4, true}, "nobody's": {0, false}}
	for target, w := range want {
		if g, seen := got[target]; !seen || g != w {
			t.Errorf("%s: the notifier had owner %d (%v), want %d (%v); delivered: %v", target, g.owner, g.ok, w.owner, w.ok, seen)
		}
	}
}
