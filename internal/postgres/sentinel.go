package postgres

import (
	"cmp"
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
// for among the owner's under the owner's sentinelNameLock, held to the
// commit: of concurrent adds of one name, the second looks once the first
// has committed (READ COMMITTED: each statement reads what is committed
// when it starts), and finds it.
func (db *DB) CreateSentinel(ctx context.Context, s *vigil.Sentinel) error {
	if err := s.Validate(); err != nil {
		return err
	}
	now := db.now().UTC()
	err := db.update(ctx, func(tx *sql.Tx) error {
		if err := userExists(ctx, tx, s.OwnerID); err != nil {
			return err
		}
		if err := lockSentinelNames(ctx, tx, []int64{s.OwnerID}); err != nil {
			return err
		}
		if err := nameFree(ctx, tx, s.OwnerID, s.Name); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, q(`INSERT INTO sentinels (owner_id, name, source, spec, status, created_at, updated_at, next_check, last_check, time_zone)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`), s.OwnerID, s.Name, s.Source, specValue(s.Spec), string(s.Status),
			tv(now), tv(now), tv(s.NextCheck), tv(s.LastCheck), s.TimeZone).Scan(&s.ID)
	})
	if isForeignKey(err) {
		// The owner was deleted after userExists saw them.
		return vigil.Errorf(vigil.ENOTFOUND, "user %d not found", s.OwnerID)
	} else if isNameTaken(err) {
		return db.nameTaken(ctx, err, []*vigil.Sentinel{s})
	} else if err != nil {
		return err
	}
	s.CreatedAt, s.UpdatedAt, s.FeedGeneration, s.Importance = now, now, 0, 0
	return nil
}

func userExists(ctx context.Context, tx *sql.Tx, id int64) error {
	var n int
	if err := tx.QueryRowContext(ctx, q("SELECT count(*) FROM users WHERE id = ?"), id).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		return vigil.Errorf(vigil.ENOTFOUND, "user %d not found", id)
	}
	return nil
}

// sentinelNameLock is the class of the transaction-level advisory lock
// that an add or a rename of a sentinel holds on its owner's names from
// its look for the name among them to its commit (lockSentinelNames).
const sentinelNameLock = 7423192

// sentinelNameKey is the SQL of the key of owner $1's sentinelNameLock,
// for the one-argument (bigint) pg_advisory_xact_lock: a 64-bit hash of
// the whole owner id, seeded with the class. The two-argument form keyed
// on the class and int32(owner) let owners whose ids share their low 32
// bits wait for one another. No 64-bit key holds both a class and a
// 64-bit id; the id alone as the key would share its space with every
// other bigint lock (the migrator's, 7423190, an owner's id too). The
// hash reads every digit of the id, and the seed keeps the class's keys
// apart from any other's; two owners (or another lock) share a key only
// by a 64-bit hash's chance, and then one only waits for the other. The
// keys need agree only among the transactions of one server at a time.
const sentinelNameKey = "hashtextextended(?::bigint::text, ?)"

