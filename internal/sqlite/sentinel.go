package sqlite

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

const sentinelColumns = "id, owner_id, name, source, spec, status, created_at, updated_at, next_check, last_check, feed_generation, importance, time_zone"

func scanSentinel(row interface{ Scan(...any) error }) (*vigil.Sentinel, error) {
	s := &vigil.Sentinel{}
	var spec []byte
	var status string
	err := row.Scan(&s.ID, &s.OwnerID, &s.Name, &s.Source, &spec, &status, ts{&s.CreatedAt}, ts{&s.UpdatedAt}, ts{&s.NextCheck}, ts{&s.LastCheck}, &s.FeedGeneration, importance{&s.Importance}, &s.TimeZone)
	if len(spec) > 0 {
		s.Spec = spec
	}
	s.Status = vigil.SentinelStatus(status)
	return s, err
}

func specValue(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return []byte(b)
}

// CreateSentinel implements vigil.SentinelStore. The sentinel's feed
// starts at generation 0 (feed_generation's default). The name is looked
// for among the owner's in the transaction that inserts it, a write
// transaction (BEGIN IMMEDIATE, _txlock=immediate), one at a time
// whatever the process: of concurrent adds of one name, one is stored.
func (db *DB) CreateSentinel(ctx context.Context, s *vigil.Sentinel) error {
	if err := s.Validate(); err != nil {
		return err
	}
	now := db.now().UTC()
	err := db.update(ctx, func(tx execer) error {
		if err := userExists(ctx, tx, s.OwnerID); err != nil {
			return err
		}
		if err := nameFree(ctx, tx, s.OwnerID, s.Name); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, q(`INSERT INTO sentinels (id, owner_id, name, source, spec, status, created_at, updated_at, next_check, last_check, time_zone)
			VALUES (`+nextID("sentinels")+`, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`), s.OwnerID, s.Name, s.Source, specValue(s.Spec), string(s.Status),
			tv(now), tv(now), tv(s.NextCheck), tv(s.LastCheck), s.TimeZone).Scan(&s.ID)
	})
	if err != nil {
		return err
	}
	s.CreatedAt, s.UpdatedAt, s.FeedGeneration, s.Importance = now, now, 0, 0
	return nil
}

func userExists(ctx context.Context, tx execer, id int64) error {
	var n int
	if err := tx.QueryRowContext(ctx, q("SELECT count(*) FROM users WHERE id = ?"), id).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return vigil.Errorf(vigil.ENOTFOUND, "user %d not found", id)
	}
	return nil
}

// nameFree returns ECONFLICT (vigil.SentinelNameUsed) when owner has a
// sentinel called name (vigil.SentinelNameFree).
func nameFree(ctx context.Context, tx execer, owner int64, name string) error {
	used, err := sentinelNames(ctx, tx, owner)
	if err != nil {
		return err
	}
	return vigil.SentinelNameFree(used, name)
}

// renamesFree returns ECONFLICT (vigil.SentinelRenamesFree) when a
// sentinel of list is renamed to a name another of its owner's has,
// looked for in the write transaction of the update (BEGIN
// IMMEDIATE), one at a time whatever the process, as CreateSentinel looks.
// A sentinel of list not stored is left to the update to find missing.
func renamesFree(ctx context.Context, tx execer, list []*vigil.Sentinel) error {
	var owners []int64
	for _, s := range list {
		var owner int64
		err := tx.QueryRowContext(ctx, q("SELECT owner_id FROM sentinels WHERE id = ?"), s.ID).Scan(&owner)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		} else if err != nil {
			return fmt.Errorf("read the owner of sentinel %d: %w", s.ID, err)
		}
		if !slices.Contains(owners, owner) {
			owners = append(owners, owner)
		}
	}
	var used []vigil.StoredSentinelName
	for _, o := range owners {
		names, err := sentinelNames(ctx, tx, o)
		if err != nil {
			return err
		}
		used = append(used, names...)
	}
	return vigil.SentinelRenamesFree(list, used)
}

