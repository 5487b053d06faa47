package postgres

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"fmt"
	"strings"

	"github.com/vigil-web/vigil"
)

const changeColumns = "id, sentinel_id, resource_id, from_version, to_version, detected_at, summary, records, reading"

func scanChange(row interface{ Scan(...any) error }) (*vigil.Change, error) {
	c := &vigil.Change{}
	var rec []byte
	var reading sql.NullString
	if err := row.Scan(&c.ID, &c.SentinelID, &c.ResourceID, &c.FromVersion, &c.ToVersion, ts{&c.DetectedAt}, &c.Summary, &rec, &reading); err != nil {
		return c, err
	}
	if len(rec) > 0 {
		c.Records = rec
	}
	return c, scanReading(c, reading)
}

// CreateChange implements vigil.ChangeStore.
func (db *DB) CreateChange(ctx context.Context, c *vigil.Change) error {
	if err := c.Validate(); err != nil {
		return err
	}
	return db.update(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, q("SELECT (SELECT count(*) FROM sentinels WHERE id = ?) + (SELECT count(*) FROM resources WHERE id = ?)"),
			c.SentinelID, c.ResourceID).Scan(&n); err != nil {
			return err
		}
		if n != 2 {
			return vigil.Errorf(vigil.ENOTFOUND, "sentinel %d or resource %d not found", c.SentinelID, c.ResourceID)
		}
		reading, err := readingValue(c.Reading)
		if err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, q(`INSERT INTO changes (sentinel_id, resource_id, from_version, to_version, detected_at, summary, records, reading)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`), c.SentinelID, c.ResourceID, c.FromVersion, c.ToVersion, tv(c.DetectedAt),
			c.Summary, specValue(c.Records), reading).Scan(&c.ID); err != nil {
			return err
		}
		return insertChangePages(ctx, tx, c)
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

// changeWhere returns the WHERE clause of the changes f matches (empty
// for all), and its arguments; f's Offset and Limit are the caller's.
func changeWhere(f vigil.ChangeFilter) (string, []any) {
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
	if len(where) == 0 {
		return "", nil
	}
	return " WHERE " + strings.Join(where, " AND "), args
}

