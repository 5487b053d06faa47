package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/vigil-web/vigil"
)

// sentinelNameConstraint is the constraint that keeps an owner's
// sentinel names unique in lower case by the "C" collation (0116).
const sentinelNameConstraint = "sentinels_owner_name_key"

// renameDuplicateSentinels is the Go step of 0116: it renames the
// sentinels that have the name of an older sentinel of their owner
// (vigil.SameSentinelName), each to the first of "name-2", "name-3"...
// that no other sentinel of the owner has, and then adds
// sentinelNameConstraint. The suffix keeps the name one the sentinel
// language takes (spec.IsValidName: letters, digits, '_' and '-'), which
// "name (2)" is not. The name is written wherever the sentinel keeps it
// (renameStoredSentinel): its column, its source's header and its spec.
func renameDuplicateSentinels(ctx context.Context, tx execer) error {
	rows, err := tx.QueryContext(ctx, "SELECT id, owner_id, name FROM sentinels ORDER BY owner_id, id")
	if err != nil {
		return fmt.Errorf("read the sentinels' names: %w", err)
	}
	var all []vigil.StoredSentinelName
	for rows.Next() {
		var s vigil.StoredSentinelName
		if err := rows.Scan(&s.ID, &s.OwnerID, &s.Name); err != nil {
			rows.Close()
			return fmt.Errorf("read the sentinels' names: %w", err)
		}
		all = append(all, s)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read the sentinels' names: %w", err)
	}
	for start := 0; start < len(all); {
		end := start
		for end < len(all) && all[end].OwnerID == all[start].OwnerID {
			end++
		}
		renamed := dedupeSentinelNames(all[start:end])
		for _, s := range all[start:end] {
			if name, ok := renamed[s.ID]; ok {
				if err := renameStoredSentinel(ctx, tx, s.ID, s.Name, name); err != nil {
					return err
				}
			}
		}
		start = end
	}
	if _, err := tx.ExecContext(ctx, "ALTER TABLE sentinels ADD CONSTRAINT "+sentinelNameConstraint+
		" UNIQUE (owner_id, name_key) DEFERRABLE INITIALLY DEFERRED"); err != nil {
		return fmt.Errorf("add the sentinel names' constraint: %w", err)
	}
	return nil
}

// dedupeSentinelNames returns the new names of the sentinels of one
// owner (owned, in id order) that have the name of an earlier one, by
// id: the first of "name-2", "name-3"... that none of the others has,
// as stored or renamed, its name cut (at a character) so that it keeps
// to the 200 bytes of a name (vigil.Sentinel.Validate).
func dedupeSentinelNames(owned []vigil.StoredSentinelName) map[int64]string {
	names := make([]string, len(owned))
	for i, s := range owned {
		names[i] = s.Name
	}
	used := func(name string, except int) bool {
		for j, n := range names {
			if j != except && vigil.SameSentinelName(n, name) {
				return true
			}
		}
		return false
	}
	renamed := map[int64]string{}
	for i, s := range owned {
		taken := false
		for j := range i {
			if vigil.SameSentinelName(names[j], s.Name) {
				taken = true
				break
			}
		}
		if !taken {
			continue
		}
		for n := 2; ; n++ {
			suffix := "-" + strconv.Itoa(n)
			base := s.Name
			for len(base)+len(suffix) > 200 {
				_, size := utf8.DecodeLastRuneInString(base)
				base = base[:len(base)-size]
			}
			if name := base + suffix; !used(name, i) {
				names[i] = name
				renamed[s.ID] = name
				break
			}
		}
	}
	return renamed
}

// isNameTaken reports whether err is a violation of
// sentinelNameConstraint: a sentinel given a name another of its owner
// has, in lower case, by a writer that did not look under the owner's
// sentinelNameLock, or did not see the other's (the constraint is
// checked at the commit).
func isNameTaken(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == "23505" && pe.ConstraintName == sentinelNameConstraint
}

// nameTaken returns the refusal (vigil.SentinelNameUsed) of the name of
// the first sentinel of list that another of its owner has, as the
// constraint compares them, read after err (a violation of
// sentinelNameConstraint) failed the write of list; if none is found
// now (the other renamed since), a refusal that names no sentinel.
func (db *DB) nameTaken(ctx context.Context, err error, list []*vigil.Sentinel) error {
	for _, s := range list {
		var id int64
		var name string
		switch lerr := db.read.QueryRowContext(ctx, `SELECT id, name FROM sentinels
			WHERE owner_id = $1 AND name_key = lower($2 COLLATE "C") AND id <> $3 ORDER BY id LIMIT 1`, s.OwnerID, s.Name, s.ID).Scan(&id, &name); {
		case lerr == nil:
			return vigil.SentinelNameUsed(s.Name, id, name)
		case !errors.Is(lerr, sql.ErrNoRows):
			return fmt.Errorf("%w (and the sentinel that has the name: %v)", err, lerr)
		}
	}
	return vigil.SentinelNameUsed(list[0].Name, 0, "")
}
