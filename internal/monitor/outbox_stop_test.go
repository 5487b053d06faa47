package monitor

import (
	"context"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// sentinelFinderFunc adapts a function to SentinelFinder.
type sentinelFinderFunc func(ctx context.Context, id int64) (*vigil.Sentinel, error)

var _ SentinelFinder = sentinelFinderFunc(nil)

func (f sentinelFinderFunc) FindSentinelByID(ctx context.Context, id int64) (*vigil.Sentinel, error) {
	return f(ctx, id)
}

// TestDelivererStopRecordsWhatBecameOfIt: a stop that comes while an
// entry is delivered leaves the SQLite store saying what became of it.
// Delivered just as the stop came, it is recorded sent; the record was
// made with the stopped context, failed, and the entry, left claimed, was
// delivered again when its lease ended. Stopped while the message was
// being given its feed link (a store read), it is given back, due at
// once; it was left claimed until its lease ended.
func TestDelivererStopRecordsWhatBecameOfIt(t *testing.T) {
	for _, tc := range []struct {
		name string
		// wire makes d stop (cancel) during the delivery.
		wire      func(d *Deliverer, cancel context.CancelFunc)
		wantState vigil.NotificationState
		// wantAttempts is the entry's Attempts after the stop: 1 for an
		// attempt made, 0 for a claim given back.
		wantAttempts int
	}{
		{"delivered as the stop came", func(d *Deliverer, cancel context.CancelFunc) {
			d.Channels["test"] = vigil.NotifierFunc(func(context.Context, string, *vigil.Message) error {
				cancel()
				return nil
			})
		}, vigil.NotificationSent, 1},
		{"stopped while given its feed link", func(d *Deliverer, cancel context.CancelFunc) {
			d.MessageLink = func(*vigil.Sentinel) string { return "https://vigil.example/feed" }
			d.Sentinels = sentinelFinderFunc(func(ctx context.Context, _ int64) (*vigil.Sentinel, error) {
				cancel()
				return nil, ctx.Err()
			})
			d.Channels["test"] = vigil.NotifierFunc(func(context.Context, string, *vigil.Message) error {
				t.Error("delivered after the stop")
				return nil
			})
		}, vigil.NotificationPending, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db, _, _ := testStore(t)
			now := time.Now().UTC().Truncate(time.Second)
			n := &vigil.Notification{Channel: "test", Target: "t", NextAttempt: now,
				Payload: []byte(`{"subject":"hi","text":"x","sentinelId":1,"feedLink":"https://vigil.example/old"}`)}
			if err := db.EnqueueNotification(context.Background(), n); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			d := &Deliverer{Store: db, Channels: map[string]vigil.Notifier{}, Workers: 1, Lease: time.Hour,
				Now: func() time.Time { return now }}
			tc.wire(d, cancel)
			d.RunOnce(ctx)
			got, err := db.FindNotificationByID(context.Background(), n.ID)
			if err != nil {
				t.Fatal(err)
			}
			given := tc.wantState == vigil.NotificationPending // due at once, not when the lease ends
			if got.State != tc.wantState || got.Attempts != tc.wantAttempts || given && got.NextAttempt.After(now) {
				t.Errorf("after the stop: %s, %d attempts, next attempt %v; want %s, %d, due by %v",
					got.State, got.Attempts, got.NextAttempt, tc.wantState, tc.wantAttempts, now)
			}
		})
	}
}
