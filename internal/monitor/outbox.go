package monitor

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"runtime/debug"
	"strconv"
	"sync"
	"time"

	"github.com/vigil-web/vigil"
)

// Deliverer empties the notification outbox: it claims due entries under a
// lease, hands each to the Notifier of its channel, and records the result.
// Delivery is at least once: an entry is marked sent only after its channel
// accepted it, so a crash between the two re-delivers it when the lease
// ends (webhooks carry the entry id in X-Vigil-Delivery for receivers to
// deduplicate). A failed attempt is retried with exponential back-off; after
// MaxAttempts, or at once for a permanent error (code EINVALID), the entry
// becomes a dead letter, visible in the outbox with its last error.
type Deliverer struct {
	Store    vigil.OutboxStore
	Channels map[string]vigil.Notifier
	Logger   *slog.Logger
	// MessageLink, if not nil, returns the link to a sentinel's feed, as
	// Monitor.MessageLink does; with Sentinels, it gives each message the
	// feed link of its sentinel as it is when the message is delivered
	// (Message.FeedLink), not the one it was written with, which its
	// owner may have replaced since.
	MessageLink func(s *vigil.Sentinel) string
	Sentinels   SentinelFinder
	// Panicked, if not nil, is called for each delivery that panicked,
	// to count them: with PanicDelivery for a panic of the delivery (see
	// deliverGuarded), PanicNotifier for one a notifier recovered on a
	// goroutine of its own and returned as a *vigil.PanicError.
	Panicked func(in string)

	Lease       time.Duration // 2m: how long a claimed entry is hidden from other workers
	Batch       int           // 32 entries claimed at a time
	Workers     int           // 4 deliveries at once
	Timeout     time.Duration // 1m per delivery
	MaxAttempts int           // 8
	BaseBackoff time.Duration // 10s after the first failure, doubling
	MaxBackoff  time.Duration // 1h
	Now         func() time.Time
}

func (d *Deliverer) defaults() {
	if d.Lease <= 0 {
		d.Lease = 2 * time.Minute
	}
	if d.Batch <= 0 {
		d.Batch = 32
	}
	if d.Workers <= 0 {
		d.Workers = 4
	}
	if d.Timeout <= 0 {
		d.Timeout = time.Minute
	}
	if d.MaxAttempts <= 0 {
		d.MaxAttempts = 8
	}
	if d.BaseBackoff <= 0 {
		d.BaseBackoff = 10 * time.Second
	}
	if d.MaxBackoff <= 0 {
		d.MaxBackoff = time.Hour
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
}

// Backoff returns the delay before attempt number attempts+1, after
// attempts failed ones: BaseBackoff doubled each time, capped at
// MaxBackoff, with up to 10% jitter so that retries spread.
func Backoff(base, limit time.Duration, attempts int, jitter float64) time.Duration {
	d := base
	for i := 1; i < attempts && d < limit; i++ {
		d *= 2
	}
	d = min(d, limit)
	return d + time.Duration(float64(d)*0.1*jitter)
}

// Run delivers until ctx ends, polling the outbox every poll when it is
// empty. kick, if not nil, wakes it early (the pipeline kicks it after
// enqueueing).
func (d *Deliverer) Run(ctx context.Context, poll time.Duration, kick <-chan struct{}) error {
	d.defaults()
	for {
		n, err := d.RunOnce(ctx)
		if err != nil && ctx.Err() == nil {
			d.Logger.Error("deliver notifications", LogError, err)
		}
		if n > 0 && err == nil {
			continue
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(poll):
		case <-kick:
		}
	}
}

// RunOnce claims one batch and delivers it; it returns how many entries it
// handled. The entries to one address (a channel's target) are delivered
// one after the other, in the order they were claimed, which is the order
// they were queued (vigil.OutboxStore.ClaimNotifications, which also
// holds back, across claims and daemons, those after one not delivered
// yet): the notices of one check arrive in the order the check found
// their changes, as a reader of them expects. Up to Workers addresses are delivered to at once. When an
// entry is not delivered (it failed, to be retried after its back-off;
// the stop came), those after it to the same address are given back due
// when it is, after it in the claim order, rather than delivered before
// it; so is the rest of an address's entries whose claim's lease would
// end before another delivery could (Timeout), due now, so that no other
// worker claims them while they are delivered here (the first of them
// is delivered whatever its lease, as every entry was). Before, every entry
// of the batch was delivered at once, by Workers workers: a user's two
// emails of one check could come in either order, and one retried came
// after the ones found after it.
func (d *Deliverer) RunOnce(ctx context.Context) (int, error) {
	d.defaults()
	batch, err := d.Store.ClaimNotifications(ctx, d.Now(), d.Lease, d.Batch)
	if err != nil {
		return 0, fmt.Errorf("claim notifications: %w", err)
	}
	if len(batch) == 0 {
		return 0, nil
	}
	type address struct{ channel, target string }
	var order []address
	queues := map[address][]*vigil.Notification{}
	for _, n := range batch {
		a := address{n.Channel, n.Target}
		if queues[a] == nil {
			order = append(order, a)
		}
		queues[a] = append(queues[a], n)
	}
	sem := make(chan struct{}, d.Workers)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	fail := func(err error) {
		if err != nil {
			mu.Lock()
			errs = append(errs, err)
			mu.Unlock()
		}
	}
	for _, a := range order {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			queue := queues[a]
			for i, n := range queue {
				if i > 0 && d.Now().Add(d.Timeout).After(n.NextAttempt) {
					// Its lease would end while it is delivered (the
					// first is, as it always was, whatever its lease).
					d.giveBack(queue[i:], d.Now(), fail)
					return
				}
				held, err := d.deliverGuarded(ctx, n)
				fail(err)
				if !held.IsZero() {
					d.giveBack(queue[i+1:], held, fail)
					return
				}
			}
		}()
	}
	wg.Wait()
	return len(batch), errors.Join(errs...)
}

