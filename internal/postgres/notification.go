package postgres

import (
	"context"
	"database/sql"
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
	err := db.update(ctx, func(tx *sql.Tx) error {
		if err := lockOutboxFor(ctx, tx, n.UserID); err != nil {
			return err
		}
		err := tx.QueryRowContext(ctx, q(`INSERT INTO notifications (user_id, change_id, channel, target, payload, state, attempts,
			next_attempt, last_error, created_at, sent_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
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
	err := db.view(ctx, func(tx *sql.Tx) error {
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

// outboxClaimLock is the key of the transaction-level advisory lock that a claim
// holds from its look for the entries it takes to its commit: of two
// claims at once (two daemons sharing the database), the second looks
// once the first has committed, and sees the entries the first leased as
// not due, holding back those after them to their addresses. Without it,
// the second, reading the table as it was before the first committed,
// skipped the entries the first had locked and took the next ones to
// their addresses, delivered at once by the other daemon.
const outboxClaimLock = 7423193

// lockOutbox takes the claims' lock (outboxClaimLock) for the rest of tx,
// for a statement that changes many entries of the outbox at once (a
// sentinel's letters given up, a user's removed): a claim leases the
// entries it took one by one in queue order, waiting for a row another
// transaction holds, so one statement holding several of them in
// another order could each wait for the other, and one fail (deadlock
// detected). Under the lock they take turns.
func lockOutbox(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, q("SELECT pg_advisory_xact_lock(?)"), outboxClaimLock); err != nil {
		return fmt.Errorf("lock the outbox's claims: %w", err)
	}
	return nil
}

// lockOutboxFor takes the claims' lock (lockOutbox) for a write that
// queues entries for users (none: 0), having first locked their rows
// (lockUsers), so that it cannot hold the lock while it waits for a
// user's removal that holds the user's row and waits for the lock
// (DeleteUser).
func lockOutboxFor(ctx context.Context, tx *sql.Tx, users ...int64) error {
	if err := lockUsers(ctx, tx, users...); err != nil {
		return err
	}
	return lockOutbox(ctx, tx)
}

// lockUsers locks the rows of users (none: 0) in id order, FOR KEY
// SHARE, as the foreign key of an entry queued for them does: a write
// that queues entries takes them before any other lock but the
// entries' own, as a user's removal takes the user's row first
// (DeleteUser).
func lockUsers(ctx context.Context, tx *sql.Tx, users ...int64) error {
	var ids []int64
	for _, u := range users {
		if u != 0 && !slices.Contains(ids, u) {
			ids = append(ids, u)
		}
	}
	slices.Sort(ids)
	for _, u := range ids {
		if _, err := tx.ExecContext(ctx, q("SELECT 1 FROM users WHERE id = ? FOR KEY SHARE"), u); err != nil {
			return fmt.Errorf("lock user %d: %w", u, err)
		}
	}
	return nil
}

// ClaimNotifications implements vigil.OutboxStore: it takes the due
// undelivered entries in the order they were queued (their places,
// coalesce(requeued, id): a retried dead letter is queued again,
// RetryNotification), but none while an earlier undelivered one to its
// address (channel and target) is not due, waiting for its retry or
// claimed by another worker (under its lease), so that the entries to an
// address are delivered in the order they were queued, across claims and
// daemons as within one claim; a dead or sent entry holds nothing back.
// It reads the heads of the addresses, not the entries held back, and
// of the entries after the due heads some limit, not limit of each
// (claimable, outboxhead.go), under the claims' lock.
func (db *DB) ClaimNotifications(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]*vigil.Notification, error) {
	if limit <= 0 {
		return nil, vigil.Errorf(vigil.EINVALID, "claim limit must be positive")
	}
	if err := vigil.CheckStorableTime("notification nextAttempt (the lease's end)", now.Add(lease)); err != nil {
		return nil, err
	}
	var out []*vigil.Notification
	err := db.update(ctx, func(tx *sql.Tx) error {
		if err := lockOutbox(ctx, tx); err != nil {
			return fmt.Errorf("claim notifications: %w", err)
		}
		// The heads and the entries to an address read in the order
		// of their indexes, not sorted (claimSettings): on a table
		// without statistics the planner read every head by a bitmap of
		// notifications_heads and sorted them, for the first few.
		if _, err := tx.ExecContext(ctx, claimSettings); err != nil {
			return fmt.Errorf("claim notifications: %w", err)
		}
		claimed, err := claimable(ctx, tx, now, limit)
		if err != nil {
			return fmt.Errorf("claim notifications: %w", err)
		}
		out, err = leaseClaimed(ctx, tx, claimed, now, now.Add(lease).UTC())
		return err
	})
	return out, err
}

// outboxLease is the statement that leases one entry a claim selected,
// until $1, if it is still due at $2 and not delivered: the row is locked
// by the statement, which waits for a transaction that holds it (a worker
// recording what became of it), and then reads it as that transaction
// left it.
const outboxLease = `UPDATE notifications SET next_attempt = ?, attempts = attempts + 1
	WHERE id = ? AND state IN ('pending', 'failed') AND next_attempt <= ?`

// leaseClaimed leases the entries a claim selected (claimed), in their order,
// until until, and returns those it leased. An entry changed since the
// claim read it, by a transaction it did not see (a worker whose lease
// ran out recording it failed, and due later, or sent), is left out, and
// so are those after it to its address: the claim read them as free to go
// because it read that entry as due. The claim's look took no row lock:
// one that skipped the rows others held (FOR UPDATE SKIP LOCKED) read the
// entry a late worker was recording as due, skipped it, and took the next
// to its address, delivered before the failed one was retried.
func leaseClaimed(ctx context.Context, tx *sql.Tx, claimed []*vigil.Notification, now, until time.Time) ([]*vigil.Notification, error) {
	type address struct{ channel, target string }
	held := map[address]bool{}
	var out []*vigil.Notification
	for _, n := range claimed {
		a := address{n.Channel, n.Target}
		if held[a] {
			continue
		}
		res, err := tx.ExecContext(ctx, q(outboxLease), tv(until), n.ID, tv(now))
		if err != nil {
			return nil, fmt.Errorf("claim notification %d: %w", n.ID, err)
		}
		if k, err := res.RowsAffected(); err != nil {
			return nil, fmt.Errorf("claim notification %d: %w", n.ID, err)
		} else if k == 0 {
			held[a] = true
			continue
		}
		n.NextAttempt = until
		n.Attempts++
		out = append(out, n)
	}
	return out, nil
}

// ReleaseNotification implements vigil.OutboxStore.
func (db *DB) ReleaseNotification(ctx context.Context, id int64, attempts int, now time.Time) error {
	if err := vigil.CheckStorableTime("notification nextAttempt", now); err != nil {
		return err
	}
	return db.update(ctx, func(tx *sql.Tx) error {
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
	return db.update(ctx, func(tx *sql.Tx) error {
		if err := lockOutbox(ctx, tx); err != nil {
			return fmt.Errorf("notification %d sent: %w", id, err)
		}
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
	return db.update(ctx, func(tx *sql.Tx) error {
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
	return db.update(ctx, func(tx *sql.Tx) error {
		if err := lockOutbox(ctx, tx); err != nil {
			return fmt.Errorf("notification %d dead: %w", id, err)
		}
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

// retargetLock is the class of the transaction-level advisory lock
// (retargetLockQuery) that a retry to a new target holds from its look
// for a sibling there to its commit: of two retries moved to one target
// at once, the second looks once the first has committed, and finds it.
const retargetLock = 7423191

// retargetLockQuery returns the statement that takes the retargetLock of
// target, and its arguments: the one-argument (bigint) lock keyed on
// hashtextextended(target, retargetLock), a 64-bit hash of the target
// seeded with the class, as sentinelNameKey is of an owner. The lock
// (retargetLock, hashtext(target)) was keyed on a 32-bit hash, which two
// targets share once in some 2^32 pairs, and among tens of thousands of
// targets likely: a retry to one then waited for a retry to the other.
func retargetLockQuery(target string) (string, []any) {
	return q("SELECT pg_advisory_xact_lock(hashtextextended(?, ?))"), []any{target, retargetLock}
}

// RetryNotification implements vigil.OutboxStore. The letter's sentinel
// is locked first, as DeleteSentinel locks it (the same order, so the
// two cannot deadlock): a removal under way makes the retry wait and then
// find the sentinel gone, and a removal that comes after waits for the
// retry and then gives the retried letter up. A retry to a new target
// then takes that target's retargetLock, the last lock it takes.
func (db *DB) RetryNotification(ctx context.Context, id int64, r vigil.NotificationRetry) error {
	if err := vigil.CheckStorableTime("notification nextAttempt", r.At); err != nil {
		return err
	}
	return db.update(ctx, func(tx *sql.Tx) error {
		// Locked first, judged last: an absent letter is not found, and
		// one not dead is said to be so, as in the SQLite store.
		removed := false
		if r.SentinelID != 0 {
			var one int
			err := tx.QueryRowContext(ctx, q("SELECT 1 FROM sentinels WHERE id = ? FOR KEY SHARE"), r.SentinelID).Scan(&one)
			removed = errors.Is(err, sql.ErrNoRows)
			if err != nil && !removed {
				return err
			}
		}
		if err := lockOutbox(ctx, tx); err != nil {
			return fmt.Errorf("retry notification %d: %w", id, err)
		}
		var state, lastError, target string
		err := tx.QueryRowContext(ctx, q("SELECT state, last_error, target FROM notifications WHERE id = ? FOR UPDATE"), id).Scan(&state, &lastError, &target)
		if err != nil {
			return notFound(err, "notification %d not found", id)
		}
		switch {
		case state != string(vigil.NotificationDead):
			return vigil.Errorf(vigil.ECONFLICT, "notification %d is %s, not a dead letter: only a dead letter is retried", id, state)
		case lastError == vigil.SentinelRemoved || removed:
			return vigil.Errorf(vigil.ECONFLICT, "notification %d is not retried: %s", id, vigil.SentinelRemoved)
		}
		if r.Target != "" && r.Target != target {
			query, args := retargetLockQuery(r.Target)
			if _, err := tx.ExecContext(ctx, query, args...); err != nil {
				return fmt.Errorf("retry notification %d: lock its new target: %w", id, err)
			}
			sib, err := findSibling(ctx, tx, id, r.Target)
			if err == nil {
				return vigil.RetryDuplicate(id, sib)
			} else if vigil.ErrorCode(err) != vigil.ENOTFOUND {
				return fmt.Errorf("retry notification %d: its sibling: %w", id, err)
			}
		}
		// Its place in the queue: a value of the id sequence, after
		// every id given before.
		_, err = tx.ExecContext(ctx, q(`UPDATE notifications SET state = 'pending', attempts = 0, next_attempt = ?,
			target = coalesce(nullif(?, ''), target), requeued = nextval(pg_get_serial_sequence('notifications', 'id')), head = false
			WHERE id = ?`), tv(r.At.UTC()), r.Target, id)
		if err != nil {
			return err
		}
		// Undelivered again, after every entry to its address: their
		// head, if none is undelivered.
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
// tx; ENOTFOUND if there is none.
func findSibling(ctx context.Context, tx interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}, id int64, target string) (*vigil.Notification, error) {
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