// sentinelNames reads the id, owner and name of each sentinel of owner,
// in id order.
func sentinelNames(ctx context.Context, tx execer, owner int64) ([]vigil.StoredSentinelName, error) {
	rows, err := tx.QueryContext(ctx, q("SELECT id, owner_id, name FROM sentinels WHERE owner_id = ? ORDER BY id"), owner)
	if err != nil {
		return nil, fmt.Errorf("read the sentinel names of user %d: %w", owner, err)
	}
	defer rows.Close()
	var out []vigil.StoredSentinelName
	for rows.Next() {
		var n vigil.StoredSentinelName
		if err := rows.Scan(&n.ID, &n.OwnerID, &n.Name); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// FindSentinelByID implements vigil.SentinelStore.
func (db *DB) FindSentinelByID(ctx context.Context, id int64) (*vigil.Sentinel, error) {
	s, err := scanSentinel(db.read.QueryRowContext(ctx, q("SELECT "+sentinelColumns+" FROM sentinels WHERE id = ?"), id))
	if err != nil {
		return nil, notFound(err, "sentinel %d not found", id)
	}
	return s, nil
}

// FindSentinels implements vigil.SentinelStore.
func (db *DB) FindSentinels(ctx context.Context, f vigil.SentinelFilter) ([]*vigil.Sentinel, int, error) {
	var where []string
	var args []any
	if f.OwnerID != 0 {
		where, args = append(where, "owner_id = ?"), append(args, f.OwnerID)
	}
	if f.Status != "" {
		where, args = append(where, "status = ?"), append(args, string(f.Status))
	}
	cond := ""
	if len(where) > 0 {
		cond = " WHERE " + strings.Join(where, " AND ")
	}
	var out []*vigil.Sentinel
	var n int
	err := db.view(ctx, func(tx execer) error {
		if err := tx.QueryRowContext(ctx, q("SELECT count(*) FROM sentinels"+cond), args...).Scan(&n); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, q("SELECT "+sentinelColumns+" FROM sentinels"+cond+" ORDER BY id"+limitOffset(f.Limit, f.Offset)), args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			s, err := scanSentinel(rows)
			if err != nil {
				return err
			}
			out = append(out, s)
		}
		return rows.Err()
	})
	return out, n, err
}

// UpdateSentinel implements vigil.SentinelStore: UpdateSentinels of one.
func (db *DB) UpdateSentinel(ctx context.Context, s *vigil.Sentinel) error {
	return db.UpdateSentinels(ctx, []*vigil.Sentinel{s})
}

// UpdateSentinels implements vigil.SentinelStore: one transaction, and
// the sentinels of list changed only once it is committed. It never
// writes the feed generation, which a stale copy of a sentinel would
// roll back, reviving feed URLs a rotation revoked; it reads it back
// instead.
func (db *DB) UpdateSentinels(ctx context.Context, list []*vigil.Sentinel) error {
	return db.UpdateSentinelsIf(ctx, list, nil)
}

// UpdateSentinelsIf implements vigil.SentinelStore: UpdateSentinels, the
// first sentinel of list read inside its write transaction (BEGIN
// IMMEDIATE: no other writer, of any process, writes between the read
// and the update) and given to check (nil: no check) before any is
// written.
func (db *DB) UpdateSentinelsIf(ctx context.Context, list []*vigil.Sentinel, check func(stored *vigil.Sentinel) error) error {
	for _, s := range list {
		if err := s.Validate(); err != nil {
			return err
		}
	}
	if len(list) == 0 {
		return nil
	}
	now := db.now().UTC()
	kept := make([]vigil.Sentinel, len(list)) // what the store keeps of each, read back
	err := db.update(ctx, func(tx execer) error {
		if check != nil {
			stored, err := scanSentinel(tx.QueryRowContext(ctx, q("SELECT "+sentinelColumns+" FROM sentinels WHERE id = ?"), list[0].ID))
			if err != nil {
				return notFound(err, "sentinel %d not found", list[0].ID)
			}
			if err := check(stored); err != nil {
				return err
			}
		}
		if err := renamesFree(ctx, tx, list); err != nil {
			return err
		}
		for i, s := range list {
			k := &kept[i]
			err := tx.QueryRowContext(ctx, q(`UPDATE sentinels SET name = ?, source = ?, spec = ?, status = ?, updated_at = ?, next_check = ?, time_zone = ?
				WHERE id = ? RETURNING created_at, owner_id, last_check, feed_generation, importance`),
				s.Name, s.Source, specValue(s.Spec), string(s.Status), tv(now), tv(s.NextCheck), s.TimeZone, s.ID).
				Scan(ts{&k.CreatedAt}, &k.OwnerID, ts{&k.LastCheck}, &k.FeedGeneration, importance{&k.Importance})
			if err != nil {
				return notFound(err, "sentinel %d not found", s.ID)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for i, s := range list {
		k := &kept[i]
		s.CreatedAt, s.OwnerID, s.LastCheck, s.FeedGeneration, s.Importance, s.UpdatedAt = k.CreatedAt, k.OwnerID, k.LastCheck, k.FeedGeneration, k.Importance, now
	}
	return nil
}

// SetSentinelStatus implements vigil.SentinelStore: one statement,
// which writes the status and the next check alone, so that a pause, a
// resume or a check now neither counts as an edit (UpdatedAt) nor writes
// back a stale copy of what an edit saved meanwhile.
func (db *DB) SetSentinelStatus(ctx context.Context, id int64, status vigil.SentinelStatus, next time.Time) error {
	if status != vigil.SentinelActive && status != vigil.SentinelPaused {
		return vigil.Errorf(vigil.EINVALID, "sentinel status %q must be active or paused", status)
	}
	if err := vigil.CheckStorableTime("sentinel nextCheck", next); err != nil {
		return err
	}
	err := db.update(ctx, func(tx execer) error {
		var one int
		err := tx.QueryRowContext(ctx, q("UPDATE sentinels SET status = ?, next_check = ? WHERE id = ? RETURNING 1"), string(status), tv(next), id).Scan(&one)
		return notFound(err, "sentinel %d not found", id)
	})
	if err != nil {
		return fmt.Errorf("set the status of sentinel %d: %w", id, err)
	}
	return nil
}

// RotateSentinelFeed implements vigil.SentinelStore: one statement, so
// that concurrent rotations add one each.
func (db *DB) RotateSentinelFeed(ctx context.Context, id int64) (int64, error) {
	var gen int64
	err := db.update(ctx, func(tx execer) error {
		err := tx.QueryRowContext(ctx, q("UPDATE sentinels SET feed_generation = feed_generation + 1 WHERE id = ? RETURNING feed_generation"), id).Scan(&gen)
		return notFound(err, "sentinel %d not found", id)
	})
	if err != nil {
		return 0, fmt.Errorf("rotate the feed of sentinel %d: %w", id, err)
	}
	return gen, nil
}

// DeleteSentinel implements vigil.SentinelStore. Its letters still
// waiting to be sent (giveUpLetters) become dead letters: nobody wants
// them retried for hours once the sentinel is gone.
func (db *DB) DeleteSentinel(ctx context.Context, id int64) error {
	return db.update(ctx, func(tx execer) error {
		if err := giveUpLetters(ctx, tx, id); err != nil {
			return fmt.Errorf("give up the letters of sentinel %d: %w", id, err)
		}
		res, err := tx.ExecContext(ctx, q("DELETE FROM sentinels WHERE id = ?"), id)
		return affected(res, err, "sentinel %d not found", id)
	})
}

// giveUpLetters makes the letters of sentinel id not yet sent dead
// letters (vigil.SentinelRemoved): those of its changes, and those of its
// owner that report no one change (digests, failure notices: no change
// id) whose message names it.
func giveUpLetters(ctx context.Context, tx execer, id int64) error {
	given, err := readAddresses(ctx, tx, `UPDATE notifications SET state = 'dead', last_error = ?
		WHERE state IN ('pending', 'failed') AND change_id IN (SELECT id FROM changes WHERE sentinel_id = ?) RETURNING channel, target`,
		vigil.SentinelRemoved, id)
	if err != nil {
		return err
	}
	// The letters not yet sent are few; by the user's, SQLite would read
	// every letter the user ever had.
	rows, err := tx.QueryContext(ctx, q(`SELECT id, payload FROM notifications INDEXED BY notifications_due
		WHERE state IN ('pending', 'failed') AND change_id IS NULL AND user_id = (SELECT owner_id FROM sentinels WHERE id = ?)`), id)
	if err != nil {
		return err
	}
	var letters []int64
	for rows.Next() {
		n := &vigil.Notification{}
		var payload []byte
		if err := rows.Scan(&n.ID, &payload); err != nil {
			rows.Close()
			return err
		}
		n.Payload = payload
		if n.SentinelID() == id {
			letters = append(letters, n.ID)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, letter := range letters {
		if _, err := tx.ExecContext(ctx, q(`UPDATE notifications SET state = 'dead', last_error = ?
			WHERE id = ? AND state IN ('pending', 'failed')`), vigil.SentinelRemoved, letter); err != nil {
			return err
		}
		if err := promoteHeadOf(ctx, tx, letter); err != nil {
			return err
		}
	}
	return promoteHeads(ctx, tx, given...)
}

// claimPriority is the order of claims, vigil.ClaimPriority's (its
// importance clamped as there) in nanoseconds, as the index
// sentinels_claim (migration 0111) has it: SQLite reads an index on an
// expression in order only for the same expression.
var claimPriority = fmt.Sprintf("(next_check - %d.0 * (CASE WHEN importance >= 0 AND importance <= 1 THEN importance ELSE 0 END))", int64(vigil.ImportanceLead))

// claimQuery returns the query of ClaimDueSentinels and its arguments.
func claimQuery(now time.Time, limit int) (string, []any) {
	// A due sentinel's priority is at or before now too: the bound stops
	// the read of the index there, when fewer than limit are due. It is a
	// microsecond later, over the rounding of the priority, a float64 of
	// about 2^60 nanoseconds (to 256), which may put a sentinel due now
	// just after now.
	return "SELECT " + sentinelColumns + " FROM sentinels INDEXED BY sentinels_claim" +
			" WHERE status = 'active' AND next_check <= ? AND " + claimPriority + " <= ? ORDER BY " + claimPriority + ", id LIMIT ?",
		[]any{tv(now), tv(now.Add(time.Microsecond)), limit}
}

// ClaimDueSentinels implements vigil.SentinelStore: by vigil.ClaimPriority,
// in nanoseconds. They are read in the order of the index sentinels_claim,
// up to the priority now: a claim reads the sentinels it takes and the few
// not due yet whose importance puts them before (due within their
// importance times the lead), not every due one, nor every sentinel when
// few are.
func (db *DB) ClaimDueSentinels(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]*vigil.Sentinel, error) {
	if limit <= 0 {
		return nil, vigil.Errorf(vigil.EINVALID, "claim limit must be positive")
	}
	if err := vigil.CheckStorableTime("sentinel nextCheck (the lease's end)", now.Add(lease)); err != nil {
		return nil, err
	}
	var out []*vigil.Sentinel
	err := db.update(ctx, func(tx execer) error {
		query, args := claimQuery(now, limit)
		rows, err := tx.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		for rows.Next() {
			s, err := scanSentinel(rows)
			if err != nil {
				rows.Close()
				return err
			}
			out = append(out, s)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		until := now.Add(lease).UTC()
		for _, s := range out {
			// claimed_until marks the claim, for ReleaseOrphanedClaims.
			if _, err := tx.ExecContext(ctx, q("UPDATE sentinels SET next_check = ?, claimed_until = ? WHERE id = ?"), tv(until), tv(until), s.ID); err != nil {
				return err
			}
			s.NextCheck = until
		}
		return rows.Err()
	})
	return out, err
}

// CheckedSentinel implements vigil.SentinelStore.
func (db *DB) CheckedSentinel(ctx context.Context, id int64, at, next time.Time) error {
	if err := vigil.CheckStorableTime("sentinel lastCheck", at); err != nil {
		return err
	}
	if err := vigil.CheckStorableTime("sentinel nextCheck", next); err != nil {
		return err
	}
	return db.update(ctx, func(tx execer) error {
		res, err := tx.ExecContext(ctx, q("UPDATE sentinels SET last_check = ?, next_check = ? WHERE id = ?"), tv(at), tv(next), id)
		return affected(res, err, "sentinel %d not found", id)
	})
}

// ReleaseSentinels implements vigil.SentinelStore.
func (db *DB) ReleaseSentinels(ctx context.Context, leases []vigil.SentinelLease, now time.Time) (int, error) {
	if len(leases) == 0 {
		return 0, nil
	}
	if err := vigil.CheckStorableTime("sentinel nextCheck", now); err != nil {
		return 0, err
	}
	n := 0 // SQLite has one writer at a time: no lock order to keep, unlike PostgreSQL
	err := db.update(ctx, func(tx execer) error {
		n = 0
		for _, l := range leases {
			res, err := tx.ExecContext(ctx, q("UPDATE sentinels SET next_check = ? WHERE id = ? AND next_check = ?"),
				tv(now), l.SentinelID, tv(l.Until))
			if err != nil {
				return err
			}
			k, err := res.RowsAffected()
			if err != nil {
				return err
			}
			n += int(k)
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("release %d sentinel claims: %w", len(leases), err)
	}
	return n, nil
}
