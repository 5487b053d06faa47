package storetest

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// testOutboxHeadConcurrent: workers that record at once the first
// messages to an address sent, while another is queued to it, leave the
// next one to be claimed: a claim reads the first undelivered message of
// each address (its head), which each such write marks anew, and two
// that each read the other's message as undelivered could each leave the
// mark to the other, the address's messages never claimed again.
func testOutboxHeadConcurrent(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	u := newUser(t, s, "ada@example.com")
	enqueue := func(now time.Time) int64 {
		n := &vigil.Notification{UserID: u.ID, Channel: "email", Target: "x@y", Payload: json.RawMessage(`{}`), NextAttempt: now}
		must(t, s.EnqueueNotification(ctx, n))
		return n.ID
	}
	for round := range 10 {
		now := t0.Add(time.Duration(round) * time.Hour)
		a, b, c := enqueue(now), enqueue(now), enqueue(now)
		wantClaimed(t, "the first two", claimIDs(t, s, now, 2), a, b)
		var d int64
		var wg sync.WaitGroup
		errs := make([]error, 3)
		wg.Go(func() { errs[0] = s.MarkNotificationSent(ctx, a, now) })
		wg.Go(func() { errs[1] = s.MarkNotificationSent(ctx, b, now) })
		wg.Go(func() {
			n := &vigil.Notification{UserID: u.ID, Channel: "email", Target: "x@y", Payload: json.RawMessage(`{}`), NextAttempt: now}
			errs[2] = s.EnqueueNotification(ctx, n)
			d = n.ID
		})
		wg.Wait()
		for _, err := range errs {
			must(t, err)
		}
		wantClaimed(t, "the next ones", claimIDs(t, s, now, 10), c, d)
		must(t, s.MarkNotificationSent(ctx, c, now))
		must(t, s.MarkNotificationSent(ctx, d, now))
	}
}
