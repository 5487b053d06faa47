package postgres

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/vigil-web/vigil"
)

var _ vigil.CheckStore = (*DB)(nil)

// SentinelStates implements vigil.CheckStore.
func (db *DB) SentinelStates(ctx context.Context, ids []int64) (map[int64]json.RawMessage, error) {
	out := make(map[int64]json.RawMessage, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	err := db.view(ctx, func(tx *sql.Tx) error {
		for start := 0; start < len(ids); start += 500 {
			chunk := ids[start:min(start+500, len(ids))]
			args := make([]any, len(chunk))
			for i, id := range chunk {
				args[i] = id
			}
			rows, err := tx.QueryContext(ctx, q("SELECT sentinel_id, state FROM sentinel_states WHERE sentinel_id IN (?"+
				strings.Repeat(",?", len(chunk)-1)+")"), args...)
			if err != nil {
				return err
			}
			for rows.Next() {
				var id int64
				var state []byte
				if err := rows.Scan(&id, &state); err != nil {
					rows.Close()
					return err
				}
				out[id] = state
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

// RecordChecks implements vigil.CheckStore.
func (db *DB) RecordChecks(ctx context.Context, recs []*vigil.CheckRecord) error {
	for _, r := range recs {
		if err := validateCheck(r); err != nil {
			return err
		}
	}
	return db.update(ctx, func(tx *sql.Tx) error {
		// The messages' users are locked first, before the sentinels, as
		// a user's removal locks the user and then its sentinels
		// (DeleteUser): holding a sentinel while waiting for its owner,
		// whom the removal held while it waited for the sentinel,
		// deadlocked.
		var users []int64
		for _, r := range recs {
			for _, n := range r.Notifications {
				users = append(users, n.UserID)
			}
		}
		if err := lockUsers(ctx, tx, users...); err != nil {
			return err
		}
		if err := lockSentinels(ctx, tx, recs); err != nil {
			return err
		}
		pages := map[int64]float64{} // the importance of each page read, by resource
		for _, r := range recs {
			res, err := tx.ExecContext(ctx, q(`UPDATE sentinels SET last_check = ?, importance = CASE WHEN ? THEN ? ELSE importance END,
				next_check = CASE WHEN ? AND next_check <> ? AND next_check < ? THEN next_check ELSE ? END WHERE id = ? AND status = 'active'`),
				tv(r.CheckedAt), len(r.Importance) > 0, vigil.MaxImportance(r.Importance),
				!r.Leased.IsZero(), tv(r.Leased), tv(r.NextCheck), tv(r.NextCheck), r.SentinelID)
			if err != nil {
				return err
			}
			// Deleted or paused meanwhile: nothing of its check is
			// written, its notices neither.
			n, _ := res.RowsAffected()
			if r.Skipped = n == 0; r.Skipped {
				if err := giveLeaseBack(ctx, tx, r); err != nil {
					return err
				}
				continue
			}
			for _, p := range r.Importance {
				pages[p.ResourceID] = p.Importance
			}
			if r.State != nil {
				if _, err := tx.ExecContext(ctx, q(`INSERT INTO sentinel_states (sentinel_id, state, updated_at) VALUES (?, ?, ?)
					ON CONFLICT (sentinel_id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`),
					r.SentinelID, []byte(r.State), tv(r.CheckedAt)); err != nil {
					return err
				}
			}
			if r.Site != nil {
				if _, err := tx.ExecContext(ctx, q(`INSERT INTO site_snapshots (sentinel_id, data, updated_at) VALUES (?, ?, ?)
					ON CONFLICT (sentinel_id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at`),
					r.SentinelID, r.Site, tv(r.CheckedAt)); err != nil {
					return err
				}
			} else if r.DropSite {
				if _, err := tx.ExecContext(ctx, q("DELETE FROM site_snapshots WHERE sentinel_id = ?"), r.SentinelID); err != nil {
					return err
				}
			}
			for _, c := range r.Changes {
				reading, err := readingValue(c.Reading)
				if err != nil {
					return err
				}
				err = tx.QueryRowContext(ctx, q(`INSERT INTO changes (sentinel_id, resource_id, from_version, to_version, detected_at, summary, records, reading)
					VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`), c.SentinelID, c.ResourceID, c.FromVersion, c.ToVersion,
					tv(c.DetectedAt), c.Summary, specValue(c.Records), reading).Scan(&c.ID)
				if err != nil {
					if isForeignKey(err) {
						return vigil.Errorf(vigil.ENOTFOUND, "change of sentinel %d: sentinel or resource not found", c.SentinelID)
					}
					return err
				}
				if err := insertChangePages(ctx, tx, c); err != nil {
					return err
				}
			}
			for _, id := range r.Wake {
				if _, err := tx.ExecContext(ctx, q("UPDATE sentinels SET next_check = ? WHERE id = ? AND next_check > ?"), tv(r.CheckedAt), id, tv(r.CheckedAt)); err != nil {
					return err
				}
			}
		}
		if err := writeImportance(ctx, tx, pages); err != nil {
			return err
		}
		return queueChecked(ctx, tx, recs)
	})
}

// queueChecked queues the messages of the records not skipped, in their
// order, each marking the head of its address (promoteHeads), under the
// claims' lock (lockOutbox), taken once for them all and last: the
// rest of the records is written before, so that the claims and the
// deliveries of every daemon, which take the lock too, do not wait with
// the checks for a row another transaction holds (a resource an
// archive's import appends to, FOR UPDATE, for as long as it lasts).
func queueChecked(ctx context.Context, tx *sql.Tx, recs []*vigil.CheckRecord) error {
	locked := false
	for _, r := range recs {
		if r.Skipped {
			continue
		}
		for i, n := range r.Notifications {
			if !locked {
				if err := lockOutbox(ctx, tx); err != nil {
					return err
				}
				locked = true
			}
			if i < len(r.ChangeIndex) && r.ChangeIndex[i] >= 0 {
				n.ChangeID = r.Changes[r.ChangeIndex[i]].ID
			}
			if n.NextAttempt.IsZero() {
				n.NextAttempt = r.CheckedAt
			}
			n.CreatedAt = r.CheckedAt
			n.State = vigil.NotificationPending
			err := tx.QueryRowContext(ctx, q(`INSERT INTO notifications (user_id, change_id, channel, target, payload, state, attempts,
				next_attempt, last_error, created_at, sent_at) VALUES (?, ?, ?, ?, ?, ?, 0, ?, '', ?, ?) RETURNING id`),
				nullID(n.UserID), nullID(n.ChangeID), n.Channel, n.Target, []byte(n.Payload), string(n.State),
				tv(n.NextAttempt), tv(n.CreatedAt), tv(time.Time{})).Scan(&n.ID)
			if err != nil {
				return err
			}
			if err := promoteHeads(ctx, tx, outboxAddress{n.Channel, n.Target}); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeImportance sets the importance of the resources of pages, in one
// statement, locking their rows in id order as every writer of several
// rows does (resources deleted meanwhile are skipped). An UPDATE joined
// to the arrays locks rows in the order its plan reads them, which the
// planner chooses (the arrays' order when it probes with them, the order
// rows lie on disk when it scans the table and probes with that), so the
// rows are locked first, by the CTE: a SELECT ... ORDER BY id FOR NO KEY
// UPDATE (the lock the UPDATE takes) locks each row as it comes out of
// its sort, and the UPDATE writes only rows the CTE returned, each locked
// before it reaches it. MATERIALIZED keeps the planner from folding the
// CTE into the UPDATE. It was one UPDATE per resource: 1,000 statements
// for a batch of 1,000 pages.
func writeImportance(ctx context.Context, tx *sql.Tx, pages map[int64]float64) error {
	if len(pages) == 0 {
		return nil
	}
	ids := slices.Sorted(maps.Keys(pages))
	values := make([]float64, len(ids))
	for i, id := range ids {
		values[i] = pages[id]
	}
	_, err := tx.ExecContext(ctx, `WITH locked AS MATERIALIZED (
			SELECT id FROM resources WHERE id = ANY($1::bigint[]) ORDER BY id FOR NO KEY UPDATE)
		UPDATE resources r SET importance = v.importance
		FROM locked JOIN unnest($1::bigint[], $2::double precision[]) AS v(id, importance) ON v.id = locked.id
		WHERE r.id = locked.id`, ids, values)
	if err != nil {
		return fmt.Errorf("store the importance of %d resources: %w", len(ids), err)
	}
	return nil
}

// lockSentinels locks the rows of the sentinels that recs write (their
// own and those they wake) in id order, the order in which every writer
// of several sentinels locks them (UpdateSentinels), so that a batch
// never holds one while it waits for an earlier one: locked in the order
// of the records, a batch and an edit saved with its users could
// deadlock, and PostgreSQL would fail one of them.
func lockSentinels(ctx context.Context, tx *sql.Tx, recs []*vigil.CheckRecord) error {
	var ids []int64
	for _, r := range recs {
		ids = append(ids, r.SentinelID)
		ids = append(ids, r.Wake...)
	}
	slices.Sort(ids)
	ids = slices.Compact(ids)
	for start := 0; start < len(ids); start += 500 {
		chunk := ids[start:min(start+500, len(ids))]
		args := make([]any, len(chunk))
		for i, id := range chunk {
			args[i] = id
		}
		rows, err := tx.QueryContext(ctx, q("SELECT id FROM sentinels WHERE id IN (?"+strings.Repeat(",?", len(chunk)-1)+
			") ORDER BY id FOR NO KEY UPDATE"), args...)
		if err != nil {
			return fmt.Errorf("lock the sentinels of the checks: %w", err)
		}
		for rows.Next() { // each row read is locked: the ids themselves are not needed
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return fmt.Errorf("lock the sentinels of the checks: %w", err)
		}
	}
	return nil
}

func validateCheck(r *vigil.CheckRecord) error {
	if r.SentinelID <= 0 {
		return vigil.Errorf(vigil.EINVALID, "check record sentinelId required")
	}
	if len(r.State) > 0 && !json.Valid(r.State) {
		return vigil.Errorf(vigil.EINVALID, "check record state is not valid JSON")
	}
	if err := vigil.CheckStorableTime("check record checkedAt", r.CheckedAt); err != nil {
		return err
	}
	if err := vigil.CheckStorableTime("check record nextCheck", r.NextCheck); err != nil {
		return err
	}
	for _, c := range r.Changes {
		if err := c.Validate(); err != nil {
			return err
		}
	}
	for _, p := range r.Importance {
		if err := p.Validate(); err != nil {
			return err
		}
	}
	for i, n := range r.Notifications {
		if err := n.Validate(); err != nil {
			return err
		}
		if i < len(r.ChangeIndex) && r.ChangeIndex[i] >= len(r.Changes) {
			return vigil.Errorf(vigil.EINVALID, "notification %d refers to change %d of %d", i, r.ChangeIndex[i], len(r.Changes))
		}
	}
	return nil
}

// SiteSnapshot implements vigil.CheckStore.
func (db *DB) SiteSnapshot(ctx context.Context, sentinelID int64) ([]byte, time.Time, error) {
	var data []byte
	var at time.Time
	err := db.view(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, q("SELECT data, updated_at FROM site_snapshots WHERE sentinel_id = ?"), sentinelID).Scan(&data, ts{&at})
		if err == sql.ErrNoRows {
			return vigil.Errorf(vigil.ENOTFOUND, "sentinel %d has no site snapshot", sentinelID)
		}
		return err
	})
	if err != nil {
		return nil, time.Time{}, err
	}
	return data, at, nil
}

// giveLeaseBack gives back the claim of r, the skipped record of a
// sentinel paused while it was checked: its NextCheck, if still the
// claim's lease (r.Leased), becomes the check's time, as a released
// claim's does (ReleaseSentinels), so that once resumed it is due at
// once, not when the lease ends. A NextCheck set while it was checked,
// and a sentinel deleted, are left alone.
func giveLeaseBack(ctx context.Context, tx *sql.Tx, r *vigil.CheckRecord) error {
	if r.Leased.IsZero() {
		return nil
	}
	if _, err := tx.ExecContext(ctx, q("UPDATE sentinels SET next_check = ? WHERE id = ? AND status <> 'active' AND next_check = ?"),
		tv(r.CheckedAt), r.SentinelID, tv(r.Leased)); err != nil {
		return fmt.Errorf("give back the claim of paused sentinel %d: %w", r.SentinelID, err)
	}
	return nil
}
