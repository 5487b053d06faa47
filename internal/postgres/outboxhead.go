package postgres

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"github.com/vigil-web/vigil"
)

// The head of an address (channel and target) of the outbox is its
// first undelivered entry in queue order (its place, coalesce(requeued,
// id)), marked head (0117): exactly one entry of each address that has
// undelivered ones. A write that queues an entry, delivers one, gives
// one up, retries one or deletes some marks, in its transaction, the
// head of each address it changed (promoteHeads), under the claims' lock
// (lockOutbox), taken before it changes the entries, so that such writes
// and the claims take turns: two that each read the other's entry as
// undelivered could each leave the head to the other. As a place is
// given once, after every one given before, a head stays the first
// until it is delivered, given up or deleted. An address is read by the
// hash of its target (notifications_address, 0114).

// outboxAddress is an address of the outbox.
type outboxAddress struct{ channel, target string }

// promoteHeadQuery marks the first undelivered entry of channel $1 and
// target $2 its head, unless it is already.
const promoteHeadQuery = `UPDATE notifications SET head = true WHERE NOT head AND id = (
	SELECT id FROM notifications
	WHERE channel = ? AND hashtextextended(target, 0) = hashtextextended(?, 0) AND target = ? AND state IN ('pending', 'failed')
	ORDER BY coalesce(requeued, id) LIMIT 1)`

// promoteHeads marks the head of each of addresses (promoteHeadQuery).
func promoteHeads(ctx context.Context, tx *sql.Tx, addresses ...outboxAddress) error {
	for _, a := range addresses {
		if _, err := tx.ExecContext(ctx, q(promoteHeadQuery), a.channel, a.target, a.target); err != nil {
			return fmt.Errorf("mark the outbox's first entry to %s %s: %w", a.channel, a.target, err)
		}
	}
	return nil
}

// promoteHeadOf marks the head of the address of notification id.
func promoteHeadOf(ctx context.Context, tx *sql.Tx, id int64) error {
	var a outboxAddress
	if err := tx.QueryRowContext(ctx, q("SELECT channel, target FROM notifications WHERE id = ?"), id).Scan(&a.channel, &a.target); err != nil {
		return fmt.Errorf("the address of notification %d: %w", id, err)
	}
	return promoteHeads(ctx, tx, a)
}