// giveBack gives back the claims of entries, due at at (the time the entry
// before them to their address is due again), calling fail with each
// store error.
func (d *Deliverer) giveBack(entries []*vigil.Notification, at time.Time, fail func(error)) {
	ctx, cancel := afterStop(context.Background())
	defer cancel()
	for _, n := range entries {
		fail(recorded(n.ID, "give back its claim", d.Store.ReleaseNotification(ctx, n.ID, n.Attempts, at)))
	}
}

// deliverGuarded is deliver, recovering a panic of the delivery (a bug
// in a channel's Notifier or in the message's rendering): one entry's bug
// must not stop the daemon, and every other delivery and check with it,
// and, its entry left claimed and retried after the restart, crash it
// again and again. The panic stays loud: it is logged at Error level
// with its stack (the entry's target, which may hold a secret, hidden
// from the panic's value as from an error's) and counted
// (Deliverer.Panicked), and the entry is recorded as a failed delivery,
// "internal error", retried after its back-off and dead after
// MaxAttempts, as one whose channel failed is.
// It returns, as deliver does, when the entry is due again if it was not
// delivered.
func (d *Deliverer) deliverGuarded(ctx context.Context, n *vigil.Notification) (held time.Time, err error) {
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		why := vigil.RedactURLs(vigil.RedactTarget(fmt.Sprint(r), n.Target))
		d.Logger.Error("delivery panicked", LogNotification, n.ID, LogChannel, n.Channel, LogAttempts, n.Attempts,
			"panic", why, "stack", string(debug.Stack()))
		if d.Panicked != nil {
			d.Panicked(PanicDelivery)
		}
		rctx, cancel := afterStop(ctx)
		defer cancel()
		if n.Attempts >= d.MaxAttempts {
			held, err = time.Time{}, recorded(n.ID, "record it dead", d.Store.MarkNotificationDead(rctx, n.ID, internalError))
			return
		}
		next := d.Now().Add(Backoff(d.BaseBackoff, d.MaxBackoff, n.Attempts, rand.Float64()))
		held, err = next, recorded(n.ID, "record its failure", d.Store.MarkNotificationFailed(rctx, n.ID, internalError, next))
	}()
	return d.deliver(ctx, n)
}