// lockSentinelNames takes, in tx, the sentinelNameLock of each of owners,
// held to the commit, in the order of their keys, as every writer of
// several owners' names takes them, so that two such writes cannot
// deadlock.
func lockSentinelNames(ctx context.Context, tx *sql.Tx, owners []int64) error {
	keys := make([]int64, 0, len(owners))
	for _, o := range owners {
		var k int64
		if err := tx.QueryRowContext(ctx, q("SELECT "+sentinelNameKey), o, sentinelNameLock).Scan(&k); err != nil {
			return fmt.Errorf("lock the sentinel names of user %d: %w", o, err)
		}
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range slices.Compact(keys) {
		if _, err := tx.ExecContext(ctx, q("SELECT pg_advisory_xact_lock(?)"), k); err != nil {
			return fmt.Errorf("lock the sentinel names of users %v: %w", owners, err)
		}
	}
	return nil
}

// nameFree returns ECONFLICT (vigil.SentinelNameUsed) when owner has a
// sentinel called name (vigil.SentinelNameFree).
func nameFree(ctx context.Context, tx *sql.Tx, owner int64, name string) error {
	used, err := sentinelNames(ctx, tx, owner)
	if err != nil {
		return err
	}
	return vigil.SentinelNameFree(used, name)
}

// renamesFree returns ECONFLICT (vigil.SentinelRenamesFree) when a
// sentinel of list is renamed to a name another of its owner's has,
// looked for under the sentinelNameLock of each owner concerned
// (CreateSentinel's), held to the commit.
// A sentinel of list not stored is left to the update to find missing.
func renamesFree(ctx context.Context, tx *sql.Tx, list []*vigil.Sentinel) error {
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
	if err := lockSentinelNames(ctx, tx, owners); err != nil {
		return err
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
func sentinelNames(ctx context.Context, tx *sql.Tx, owner int64) ([]vigil.StoredSentinelName, error) {
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
	err := db.view(ctx, func(tx *sql.Tx) error {
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
// first sentinel of list read FOR UPDATE at its place in the id order
// (which locks its row until the commit, and reads the last committed
// version of it) and given to check (nil: no check) before it is
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
	// Rows are written in id order, the order in which every writer of
	// several sentinels locks them (RecordChecks too), so that two such
	// writes cannot deadlock.
	order := make([]int, len(list))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(list[a].ID, list[b].ID) })
	now := db.now().UTC()
	kept := make([]vigil.Sentinel, len(list)) // what the store keeps of each, read back
	err := db.update(ctx, func(tx *sql.Tx) error {
		if err := renamesFree(ctx, tx, list); err != nil {
			return err
		}
		for _, i := range order {
			s := list[i]
			k := &kept[i]
			if i == 0 && check != nil {
				stored, err := scanSentinel(tx.QueryRowContext(ctx, q("SELECT "+sentinelColumns+" FROM sentinels WHERE id = ? FOR UPDATE"), s.ID))
				if err != nil {
					return notFound(err, "sentinel %d not found", s.ID)
				}
				if err := check(stored); err != nil {
					return err
				}
			}
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
	if isNameTaken(err) {
		return db.nameTaken(ctx, err, list)
	} else if err != nil {
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
	err := db.update(ctx, func(tx *sql.Tx) error {
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
	err := db.update(ctx, func(tx *sql.Tx) error {
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
// them retried for hours once the sentinel is gone. The sentinel is locked
// first, as RetryNotification locks it: a retry under way ends before
// the letters are given up, its letter with them.
func (db *DB) DeleteSentinel(ctx context.Context, id int64) error {
	return db.update(ctx, func(tx *sql.Tx) error {
		var one int
		err := tx.QueryRowContext(ctx, q("SELECT 1 FROM sentinels WHERE id = ? FOR UPDATE"), id).Scan(&one)
		if err != nil {
			return notFound(err, "sentinel %d not found", id)
		}
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
// id) whose message names it. It takes the claims' lock first
// (lockOutbox).
func giveUpLetters(ctx context.Context, tx *sql.Tx, id int64) error {
	if err := lockOutbox(ctx, tx); err != nil {
		return err
	}
	given, err := readAddresses(ctx, tx, `UPDATE notifications SET state = 'dead', last_error = ?
		WHERE state IN ('pending', 'failed') AND change_id IN (SELECT id FROM changes WHERE sentinel_id = ?) RETURNING channel, target`,
		vigil.SentinelRemoved, id)
	if err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, q(`SELECT id, payload FROM notifications
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
// importance clamped as there, claimImportance) taken in UTC, to the
// microsecond, as the index sentinels_claim (migration 0109) has it:
// PostgreSQL reads an index on an expression only for the same expression.
var claimPriority = fmt.Sprintf("((next_check AT TIME ZONE 'UTC') - make_interval(secs => %s * %d))",
	claimImportance, int64(vigil.ImportanceLead/time.Second))

// claimSettings is run in the transaction of a claim before its query:
// the planner is not to sort. Left to its estimates, it reads the due
// sentinels by a bitmap of the index and sorts them all whenever it
// expects few: always on a table without statistics yet (after a bulk
// import, before autovacuum analyses it: 50,000 due, each claim sorting
// them on disk), and, with statistics, whenever due sentinels are few
// among those the priority bound selects (it takes next_check <= now and
// that bound as independent, when the one nearly implies the other: 1,000
// due among 20,000 are expected as 86). Read in the index's order, a
// claim reads at most what the bound selects, and stops at the limit.
const claimSettings = "SET LOCAL enable_sort = off"

// claimQuery returns the query of ClaimDueSentinels and its arguments.
func claimQuery(now time.Time, limit int) (string, []any) {
	// A due sentinel's priority is at or before now too (its importance is
	// not negative, and both are exact to the microsecond): the bound stops
	// the read of the index there, when fewer than limit are due.
	return q("SELECT " + sentinelColumns + " FROM sentinels WHERE status = 'active' AND next_check <= ? AND " +
			claimPriority + " <= (CAST(? AS timestamptz) AT TIME ZONE 'UTC') ORDER BY " + claimPriority + ", id LIMIT ? FOR UPDATE SKIP LOCKED"),
		[]any{tv(now), tv(now), limit}
}

// claimImportance is the importance a claim orders a sentinel by, clamped
// as vigil.ClaimPriority says (NaN >= 0 holds in PostgreSQL, NaN <= 1 does
// not).
const claimImportance = "(CASE WHEN importance >= 0 AND importance <= 1 THEN importance ELSE 0 END)"

// ClaimDueSentinels implements vigil.SentinelStore: by vigil.ClaimPriority,
// to the microsecond PostgreSQL keeps times in. They are read in the order
// of the index sentinels_claim, up to the priority now: a claim reads the
// sentinels it takes and the few not due yet whose importance puts them
// before (due within their importance times the lead), not every due one,
// nor every sentinel when few are.
func (db *DB) ClaimDueSentinels(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]*vigil.Sentinel, error) {
	if limit <= 0 {
		return nil, vigil.Errorf(vigil.EINVALID, "claim limit must be positive")
	}
	if err := vigil.CheckStorableTime("sentinel nextCheck (the lease's end)", now.Add(lease)); err != nil {
		return nil, err
	}
	var out []*vigil.Sentinel
	err := db.update(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, claimSettings); err != nil {
			return fmt.Errorf("claim due sentinels: %w", err)
		}
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
			if _, err := tx.ExecContext(ctx, q("UPDATE sentinels SET next_check = ? WHERE id = ?"), tv(until), s.ID); err != nil {
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
	return db.update(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, q("UPDATE sentinels SET last_check = ?, next_check = ? WHERE id = ?"), tv(at), tv(next), id)
		return affected(res, err, "sentinel %d not found", id)
	})
}

// ReleaseSentinels implements vigil.SentinelStore. Claims are released in id order, the order
// in which concurrent writers lock rows, so that two releases cannot deadlock.
func (db *DB) ReleaseSentinels(ctx context.Context, leases []vigil.SentinelLease, now time.Time) (int, error) {
	if len(leases) == 0 {
		return 0, nil
	}
	if err := vigil.CheckStorableTime("sentinel nextCheck", now); err != nil {
		return 0, err
	}
	leases = slices.SortedFunc(slices.Values(leases), func(a, b vigil.SentinelLease) int { return cmp.Compare(a.SentinelID, b.SentinelID) })
	n := 0
	err := db.update(ctx, func(tx *sql.Tx) error {
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