// CountChangesBySentinel implements vigil.ChangeStore.
func (db *DB) CountChangesBySentinel(ctx context.Context, f vigil.ChangeFilter) (map[int64]int, error) {
	cond, args := changeWhere(f)
	rows, err := db.read.QueryContext(ctx, q("SELECT sentinel_id, count(*) FROM changes"+cond+" GROUP BY sentinel_id"), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	counts := map[int64]int{}
	for rows.Next() {
		var id int64
		var n int
		if err := rows.Scan(&id, &n); err != nil {
			return nil, err
		}
		counts[id] = n
	}
	return counts, rows.Err()
}

// FindChanges implements vigil.ChangeStore.
func (db *DB) FindChanges(ctx context.Context, f vigil.ChangeFilter) ([]*vigil.Change, int, error) {
	cond, args := changeWhere(f)
	var out []*vigil.Change
	var n int
	err := db.view(ctx, func(tx *sql.Tx) error {
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

// changePagesRows is how many rows of change_pages one INSERT writes at
// most (five parameters a row, far below PostgreSQL's 65,535).
const changePagesRows = 250

// insertChangePages indexes the pages the changes cs name
// (vigil.Change.Named), in the transaction that writes them: one
// statement a batch of changePagesRows pages, whichever changes they are
// of.
func insertChangePages(ctx context.Context, tx execer, cs ...*vigil.Change) error {
	args := make([]any, 0, 5*changePagesRows)
	flush := func() error {
		if len(args) == 0 {
			return nil
		}
		n := len(args) / 5
		_, err := tx.ExecContext(ctx, q("INSERT INTO change_pages (change_id, sentinel_id, url, url_key, resource_id) VALUES (?, ?, ?, ?, ?)"+
			strings.Repeat(", (?, ?, ?, ?, ?)", n-1)+" ON CONFLICT DO NOTHING"), args...)
		args = args[:0]
		return err
	}
	for _, c := range cs {
		for _, p := range c.Named() {
			args = append(args, c.ID, p.SentinelID, p.URL, urlKey(p.URL), p.ResourceID)
			if len(args) == 5*changePagesRows {
				if err := flush(); err != nil {
					return fmt.Errorf("index the pages of change %d: %w", c.ID, err)
				}
			}
		}
	}
	if err := flush(); err != nil {
		return fmt.Errorf("index the pages of changes %d to %d: %w", cs[0].ID, cs[len(cs)-1].ID, err)
	}
	return nil
}

// urlKey is what stands for url in the indexes of change_pages: the first
// 16 bytes of its SHA-256. An index entry of PostgreSQL holds at most
// 2,704 bytes, and the URL of a page as a change lists it is as long as
// the link the crawl followed.
func urlKey(url string) []byte {
	h := sha256.Sum256([]byte(url))
	return h[:16]
}

// execer is what the change_pages helpers need of a transaction: a
// *sql.Tx.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// backfillChanges and backfillBytes bound a batch of
// backfillChangePages: at most backfillChanges changes, and none after
// the one that takes the records read past backfillBytes (the records of
// a site's change list its pages: thousands of them, megabytes, when a
// whole site changed).
const backfillChanges = 500

var backfillBytes = 16 << 20 // a variable for the tests

// backfillChangePages indexes the pages of the changes stored before
// migrations/0105_change_pages.sql, in its transaction, a batch of changes
// at a time (changeBatch), their pages written changePagesRows a
// statement: a round trip a change would make a store of a million
// changes minutes long to migrate, all writes of changes waiting.
func backfillChangePages(ctx context.Context, tx execer) error {
	var after int64
	for {
		batch, err := changeBatch(ctx, tx, after)
		if err != nil || len(batch) == 0 {
			return err
		}
		if err := insertChangePages(ctx, tx, batch...); err != nil {
			return err
		}
		after = batch[len(batch)-1].ID
	}
}

// changeBatch returns the next changes after id after, in id order, with
// what Change.Named reads of them: at most backfillChanges, and none
// after the one whose records take the batch's past backfillBytes. The
// sizes are read first, so that the server sends no records the batch
// leaves (the rest of a result is read off the wire, even unused).
func changeBatch(ctx context.Context, tx execer, after int64) ([]*vigil.Change, error) {
	last, err := batchEnd(ctx, tx, after)
	if err != nil || last == 0 {
		return nil, err
	}
	rows, err := tx.QueryContext(ctx, q("SELECT id, sentinel_id, resource_id, records FROM changes WHERE id > ? AND id <= ? ORDER BY id"),
		after, last)
	if err != nil {
		return nil, fmt.Errorf("read the changes after %d: %w", after, err)
	}
	defer rows.Close()
	var batch []*vigil.Change
	for rows.Next() {
		c := &vigil.Change{}
		var rec []byte // copied by Scan: a json.RawMessage would be the driver's buffer
		if err := rows.Scan(&c.ID, &c.SentinelID, &c.ResourceID, &rec); err != nil {
			return nil, fmt.Errorf("read the changes after %d: %w", after, err)
		}
		c.Records = rec
		batch = append(batch, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the changes after %d: %w", after, err)
	}
	return batch, nil
}

// batchEnd returns the id of the last change of the batch after id
// after (changeBatch), 0 if there is no change after it.
func batchEnd(ctx context.Context, tx execer, after int64) (int64, error) {
	rows, err := tx.QueryContext(ctx, q("SELECT id, coalesce(octet_length(records), 0) FROM changes WHERE id > ? ORDER BY id LIMIT ?"),
		after, backfillChanges)
	if err != nil {
		return 0, fmt.Errorf("read the changes after %d: %w", after, err)
	}
	defer rows.Close()
	var last int64
	for size := 0; size < backfillBytes && rows.Next(); {
		var n int
		if err := rows.Scan(&last, &n); err != nil {
			return 0, fmt.Errorf("read the changes after %d: %w", after, err)
		}
		size += n
	}
	if err := rows.Err(); err != nil {
		return 0, fmt.Errorf("read the changes after %d: %w", after, err)
	}
	return last, nil
}

// FindChangePages implements vigil.ChangeStore. The pages of a sentinel
// are read once each: each is the next, in the order of the index
// change_pages_sentinel, after the one before (a skip scan), so that a
// sentinel with thousands of changes that name the same pages costs what
// its pages do. A filter on a page looks it up by resource id and by URL
// in the indexes, and stops at Limit.
func (db *DB) FindChangePages(ctx context.Context, f vigil.ChangePageFilter) ([]vigil.ChangePage, error) {
	var out []vigil.ChangePage
	seen := map[vigil.ChangePage]bool{}
	full := func() bool { return f.Limit > 0 && len(out) >= f.Limit }
	scan := func(rows *sql.Rows, err error) error {
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() && !full() {
			var p vigil.ChangePage
			if err := rows.Scan(&p.SentinelID, &p.URL, &p.ResourceID); err != nil {
				return err
			}
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
		return rows.Err()
	}
	err := db.view(ctx, func(tx *sql.Tx) error {
		for _, id := range f.SentinelIDs {
			if full() {
				break
			}
			var err error
			switch {
			case f.ResourceID == 0 && f.URL == "":
				err = scan(tx.QueryContext(ctx, sentinelPagesQuery, id))
			default:
				if f.ResourceID != 0 {
					err = scan(tx.QueryContext(ctx, q(`SELECT sentinel_id, url, resource_id FROM change_pages
						WHERE sentinel_id = ? AND resource_id = ?`), id, f.ResourceID))
				}
				if err == nil && f.URL != "" {
					err = scan(tx.QueryContext(ctx, q(`SELECT sentinel_id, url, resource_id FROM change_pages
						WHERE sentinel_id = ? AND url_key = ? AND url = ?`), id, urlKey(f.URL), f.URL))
				}
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("pages of the changes of sentinels %v: %w", f.SentinelIDs, err)
	}
	return out, nil
}

// sentinelPagesQuery returns the distinct pages the changes of sentinel $1
// name, by a skip scan of the index change_pages_sentinel: each row is
// the first after the one before. A page is told by its url_key, the
// hash that stands for its URL (two URLs of one hash would be listed as
// one, which SHA-256 does not give).
const sentinelPagesQuery = `WITH RECURSIVE pages AS (
	(SELECT url_key, url, resource_id FROM change_pages WHERE sentinel_id = $1 ORDER BY url_key, resource_id LIMIT 1)
	UNION ALL
	SELECT n.url_key, n.url, n.resource_id FROM pages p, LATERAL (SELECT url_key, url, resource_id FROM change_pages
		WHERE sentinel_id = $1 AND (url_key, resource_id) > (p.url_key, p.resource_id) ORDER BY url_key, resource_id LIMIT 1) n
)
SELECT $1::bigint, url, resource_id FROM pages`
