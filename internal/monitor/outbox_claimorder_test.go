package monitor

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// TestDelivererKeepsOrderAcrossClaims: the messages to one address
// arrive in the order they were queued though they are not claimed
// together: one queued after one refused (451, retried later), the one
// after a batch's limit, and one claimed by a second deliverer sharing
// the store while the first sends those before it. Each came before
// those queued before it, which the store handed out while they were
// waiting for their retry or claimed.
func TestDelivererKeepsOrderAcrossClaims(t *testing.T) {
	for _, tc := range []struct {
		name    string
		first   int  // messages queued before the first run
		then    int  // messages queued after it
		refused int  // of the first, refused (451)
		second  bool // a second deliverer runs while the first sends
	}{
		{"one queued after one refused", 1, 1, 1, false},
		{"one more than a batch, the first refused", 33, 0, 1, false},
		{"a second deliverer, the first slow", 33, 0, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			db, _, u := testStore(t)
			box, mailer := startOrderSMTP(t)
			const jill = "jill@example.test"
			box.refused, box.fail, box.slow = jill, tc.refused, "s: change 01"
			var mu sync.Mutex
			now := time.Now().UTC().Truncate(time.Second)
			clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
			var want []string
			enqueue := func(count int) {
				for range count {
					subject := fmt.Sprintf("s: change %02d", len(want)+1)
					want = append(want, subject)
					payload, _ := json.Marshal(&vigil.Message{SentinelName: "s", Subject: subject, Text: subject})
					if err := db.EnqueueNotification(ctx, &vigil.Notification{UserID: u.ID, Channel: "email", Target: jill, Payload: payload, NextAttempt: clock()}); err != nil {
						t.Fatal(err)
					}
				}
			}
			deliverer := func() *Deliverer {
				return &Deliverer{Store: db, Channels: map[string]vigil.Notifier{"email": mailer}, Batch: 32,
					BaseBackoff: time.Second, MaxBackoff: time.Second, Now: clock}
			}
			d, other := deliverer(), deliverer()
			enqueue(tc.first)
			var wg sync.WaitGroup
			wg.Add(1)
			go func() {
				defer wg.Done()
				if _, err := d.RunOnce(ctx); err != nil {
					t.Error(err)
				}
			}()
			if tc.second {
				time.Sleep(100 * time.Millisecond) // the first is sending its first message
				if _, err := other.RunOnce(ctx); err != nil {
					t.Fatal(err)
				}
			}
			wg.Wait()
			enqueue(tc.then)
			// At once, before the refused one is due again.
			if _, err := d.RunOnce(ctx); err != nil {
				t.Fatal(err)
			}
			if got := box.of(jill); len(got) > 0 && tc.refused > 0 {
				t.Fatalf("while the first waits for its retry, jill received %q", got)
			}
			for range 4 {
				mu.Lock()
				now = now.Add(2 * time.Second)
				mu.Unlock()
				if _, err := d.RunOnce(ctx); err != nil {
					t.Fatal(err)
				}
			}
			if got := box.of(jill); !slices.Equal(got, want) {
				t.Errorf("jill received\n%q\nwant, in the order queued,\n%q", got, want)
			}
		})
	}
}
