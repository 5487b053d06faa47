package sqlite

import (
	"context"
	"strings"

	"github.com/vigil-web/vigil"
)

const changeColumns = "id, sentinel_id, resource_id, from_version, to_version, detected_at, summary, records"

func scanChange(row interface{ Scan(...any) error }) (*vigil.Change, error) {
	c := &vigil.Change{}
	var rec []byte
	err := row.Scan(&c.ID, &c.SentinelID, &c.ResourceID, &c.FromVersion, &c.ToVersion, ts{&c.DetectedAt}, &c.Summary, &rec)
	if len(rec) > 0 {
		c.Records = rec
	}
	return c, err
}

// CreateChange implements vigil.ChangeStore.
func (db *DB) CreateChange(ctx context.Context, c *vigil.Change) error {
	if err := c.Validate(); err != nil {
		return err
	}
	return db.update(ctx, func(tx execer) error {
		var n int
		if err := tx.QueryRowContext(ctx, q("SELECT (SELECT count(*) FROM sentinels WHERE id = ?) + (SELECT count(*) FROM resources WHERE id = ?)"),
			c.SentinelID, c.ResourceID).Scan(&n); err != nil {
			return err
		}
		if n != 2 {
			return vigil.Errorf(vigil.ENOTFOUND, "sentinel %d or resource %d not found", c.SentinelID, c.ResourceID)
		}
		return tx.QueryRowContext(ctx, q(`INSERT INTO changes (id, sentinel_id, resource_id, from_version, to_version, detected_at, summary, records)
			VALUES (`+nextID("changes")+`, ?, ?, ?, ?, ?, ?, ?) RETURNING id`), c.SentinelID, c.ResourceID, c.FromVersion, c.ToVersion, tv(c.DetectedAt),
			c.Summary, specValue(c.Records)).Scan(&c.ID)
	})
}

// FindChangeByID implements vigil.ChangeStore.
func (db *DB) FindChangeByID(ctx context.Context, id int64) (*vigil.Change, error) {
	c, err := scanChange(db.read.QueryRowContext(ctx, q("SELECT "+changeColumns+" FROM changes WHERE id = ?"), id))
	if err != nil {
		return nil, notFound(err, "change %d not found", id)
	}
	return c, nil
}

// FindChanges implements vigil.ChangeStore.
func (db *DB) FindChanges(ctx context.Context, f vigil.ChangeFilter) ([]*vigil.Change, int, error) {
	var where []string
	var args []any
	if f.SentinelID != 0 {
		where, args = append(where, "sentinel_id = ?"), append(args, f.SentinelID)
	}
	if f.OwnerID != 0 {
		where, args = append(where, "sentinel_id IN (SELECT id FROM sentinels WHERE owner_id = ?)"), append(args, f.OwnerID)
	}
	if f.ResourceID != 0 {
		where, args = append(where, "resource_id = ?"), append(args, f.ResourceID)
	}
	if !f.Since.IsZero() {
		where, args = append(where, "detected_at >= ?"), append(args, tv(f.Since))
	}
	if !f.Until.IsZero() {
		where, args = append(where, "detected_at < ?"), append(args, tv(f.Until))
	}
	cond := ""
	if len(where) > 0 {
		cond = " WHERE " + strings.Join(where, " AND ")
	}
	var out []*vigil.Change
	var n int
	err := db.view(ctx, func(tx execer) error {
		if err := tx.QueryRowContext(ctx, q("SELECT count(*) FROM changes"+cond), args...).Scan(&n); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, q("SELECT "+changeColumns+" FROM changes"+cond+" ORDER BY detected_at DESC, id DESC"+limitOffset(f.Limit, f.Offset)), args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			c, err := scanChange(rows)
			if err != nil {
				return err
			}
			out = append(out, c)
		}
		return rows.Err()
	})
	return out, n, err
}
