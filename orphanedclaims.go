package vigil

import (
	"context"
	"time"
)

// OrphanedClaimStore is implemented by a store that one process at a time
// works from: SQLite, whose data directory vigil serve locks for one
// daemon. Such a process, once it holds the store and before it claims
// anything, knows that every claim still held (SentinelStore's
// ClaimDueSentinels, OutboxStore's ClaimNotifications) was left by a
// previous process that ended without giving it back (killed, crashed),
// and gives them back at once rather than wait for their leases to end.
// A store that processes share (PostgreSQL) does not implement it: a
// claim there may be another live daemon's, and ends with its lease.
type OrphanedClaimStore interface {
	// ReleaseOrphanedClaims gives back every claim still held: each
	// sentinel whose NextCheck is still its last claim's lease end, and
	// each pending or failed outbox entry whose NextAttempt is still its
	// last claim's lease end, becomes due at now (or stays due when its
	// lease ended already). An entry's interrupted attempt stays counted
	// (it may have been sent), as when its lease runs out. Claims ended
	// otherwise (checked, delivered, released, edited) are left alone.
	// It returns the number of sentinels and of entries given back.
	ReleaseOrphanedClaims(ctx context.Context, now time.Time) (sentinels, notifications int, err error)
}
