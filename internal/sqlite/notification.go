package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/vigil-web/vigil"
)

const notificationColumns = `id, user_id, change_id, channel, target, payload, state, attempts, next_attempt,
	last_error, created_at, sent_at`

func scanNotification(row interface{ Scan(...any) error }) (*vigil.Notification, error) {
	n := &vigil.Notification{}
	var state string
	var payload []byte
	err := row.Scan(&n.ID, idScan{&n.UserID}, idScan{&n.ChangeID}, &n.Channel, &n.Target, &payload, &state, &n.Attempts,
		ts{&n.NextAttempt}, &n.LastError, ts{&n.CreatedAt}, ts{&n.SentAt})
	n.Payload = payload
	n.State = vigil.NotificationState(state)
	return n, err
}

// EnqueueNotification implements vigil.OutboxStore.
func (db *DB) EnqueueNotification(ctx context.Context, n *vigil.Notification) error {
	if err := n.Validate(); err != nil {
		return err
	}
	now := db.now().UTC()
	n.State, n.CreatedAt = vigil.NotificationPending, now
	if n.NextAttempt.IsZero() {
		n.NextAttempt = now
	}
	err := db.update(ctx, func(tx execer) error {
		err := tx.QueryRowContext(ctx, q(`INSERT INTO notifications (id, user_id, change_id, channel, target, payload, state, attempts,
			next_attempt, last_error, created_at, sent_at) VALUES (`+nextID("notifications")+`, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
			nullID(n.UserID), nullID(n.ChangeID), n.Channel, n.Target, []byte(n.Payload), string(n.State), n.Attempts,
			tv(n.NextAttempt), n.LastError, tv(n.CreatedAt), tv(n.SentAt)).Scan(&n.ID)
		if err != nil {
			return err
		}
		return promoteHeads(ctx, tx, outboxAddress{n.Channel, n.Target})
	})
	if isForeignKey(err) {
		return vigil.Errorf(vigil.ENOTFOUND, "notification user %d or change %d not found", n.UserID, n.ChangeID)
	}
	return err
}

// FindNotificationByID implements vigil.OutboxStore.
func (db *DB) FindNotificationByID(ctx context.Context, id int64) (*vigil.Notification, error) {
	n, err := scanNotification(db.read.QueryRowContext(ctx, q("SELECT "+notificationColumns+" FROM notifications WHERE id = ?"), id))
	if err != nil {
		return nil, notFound(err, "notification %d not found", id)
	}
	return n, nil
}

// FindNotifications implements vigil.OutboxStore.
func (db *DB) FindNotifications(ctx context.Context, f vigil.NotificationFilter) ([]*vigil.Notification, int, error) {
	var where []string
	var args []any
	if f.State != "" {
		where, args = append(where, "state = ?"), append(args, string(f.State))
	}
	if f.UserID != 0 {
		where, args = append(where, "user_id = ?"), append(args, f.UserID)
	}
	cond := ""
	if len(where) > 0 {
		cond = " WHERE " + strings.Join(where, " AND ")
	}
	desc := ""
	if f.Descending {
		desc = " DESC"
	}
	var out []*vigil.Notification
	var total int
	err := db.view(ctx, func(tx execer) error {
		if err := tx.QueryRowContext(ctx, q("SELECT count(*) FROM notifications"+cond), args...).Scan(&total); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, q("SELECT "+notificationColumns+" FROM notifications"+cond+" ORDER BY id"+desc+limitOffset(f.Limit, f.Offset)), args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			n, err := scanNotification(rows)
			if err != nil {
				return err
			}
			out = append(out, n)
		}
		return rows.Err()
	})
	return out, total, err
}

// ClaimNotifications implements vigil.OutboxStore: it takes the due
// undelivered entries in the order they were queued (their places,
// coalesce(requeued, id): a retried dead letter is queued again,
// RetryNotification), but none while an earlier undelivered one to its
// address (channel and target) is not due, waiting for its retry or
// claimed by another worker (under its lease), so that the entries to an
// address are delivered in the order they were queued, across claims as
// within one; a dead or sent entry holds nothing back. It reads the
// heads of the addresses, not the entries held back, and of the entries
// after the due heads some limit, not limit of each (claimable,
// outboxhead.go). The writes of a store are one at a time: no other
// claim takes an entry between this one's look and its lease.
func (db *DB) ClaimNotifications(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]*vigil.Notification, error) {
	if limit <= 0 {
		return nil, vigil.Errorf(vigil.EINVALID, "claim limit must be positive")
	}
	if err := vigil.CheckStorableTime("notification nextAttempt (the lease's end)", now.Add(lease)); err != nil {
		return nil, err
	}
	var out []*vigil.Notification
	err := db.update(ctx, func(tx execer) error {
		var err error
		if out, err = claimable(ctx, tx, now, limit); err != nil {
			return fmt.Errorf("claim notifications: %w", err)
		}
		until := now.Add(lease).UTC()
		for _, n := range out {
			// claimed_until marks the claim, for ReleaseOrphanedClaims.
			if _, err := tx.ExecContext(ctx, q("UPDATE notifications SET next_attempt = ?, claimed_until = ?, attempts = attempts + 1 WHERE id = ?"),
				tv(until), tv(until), n.ID); err != nil {
				return err
			}
			n.NextAttempt = until
			n.Attempts++
		}
		return nil
	})
	return out, err
}

// ReleaseNotification implements vigil.OutboxStore.
func (db *DB) ReleaseNotification(ctx context.Context, id int64, attempts int, now time.Time) error {
	if err := vigil.CheckStorableTime("notification nextAttempt", now); err != nil {
		return err
	}
	return db.update(ctx, func(tx execer) error {
		_, err := tx.ExecContext(ctx, q(`UPDATE notifications SET next_attempt = ?, attempts = attempts - 1
			WHERE id = ? AND attempts = ? AND state IN ('pending', 'failed')`), tv(now), id, attempts)
		return err
	})
}

// MarkNotificationSent implements vigil.OutboxStore.
func (db *DB) MarkNotificationSent(ctx context.Context, id int64, at time.Time) error {
	if err := vigil.CheckStorableTime("notification sentAt", at); err != nil {
		return err
	}
	return db.update(ctx, func(tx execer) error {
		res, err := tx.ExecContext(ctx, q("UPDATE notifications SET state = 'sent', sent_at = ?, last_error = '' WHERE id = ?"), tv(at), id)
		if err := affected(res, err, "notification %d not found", id); err != nil {
			return err
		}
		return promoteHeadOf(ctx, tx, id)
	})
}

// MarkNotificationFailed implements vigil.OutboxStore.
func (db *DB) MarkNotificationFailed(ctx context.Context, id int64, errMsg string, next time.Time) error {
	if err := vigil.CheckStorableTime("notification nextAttempt", next); err != nil {
		return err
	}
	return db.update(ctx, func(tx execer) error {
		// A dead letter stays dead: its sentinel may have been removed
		// while this attempt was under way (DeleteSentinel). A sent one
		// stays sent: another worker delivered it after this one's lease
		// ended.
		res, err := tx.ExecContext(ctx, q(`UPDATE notifications SET
			last_error = CASE WHEN state IN ('dead', 'sent') THEN last_error ELSE ? END,
			state = CASE WHEN state IN ('dead', 'sent') THEN state ELSE 'failed' END,
			next_attempt = ? WHERE id = ?`), vigil.StorableText(errMsg), tv(next), id)
		return affected(res, err, "notification %d not found", id)
	})
}

// MarkNotificationDead implements vigil.OutboxStore.
func (db *DB) MarkNotificationDead(ctx context.Context, id int64, errMsg string) error {
	return db.update(ctx, func(tx execer) error {
		// A sent entry stays sent (another worker delivered it after
		// this one's lease ended), and a dead letter given up because its
		// sentinel was removed keeps that reason, which RetryNotification
		// refuses.
		res, err := tx.ExecContext(ctx, q(`UPDATE notifications SET
			last_error = CASE WHEN state = 'sent' OR state = 'dead' AND last_error = ? THEN last_error ELSE ? END,
			state = CASE WHEN state = 'sent' THEN 'sent' ELSE 'dead' END
			WHERE id = ?`), vigil.SentinelRemoved, vigil.StorableText(errMsg), id)
		if err := affected(res, err, "notification %d not found", id); err != nil {
			return err
		}
		return promoteHeadOf(ctx, tx, id)
	})
}

// RetryNotification implements vigil.OutboxStore. The writes of a
// store are one at a time: the sentinel that exists when the letter is
// made pending is not removed, and no sibling to its new target is
// written or moved there, before the transaction ends.
func (db *DB) RetryNotification(ctx context.Context, id int64, r vigil.NotificationRetry) error {
	if err := vigil.CheckStorableTime("notification nextAttempt", r.At); err != nil {
		return err
	}
	return db.update(ctx, func(tx execer) error {
		var state, lastError, target string
		err := tx.QueryRowContext(ctx, q("SELECT state, last_error, target FROM notifications WHERE id = ?"), id).Scan(&state, &lastError, &target)
		if err != nil {
			return notFound(err, "notification %d not found", id)
		}
		switch {
		case state != string(vigil.NotificationDead):
			return vigil.Errorf(vigil.ECONFLICT, "notification %d is %s, not a dead letter: only a dead letter is retried", id, state)
		case lastError == vigil.SentinelRemoved:
			return vigil.Errorf(vigil.ECONFLICT, "notification %d is not retried: %s", id, vigil.SentinelRemoved)
		}
		if r.SentinelID != 0 {
			var one int
			err := tx.QueryRowContext(ctx, q("SELECT 1 FROM sentinels WHERE id = ?"), r.SentinelID).Scan(&one)
			if errors.Is(err, sql.ErrNoRows) {
				return vigil.Errorf(vigil.ECONFLICT, "notification %d is not retried: %s", id, vigil.SentinelRemoved)
			} else if err != nil {
				return err
			}
		}
		if r.Target != "" && r.Target != target {
			sib, err := findSibling(ctx, tx, id, r.Target)
			if err == nil {
				return vigil.RetryDuplicate(id, sib)
			} else if vigil.ErrorCode(err) != vigil.ENOTFOUND {
				return fmt.Errorf("retry notification %d: its sibling: %w", id, err)
			}
		}
		// Its place in the queue: an id, after every one given before.
		var place int64
		if err := tx.QueryRowContext(ctx, q("UPDATE id_floor SET id = id + 1 WHERE name = 'notifications' RETURNING id")).Scan(&place); err != nil {
			return fmt.Errorf("retry notification %d: its place in the queue: %w", id, err)
		}
		// Undelivered again, after every entry to its address: their
		// head, if none is undelivered (promoteHead).
		_, err = tx.ExecContext(ctx, q(`UPDATE notifications SET state = 'pending', attempts = 0, next_attempt = ?,
			target = coalesce(nullif(?, ''), target), requeued = ?, head = 0 WHERE id = ?`), tv(r.At.UTC()), r.Target, place, id)
		if err != nil {
			return err
		}
		return promoteHeadOf(ctx, tx, id)
	})
}

// siblingQuery selects the sibling of notification $2 to target $1
// (vigil.OutboxStore.FindNotificationSibling): of the same change, or,
// for a letter of no change, of the same user and payload. Its change
// and user are read by the index of each.
const siblingQuery = `SELECT ` + notificationColumns + ` FROM notifications WHERE id = (
	SELECT o.id FROM notifications n JOIN notifications o ON o.id <> n.id AND o.channel = n.channel AND o.target = ?
	WHERE n.id = ? AND (o.change_id = n.change_id OR
		n.change_id IS NULL AND o.change_id IS NULL AND o.user_id = n.user_id AND o.payload = n.payload)
	ORDER BY o.id LIMIT 1)`

// findSibling returns the sibling of notification id to target, read by
// tx (a write transaction, or the read pool); ENOTFOUND if there is none.
func findSibling(ctx context.Context, tx execer, id int64, target string) (*vigil.Notification, error) {
	n, err := scanNotification(tx.QueryRowContext(ctx, q(siblingQuery), target, id))
	if err != nil {
		return nil, notFound(err, "notification %d has no sibling to that target", id)
	}
	return n, nil
}

// FindNotificationSibling implements vigil.OutboxStore.
func (db *DB) FindNotificationSibling(ctx context.Context, id int64, target string) (*vigil.Notification, error) {
	return findSibling(ctx, db.read, id, target)
}