// readAddresses returns the distinct addresses of the rows query reads
// (channel, target).
func readAddresses(ctx context.Context, tx *sql.Tx, query string, args ...any) ([]outboxAddress, error) {
	rows, err := tx.QueryContext(ctx, q(query), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []outboxAddress
	for rows.Next() {
		var a outboxAddress
		if err := rows.Scan(&a.channel, &a.target); err != nil {
			return nil, err
		}
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out, rows.Err()
}

// outboxHeadsQuery selects the heads after place $2 in queue order, at
// most $3: the address and place of each, and whether it is due at $1.
const outboxHeadsQuery = `SELECT channel, target, coalesce(requeued, id), next_attempt <= ?
	FROM notifications
	WHERE head AND state IN ('pending', 'failed') AND coalesce(requeued, id) > ?
	ORDER BY coalesce(requeued, id) LIMIT ?`

// outboxQueueQuery selects the undelivered entries to channel $2 and
// target $3 ($4 the same) from place $5 on, in queue order, at most $6, with the place
// of each and whether it is due at $1.
const outboxQueueQuery = "SELECT " + notificationColumns + `, coalesce(requeued, id), next_attempt <= ?
	FROM notifications
	WHERE channel = ? AND hashtextextended(target, 0) = hashtextextended(?, 0) AND target = ? AND state IN ('pending', 'failed') AND coalesce(requeued, id) >= ?
	ORDER BY coalesce(requeued, id) LIMIT ?`

// outboxHead is a head a claim read.
type outboxHead struct {
	outboxAddress
	place int64
}

// dueHeads returns the first limit heads due at now, in queue order,
// reading the heads not due before them (one for each address held
// back), none of the entries they hold back. It reads limit heads
// first, and twice as many at each page after, as long as heads not due
// leave it short.
func dueHeads(ctx context.Context, tx *sql.Tx, now time.Time, limit int) ([]outboxHead, error) {
	var heads []outboxHead
	for after, page := int64(-1<<63), limit; len(heads) < limit; page *= 2 {
		rows, err := tx.QueryContext(ctx, q(outboxHeadsQuery), tv(now), after, page)
		if err != nil {
			return nil, err
		}
		read := 0
		for len(heads) < limit && rows.Next() {
			var h outboxHead
			var due bool
			if err := rows.Scan(&h.channel, &h.target, &h.place, &due); err != nil {
				rows.Close()
				return nil, err
			}
			read, after = read+1, h.place
			if due {
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
	}
	return heads, nil
}

// queued is an entry a claim read, with its place.
type queued struct {
	n     *vigil.Notification
	place int64
}

// addressQueue is the due entries of a due head's address that a claim
// has read and not taken yet, in queue order (read), from the head up to
// the first not due; from is the place from which it reads the next
// ones, batch entries at most, unless ended (it read one not due, or
// the last).
type addressQueue struct {
	outboxAddress
	read  []queued
	from  int64
	batch int
	ended bool
}

// next is the place of q's next entry, or, before q read it, a bound
// below it.
func (q *addressQueue) next() int64 {
	if len(q.read) > 0 {
		return q.read[0].place
	}
	return q.from
}

// claimable returns the entries a claim at now may take, at most limit,
// in queue order: the first limit due heads' addresses' entries, from
// each head up to the first not due, merged in queue order. It reads
// each address's entries as the merge comes to them, in batches that
// start at its share of the limit and double, each at most the entries
// the claim still lacks, so that it reads some limit entries in all
// (about twice as many at most, and the first not due after each head),
// however many are queued behind the heads: it read, of each address,
// up to limit entries, limit×limit in all, of which it kept limit.
func claimable(ctx context.Context, tx *sql.Tx, now time.Time, limit int) ([]*vigil.Notification, error) {
	heads, err := dueHeads(ctx, tx, now, limit)
	if err != nil {
		return nil, fmt.Errorf("read the outbox's heads: %w", err)
	}
	// queues in the order of next: by their heads' places at first.
	queues := make([]*addressQueue, len(heads))
	for i, h := range heads {
		queues[i] = &addressQueue{outboxAddress: h.outboxAddress, from: h.place, batch: max(1, limit/len(heads))}
	}
	var out []*vigil.Notification
	for len(out) < limit && len(queues) > 0 {
		aq := queues[0]
		if len(aq.read) == 0 {
			if aq.ended {
				queues = queues[1:]
				continue
			}
			if err := readQueue(ctx, tx, now, aq, limit-len(out)); err != nil {
				return nil, err
			}
		} else {
			out = append(out, aq.read[0].n)
			aq.read = aq.read[1:]
		}
		// aq back in its place, its next entry (or bound) having moved
		// on: after the queues whose next comes before.
		i, _ := slices.BinarySearchFunc(queues[1:], aq.next(), func(q *addressQueue, p int64) int { return cmp.Compare(q.next(), p) })
		copy(queues[:i], queues[1:i+1])
		queues[i] = aq
	}
	return out, nil
}

// readQueue reads the next entries of aq from aq.from, at most aq.batch
// and need, up to the first not due, and doubles aq.batch.
func readQueue(ctx context.Context, tx *sql.Tx, now time.Time, aq *addressQueue, need int) error {
	n := min(aq.batch, need)
	aq.batch *= 2
	rows, err := tx.QueryContext(ctx, q(outboxQueueQuery), tv(now), aq.channel, aq.target, aq.target, aq.from, n)
	if err != nil {
		return fmt.Errorf("read the outbox's entries to %s %s: %w", aq.channel, aq.target, err)
	}
	defer rows.Close()
	read := 0
	for rows.Next() {
		var e queued
		var due bool
		nt, err := scanNotification(scanAlso{rows, []any{&e.place, &due}})
		if err != nil {
			return fmt.Errorf("read the outbox's entries to %s %s: %w", aq.channel, aq.target, err)
		}
		read++
		if !due {
			aq.ended = true
			break
		}
		e.n = nt
		aq.read, aq.from = append(aq.read, e), e.place+1
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read the outbox's entries to %s %s: %w", aq.channel, aq.target, err)
	}
	if read < n {
		aq.ended = true
	}
	return nil
}

// scanAlso scans a row into a notification's columns (scanNotification)
// and then into more.
type scanAlso struct {
	row  interface{ Scan(...any) error }
	more []any
}

func (s scanAlso) Scan(dest ...any) error { return s.row.Scan(append(dest, s.more...)...) }
