package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
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
		return tx.QueryRowContext(ctx, q(`INSERT INTO notifications (id, user_id, change_id, channel, target, payload, state, attempts,
			next_attempt, last_error, created_at, sent_at) VALUES (`+nextID("notifications")+`, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
			nullID(n.UserID), nullID(n.ChangeID), n.Channel, n.Target, []byte(n.Payload), string(n.State), n.Attempts,
			tv(n.NextAttempt), n.LastError, tv(n.CreatedAt), tv(n.SentAt)).Scan(&n.ID)
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

// A claim takes the due undelivered entries in the order they were
// queued (their places, coalesce(requeued, id): a retried dead letter is
// queued again, RetryNotification), but none while an earlier
// undelivered one to its address (channel and target) is not due,
// waiting for its retry or claimed by another worker (under its lease),
// so that the entries to an address are delivered in the order they were
// queued, across claims as within one; a dead or sent entry holds
// nothing back. The entries it may take are those of each address from
// its first undelivered one, its head, if due, up to the first not due:
// it reads the heads in queue order (outboxHeadsQuery), and, for each of
// the first limit due ones, at most limit entries of its address from it
// (outboxQueueQuery), and takes the first limit of them all in queue
// order. It reads none of the entries held back behind an entry not due:
// a claim that read the undelivered entries in queue order read every
// one of them, due and held back, before the ones it took (0119).

// outboxHeadsQuery selects, after place $2, at most $3 of the candidate
// heads (notifications_heads) in queue order: the id, address and place
// of each, whether it is due at $1, and whether an earlier entry to its
// address is undelivered (it is no head).
const outboxHeadsQuery = `SELECT n.id, n.channel, n.target, coalesce(n.requeued, n.id), n.next_attempt <= ?, EXISTS (
		SELECT 1 FROM notifications o INDEXED BY notifications_address
		WHERE o.channel = n.channel AND o.target = n.target AND o.state IN ('pending', 'failed')
			AND coalesce(o.requeued, o.id) < coalesce(n.requeued, n.id))
	FROM notifications n INDEXED BY notifications_heads
	WHERE n.head = 1 AND n.state IN ('pending', 'failed') AND coalesce(n.requeued, n.id) > ?
	ORDER BY coalesce(n.requeued, n.id) LIMIT ?`

// outboxQueueQuery selects the undelivered entries to channel $2 and
// target $3 from place $4 on, in queue order, at most $5 of them, with
// each one's place and whether it is due at $1.
const outboxQueueQuery = "SELECT " + notificationColumns + `, coalesce(requeued, id), next_attempt <= ?
	FROM notifications INDEXED BY notifications_address
	WHERE channel = ? AND target = ? AND state IN ('pending', 'failed') AND coalesce(requeued, id) >= ?
	ORDER BY coalesce(requeued, id) LIMIT ?`

// outboxHead is a head a claim read: the first undelivered entry of its
// address.
type outboxHead struct {
	channel, target string
	place           int64
}

// outboxHeads returns the first limit due heads in queue order, and
// takes the candidacy of the candidates it read that are no heads
// away, so that no claim reads them again.
func outboxHeads(ctx context.Context, tx execer, now time.Time, limit int) ([]outboxHead, error) {
	page := max(4*limit, 64)
	var heads []outboxHead
	var stale []int64
	for after := int64(0); len(heads) < limit; {
		rows, err := tx.QueryContext(ctx, q(outboxHeadsQuery), tv(now), after, page)
		if err != nil {
			return nil, err
		}
		read := 0
		for len(heads) < limit && rows.Next() {
			var id int64
			var h outboxHead
			var due, earlier bool
			if err := rows.Scan(&id, &h.channel, &h.target, &h.place, &due, &earlier); err != nil {
				rows.Close()
				return nil, err
			}
			read, after = read+1, h.place
			switch {
			case earlier:
				stale = append(stale, id)
			case due:
				heads = append(heads, h)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
		if read < page {
			break
		}
		page = min(2*page, 4096) // many candidates that are no heads (a claim's first since they were queued)
	}
	// The writes of a store are one at a time: an entry read as no head
	// is none until this transaction ends.
	if len(stale) > 0 {
		ids, err := json.Marshal(stale)
		if err != nil {
			return nil, err
		}
		if _, err := tx.ExecContext(ctx, q("UPDATE notifications SET head = 0 WHERE id IN (SELECT value FROM json_each(?))"), string(ids)); err != nil {
			return nil, fmt.Errorf("the entries read as no heads: %w", err)
		}
	}
	return heads, nil
}

// claimable returns the entries a claim at now takes, at most limit, in
// queue order.
func claimable(ctx context.Context, tx execer, now time.Time, limit int) ([]*vigil.Notification, error) {
	heads, err := outboxHeads(ctx, tx, now, limit)
	if err != nil {
		return nil, err
	}
	type queued struct {
		n     *vigil.Notification
		place int64
	}
	var all []queued
	for _, h := range heads {
		rows, err := tx.QueryContext(ctx, q(outboxQueueQuery), tv(now), h.channel, h.target, h.place, limit)
		if err != nil {
			return nil, err
		}
		for rows.Next() {
			var e queued
			var due bool
			n, err := scanNotification(scanAlso{rows, []any{&e.place, &due}})
			if err != nil {
				rows.Close()
				return nil, err
			}
			if !due {
				break
			}
			e.n = n
			all = append(all, e)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(all, func(a, b queued) int { return cmp.Compare(a.place, b.place) })
	out := make([]*vigil.Notification, 0, min(len(all), limit))
	for _, e := range all[:min(len(all), limit)] {
		out = append(out, e.n)
	}
	return out, nil
}

// scanAlso scans a row into a notification's columns (scanNotification)
// and then into more.
type scanAlso struct {
	row  interface{ Scan(...any) error }
	more []any
}

func (s scanAlso) Scan(dest ...any) error { return s.row.Scan(append(dest, s.more...)...) }

// ClaimNotifications implements vigil.OutboxStore. The writes of a store
// are one at a time: no other claim takes an entry between this one's
// look and its lease.
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
			if _, err := tx.ExecContext(ctx, q("UPDATE notifications SET next_attempt = ?, attempts = attempts + 1 WHERE id = ?"), tv(until), n.ID); err != nil {
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
		return affected(res, err, "notification %d not found", id)
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
			next_attempt = ? WHERE id = ?`), errMsg, tv(next), id)
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
			WHERE id = ?`), vigil.SentinelRemoved, errMsg, id)
		return affected(res, err, "notification %d not found", id)
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
		// Undelivered again, a candidate head of its address
		// (notifications_head_returned, 0119).
		_, err = tx.ExecContext(ctx, q(`UPDATE notifications SET state = 'pending', attempts = 0, next_attempt = ?,
			target = coalesce(nullif(?, ''), target), requeued = ? WHERE id = ?`), tv(r.At.UTC()), r.Target, place, id)
		return err
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
