package monitor

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/vigil-web/vigil"
)

// DefaultNotificationRetention is how long the outbox keeps the entries
// done with (sent, and dead letters) when the daemon is not told
// otherwise: the Notifications page lists them, and offers the retry of a
// dead letter, for that long.
const DefaultNotificationRetention = 90 * 24 * time.Hour

// OutboxRetention deletes the entries of the notification outbox that are
// done with (sent ones, and dead letters) once they are older than Keep
// (vigil.OutboxStore.DeleteNotificationsBefore, which keeps every entry
// still to be sent, and a sent one while a sibling may yet be retried),
// so that the outbox of a daemon that runs for years does not grow
// without bound. The digests and feeds read changes, not the outbox:
// they lose nothing. It deletes in batches of Batch entries, each its own
// short transaction, pausing Pause between them, so that the first run
// on a large outbox holds no other write for long.
type OutboxRetention struct {
	Store  vigil.OutboxStore
	Logger *slog.Logger

	Keep  time.Duration // how long an entry is kept after it was last touched; 0 or less keeps every entry
	Every time.Duration // 1h between two runs
	Batch int           // 500 entries deleted in one transaction
	Pause time.Duration // 50ms between two batches
	Now   func() time.Time
}

func (r *OutboxRetention) defaults() {
	if r.Every <= 0 {
		r.Every = time.Hour
	}
	if r.Batch <= 0 {
		r.Batch = 500
	}
	if r.Pause <= 0 {
		r.Pause = 50 * time.Millisecond
	}
	if r.Now == nil {
		r.Now = time.Now
	}
	if r.Logger == nil {
		r.Logger = slog.New(slog.DiscardHandler)
	}
}

// Run deletes what is older than Keep at once, then every Every, until ctx
// ends. A run that fails is logged and tried again at the next one. With
// Keep 0 or less it keeps everything and returns nil at once.
func (r *OutboxRetention) Run(ctx context.Context) error {
	r.defaults()
	if r.Keep <= 0 {
		return nil
	}
	for {
		if _, err := r.RunOnce(ctx); err != nil && ctx.Err() == nil {
			r.Logger.Error("delete old notifications", LogError, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(r.Every):
		}
	}
}

// RunOnce deletes, batch after batch, the entries done with that were
// last touched more than Keep ago, until a batch deletes fewer than
// Batch, and returns how many it deleted. Each batch reads the time
// afresh. With Keep 0 or less it deletes nothing.
func (r *OutboxRetention) RunOnce(ctx context.Context) (int, error) {
	r.defaults()
	if r.Keep <= 0 {
		return 0, nil
	}
	total := 0
	defer func() {
		if total > 0 {
			r.Logger.Info("old notifications deleted", LogDeleted, total, LogKeptFor, r.Keep.String())
		}
	}()
	for {
		n, err := r.Store.DeleteNotificationsBefore(ctx, r.Now().Add(-r.Keep), r.Batch)
		total += n
		if err != nil {
			return total, fmt.Errorf("delete the notifications done with %v ago: %w", r.Keep, err)
		}
		if n < r.Batch {
			return total, nil
		}
		select {
		case <-ctx.Done():
			return total, ctx.Err()
		case <-time.After(r.Pause):
		}
	}
}
