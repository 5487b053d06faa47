package sqlite

import (
	"context"
	"fmt"
	"time"

	"github.com/vigil-web/vigil"
)

// The outbox's retention deletes the entries done with, dead letters and
// then sent ones, by the index of the outbox's states and due times
// (notifications_due, 0001): each kind is read from its oldest due time
// (NextAttempt, a claim's lease end) up to the bound, so that a call
// reads the entries it deletes and those it keeps for a sibling, not
// the whole outbox. No migration was needed.

// deleteDeadBeforeQuery deletes up to $3 dead letters whose next attempt
// ($1) and creation ($2) are before the bound.
const deleteDeadBeforeQuery = `DELETE FROM notifications WHERE id IN (
	SELECT id FROM notifications INDEXED BY notifications_due
	WHERE state = 'dead' AND next_attempt < ? AND created_at < ?
	ORDER BY next_attempt LIMIT ?)`

// deleteSentBeforeQuery deletes up to $7 sent entries whose next attempt
// ($1), creation ($2) and sending ($3) are before the bound, but none
// with a sibling (siblingQuery: the same change, or, of no change, the
// same user and payload, by the same channel) that is not sent and not
// a dead letter given up as its sentinel was removed ($4, $5, $6): one
// that may yet be retried to the sent one's target. A letter's siblings
// of a change are read by the index of changes. Those of no change are
// among the letters of no change not sent, which the dead letters, kept
// as long as the sent ones, make many (tens of thousands from a broken
// target): a look through them all for each sent letter held the write
// lock for seconds a batch. Their payloads are read once, by the index
// of states, into a list each sent letter's is looked up in (a LIST
// SUBQUERY: payload is never NULL, so NOT IN is a lookup), and only a
// letter whose payload is in it is looked for its siblings one by one.
const deleteSentBeforeQuery = `DELETE FROM notifications WHERE id IN (
	SELECT n.id FROM notifications n INDEXED BY notifications_due
	WHERE n.state = 'sent' AND n.next_attempt < ? AND n.created_at < ? AND n.sent_at < ?
	AND (n.change_id IS NULL OR NOT EXISTS (SELECT 1 FROM notifications o INDEXED BY notifications_change
		WHERE o.change_id = n.change_id AND o.channel = n.channel AND o.id <> n.id
		AND o.state <> 'sent' AND NOT (o.state = 'dead' AND o.last_error = ?)))
	AND (n.change_id IS NOT NULL OR n.payload NOT IN (SELECT o.payload FROM notifications o INDEXED BY notifications_due
		WHERE o.state IN ('pending', 'failed', 'dead') AND o.change_id IS NULL
		AND NOT (o.state = 'dead' AND o.last_error = ?))
	OR NOT EXISTS (SELECT 1 FROM notifications o INDEXED BY notifications_due
		WHERE o.state IN ('pending', 'failed', 'dead') AND o.change_id IS NULL AND o.user_id = n.user_id
		AND o.channel = n.channel AND o.id <> n.id AND o.payload = n.payload
		AND NOT (o.state = 'dead' AND o.last_error = ?)))
	ORDER BY n.next_attempt LIMIT ?)`

// DeleteNotificationsBefore implements vigil.OutboxStore: the dead
// letters first, so that a sent letter whose dead sibling goes in the
// same call goes with it. Neither kind is undelivered: no address's
// head (outboxhead.go) changes.
func (db *DB) DeleteNotificationsBefore(ctx context.Context, before time.Time, limit int) (int, error) {
	if limit <= 0 {
		return 0, vigil.Errorf(vigil.EINVALID, "notification deletion limit must be positive")
	}
	if before.IsZero() {
		return 0, nil
	}
	bound := tv(before.UTC())
	var deleted int64
	err := db.update(ctx, func(tx execer) error {
		res, err := tx.ExecContext(ctx, q(deleteDeadBeforeQuery), bound, bound, limit)
		if err != nil {
			return fmt.Errorf("dead letters: %w", err)
		}
		if deleted, err = res.RowsAffected(); err != nil || deleted >= int64(limit) {
			return err
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