// deliver attempts one entry (Attempts already counts this attempt) and
// records the outcome. It returns, when the entry was not delivered and
// stays to be (it failed and is retried, its claim was given back or is
// left to its lease), when it is due again, which the entries after it to
// its address wait for; zero when it was sent or is dead. The returned
// error is a store failure only.
func (d *Deliverer) deliver(ctx context.Context, n *vigil.Notification) (time.Time, error) {
	log := d.Logger.With(LogNotification, n.ID, LogChannel, n.Channel)
	ch := d.Channels[n.Channel]
	if ch == nil {
		log.Warn("no notifier for channel; dead letter")
		return time.Time{}, recorded(n.ID, "record it dead", d.Store.MarkNotificationDead(ctx, n.ID, "channel "+n.Channel+" is not configured"))
	}
	if ctx.Err() != nil {
		return d.Now(), d.release(n) // claimed in a batch the stop cut short
	}
	m, err := n.Message()
	if err != nil {
		return time.Time{}, recorded(n.ID, "record it dead", d.Store.MarkNotificationDead(ctx, n.ID, "payload: "+err.Error()))
	}
	// A subject queued by a Vigil older than the cap (subjectLine) is
	// capped as it is delivered.
	m.Subject = clip(m.Subject, maxSubject)
	if err := d.relink(ctx, n, m); err != nil {
		if ctx.Err() != nil {
			return d.Now(), d.release(n) // the stop cut its store read short
		}
		// Left claimed: the lease brings it back, to be tried again.
		return n.NextAttempt, fmt.Errorf("notification %d: %w", n.ID, err)
	}
	dctx := vigil.WithDeliveryID(ctx, strconv.FormatInt(n.ID, 10))
	if n.UserID > 0 {
		dctx = vigil.WithDeliveryUser(dctx, n.UserID) // a webhook signs under the owner's key too
	}
	dctx, cancel := context.WithTimeout(dctx, d.Timeout)
	err = ch.Notify(dctx, n.Target, m)
	cancel()
	if err == nil {
		// Recorded even if the stop came meanwhile: the receiver has it,
		// and an entry left claimed is delivered again.
		log.Info("notification sent", LogAttempts, n.Attempts)
		rctx, cancel := afterStop(ctx)
		defer cancel()
		return time.Time{}, recorded(n.ID, "record it sent", d.Store.MarkNotificationSent(rctx, n.ID, d.Now()))
	}
	if ctx.Err() != nil {
		// Shutting down: give the claim back, so that the next start
		// delivers the entry at once, not when the lease ends (the
		// receiver may have had it: delivery is at least once).
		return d.Now(), d.release(n)
	}
	why := vigil.RedactURLs(vigil.RedactTarget(err.Error(), n.Target)) // the target's secrets stay out of logs and the store
	// A notifier's panic (a bug in its library) fails the delivery as an
	// error does, retried as one; it is logged with its stack, and counted.
	reportPanic(log, d.Panicked, PanicNotifier, "notifier panicked", err, why, LogAttempts, n.Attempts)
	if vigil.ErrorCode(err) == vigil.EINVALID || n.Attempts >= d.MaxAttempts {
		log.Warn("notification dead", LogAttempts, n.Attempts, LogError, why)
		return time.Time{}, recorded(n.ID, "record it dead", d.Store.MarkNotificationDead(ctx, n.ID, why))
	}
	next := d.Now().Add(Backoff(d.BaseBackoff, d.MaxBackoff, n.Attempts, rand.Float64()))
	log.Info("notification failed; will retry", LogAttempts, n.Attempts, LogError, why, "next", next)
	return next, recorded(n.ID, "record its failure", d.Store.MarkNotificationFailed(ctx, n.ID, why, next))
}

// release gives back the claim of n, whose delivery a stop interrupted,
// with a context of its own: the delivery's has ended.
func (d *Deliverer) release(n *vigil.Notification) error {
	ctx, cancel := afterStop(context.Background())
	defer cancel()
	return recorded(n.ID, "give back its claim", d.Store.ReleaseNotification(ctx, n.ID, n.Attempts, d.Now()))
}

// afterStop returns a context for a record that must be made even when
// ctx, the delivery's, has ended (a stop): ctx's values, without its
// cancellation, for at most 10 seconds.
func afterStop(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
}

// recorded wraps err, a store failure to record what became of
// notification id, with the notification and what was being recorded; nil
// stays nil.
func recorded(id int64, what string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("notification %d: %s: %w", id, what, err)
}
