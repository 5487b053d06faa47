package postgres

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/vigil-web/vigil"
)

// The outbox's retention deletes the entries done with, dead letters and
// then sent ones, by the index of the outbox's states and due times
// (notifications_due, 0001): each kind is read from its oldest due time
// (NextAttempt, a claim's lease end) up to the bound. No migration was
// needed. The entries are locked FOR UPDATE SKIP LOCKED, as the expired
// flashes are: a deletion waits for no other transaction, so that it
// cannot deadlock with one (a claim, a retry, a user's removal) nor
// hold one up for long, and one another daemon's deletion holds is left
// to it; the outbox's claim lock (lockOutbox) is not taken, as no
// pending or failed entry, which the claims lock, is touched. The states
// a sent entry's siblings must be in for it to go (sent, or dead as
// vigil.SentinelRemoved) are ones an entry never leaves, so that a
// sibling read in them by the statement's snapshot stays so.

// deleteDeadBeforeQuery deletes up to $3 dead letters whose next attempt
// ($1) and creation ($2) are before the bound.
const deleteDeadBeforeQuery = `DELETE FROM notifications WHERE id IN (
	SELECT id FROM notifications
	WHERE state = 'dead' AND next_attempt < ? AND created_at < ?
	ORDER BY next_attempt LIMIT ? FOR UPDATE SKIP LOCKED) AND state = 'dead'`

// deleteSentBeforeQuery deletes up to $7 sent entries whose next attempt
// ($1), creation ($2) and sending ($3) are before the bound, but none
// with a sibling (siblingQuery: the same change, or, of no change, the
// same user and payload, by the same channel) that is not sent and not
// a dead letter given up as its sentinel was removed ($4, $5, $6): one
// that may yet be retried to the sent one's target. Those of no change
// are among the letters of no change not sent, which the dead letters,
// kept as long as the sent ones, make many (tens of thousands from a
// broken target): a look through them all for each sent letter took
// seconds a batch. The digests of their payloads are read once into a
// hashed list (small enough for work_mem where the payloads would not
// be) each sent letter's is looked up in (payload is never NULL, so NOT
// IN is a lookup), and only a letter whose payload's digest is in it is
// looked for its siblings one by one.
const deleteSentBeforeQuery = `DELETE FROM notifications WHERE id IN (
	SELECT n.id FROM notifications n
	WHERE n.state = 'sent' AND n.next_attempt < ? AND n.created_at < ? AND n.sent_at < ?
	AND (n.change_id IS NULL OR NOT EXISTS (SELECT 1 FROM notifications o
		WHERE o.change_id = n.change_id AND o.channel = n.channel AND o.id <> n.id
		AND o.state <> 'sent' AND NOT (o.state = 'dead' AND o.last_error = ?)))
	AND (n.change_id IS NOT NULL OR sha256(n.payload) NOT IN (SELECT sha256(o.payload) FROM notifications o
		WHERE o.state IN ('pending', 'failed', 'dead') AND o.change_id IS NULL
		AND NOT (o.state = 'dead' AND o.last_error = ?))
	OR NOT EXISTS (SELECT 1 FROM notifications o
		WHERE o.state IN ('pending', 'failed', 'dead') AND o.change_id IS NULL AND o.user_id = n.user_id
		AND o.channel = n.channel AND o.id <> n.id AND o.payload = n.payload
		AND NOT (o.state = 'dead' AND o.last_error = ?)))
	ORDER BY n.next_attempt LIMIT ? FOR UPDATE OF n SKIP LOCKED) AND state = 'sent'`

// DeleteNotificationsBefore implements vigil.OutboxStore: the dead
// letters first, so that a sent letter whose dead sibling goes in the
// same call goes with it (the second statement sees what the first
// deleted). Neither kind is undelivered: no address's head
// (outboxhead.go) changes.
func (db *DB) DeleteNotificationsBefore(ctx context.Context, before time.Time, limit int) (int, error) {
	if limit <= 0 {
		return 0, vigil.Errorf(vigil.EINVALID, "notification deletion limit must be positive")
	}
	if before.IsZero() {
		return 0, nil
	}
	bound := tv(before.Truncate(time.Microsecond))
	var deleted int64
	err := db.update(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, q(deleteDeadBeforeQuery), bound, bound, limit)
		if err != nil {
			return fmt.Errorf("dead letters: %w", err)
		}
		if deleted, err = res.RowsAffected(); err != nil || deleted >= int64(limit) {
			return err
		}
		// The planner prices the look for each entry's siblings far above
		// what it reads (the few entries not sent), past the cost at
		// which it compiles the statement (JIT): the compilation took
		// longer than the deletion of a batch.
		if _, err := tx.ExecContext(ctx, "SET LOCAL jit = off"); err != nil {
			return fmt.Errorf("sent notifications: %w", err)
		}
		res, err = tx.ExecContext(ctx, q(deleteSentBeforeQuery), bound, bound, bound,
			vigil.SentinelRemoved, vigil.SentinelRemoved, vigil.SentinelRemoved, int64(limit)-deleted)
		if err != nil {
			return fmt.Errorf("sent notifications: %w", err)
		}
		n, err := res.RowsAffected()
		deleted += n
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("delete the notifications done with before %s: %w", before.UTC().Format(time.RFC3339), err)
	}
	return int(deleted), nil
}
