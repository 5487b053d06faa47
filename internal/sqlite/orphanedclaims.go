package sqlite

import (
	"context"
	"fmt"
	"time"

	"github.com/vigil-web/vigil"
)

var _ vigil.OrphanedClaimStore = (*DB)(nil)

// ReleaseOrphanedClaims implements vigil.OrphanedClaimStore: a claim is
// still held while the sentinel's next_check (the entry's next_attempt)
// is the lease end its claim recorded in claimed_until (migration
// 0124_claims.sql). It reads every sentinel and outbox entry once, at a
// daemon's start.
func (db *DB) ReleaseOrphanedClaims(ctx context.Context, now time.Time) (sentinels, notifications int, err error) {
	if err := vigil.CheckStorableTime("release time", now); err != nil {
		return 0, 0, err
	}
	err = db.update(ctx, func(tx execer) error {
		res, err := tx.ExecContext(ctx, `UPDATE sentinels SET next_check = ?, claimed_until = NULL
			WHERE claimed_until IS NOT NULL AND next_check = claimed_until AND next_check > ?`, tv(now), tv(now))
		if err != nil {
			return fmt.Errorf("sentinels: %w", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("sentinels: %w", err)
		}
		sentinels = int(n)
		res, err = tx.ExecContext(ctx, `UPDATE notifications SET next_attempt = ?, claimed_until = NULL
			WHERE claimed_until IS NOT NULL AND next_attempt = claimed_until AND next_attempt > ? AND state IN ('pending', 'failed')`,
			tv(now), tv(now))
		if err != nil {
			return fmt.Errorf("outbox entries: %w", err)
		}
		n, err = res.RowsAffected()
		if err != nil {
			return fmt.Errorf("outbox entries: %w", err)
		}
		notifications = int(n)
		return nil
	})
	if err != nil {
		return 0, 0, fmt.Errorf("release the claims a previous process left: %w", err)
	}
	return sentinels, notifications, nil
}
