package postgres

import (
	"context"
	"database/sql"
	"errors"
	"net/url"
	"strings"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/spec"
)

const resourceColumns = "id, url, host, created_at, importance"

func scanResource(row interface{ Scan(...any) error }) (*vigil.Resource, error) {
	r := &vigil.Resource{}
	err := row.Scan(&r.ID, &r.URL, &r.Host, ts{&r.CreatedAt}, importance{&r.Importance})
	return r, err
}

// EnsureResource implements vigil.ResourceStore.
func (db *DB) EnsureResource(ctx context.Context, rawURL string) (*vigil.Resource, error) {
	u, err := resourceURL(rawURL)
	if err != nil {
		return nil, err
	}
	// Most calls find the resource: try the read pool before taking the
	// write lock.
	r, err := scanResource(db.reader().QueryRowContext(ctx, q("SELECT "+resourceColumns+" FROM resources WHERE url = ?"), u))
	switch {
	case err == nil:
		return r, nil
	case !errors.Is(err, sql.ErrNoRows):
		return nil, err
	}
	err = db.update(ctx, func(tx *sql.Tx) error {
		// Concurrent ensures of one URL: the loser's insert does nothing
		// and it reads the winner's row. The URLs are kept unique by an
		// exclusion constraint on a hash index (resources_url_key,
		// migrations/0119_long_urls.sql), which ON CONFLICT names: it
		// infers none from a column.
		if _, err := tx.ExecContext(ctx, q("INSERT INTO resources (url, host, created_at) VALUES (?, ?, ?) ON CONFLICT ON CONSTRAINT resources_url_key DO NOTHING"),
			u, vigil.HostOf(u), tv(db.now().UTC())); err != nil {
			return err
		}
		r, err = scanResource(tx.QueryRowContext(ctx, q("SELECT "+resourceColumns+" FROM resources WHERE url = ?"), u))
		return err
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// resourceURL returns the URL a resource of rawURL is stored under:
// vigil.CanonicalURL, after spec.CheckHostName, which CanonicalURL leaves
// to its callers, so that no resource is stored under a host DNS refuses
// (an empty label, a label over 63 bytes, a name over 253): EINVALID,
// naming the host and what is wrong with it. Lookups by URL take such a
// host, and find what was stored under it before. Errors name rawURL with
// its password hidden (vigil.RedactURL), as CanonicalURL's do.
func resourceURL(rawURL string) (string, error) {
	if pu, err := url.Parse(strings.TrimSpace(rawURL)); err == nil {
		if err := spec.CheckHostName(pu); err != nil {
			return "", vigil.Errorf(vigil.EINVALID, "url %q: %v", vigil.RedactURL(rawURL), err)
		}
	}
	return vigil.CanonicalURL(rawURL)
}

// FindResourceByID implements vigil.ResourceStore.
func (db *DB) FindResourceByID(ctx context.Context, id int64) (*vigil.Resource, error) {
	r, err := scanResource(db.reader().QueryRowContext(ctx, q("SELECT "+resourceColumns+" FROM resources WHERE id = ?"), id))
	if err != nil {
		return nil, notFound(err, "resource %d not found", id)
	}
	return r, nil
}

// FindResourceByURL implements vigil.ResourceStore.
func (db *DB) FindResourceByURL(ctx context.Context, rawURL string) (*vigil.Resource, error) {
	u, err := vigil.CanonicalURL(rawURL)
	if err != nil {
		return nil, err
	}
	r, err := scanResource(db.reader().QueryRowContext(ctx, q("SELECT "+resourceColumns+" FROM resources WHERE url = ?"), u))
	if err != nil {
		return nil, notFound(err, "no resource has url %s", vigil.RedactURL(u))
	}
	return r, nil
}

// FindResources implements vigil.ResourceStore.
func (db *DB) FindResources(ctx context.Context, f vigil.ResourceFilter) ([]*vigil.Resource, int, error) {
	var where []string
	var args []any
	if f.ID != nil {
		where, args = append(where, "id = ?"), append(args, *f.ID)
	}
	if f.URL != nil {
		u, err := vigil.CanonicalURL(*f.URL)
		if err != nil {
			return nil, 0, err
		}
		where, args = append(where, "url = ?"), append(args, u)
	}
	if f.Host != nil {
		where, args = append(where, "host = ?"), append(args, strings.ToLower(*f.Host))
	}
	cond := ""
	if len(where) > 0 {
		cond = " WHERE " + strings.Join(where, " AND ")
	}
	var out []*vigil.Resource
	var n int
	err := db.view(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, q("SELECT count(*) FROM resources"+cond), args...).Scan(&n); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, q("SELECT "+resourceColumns+" FROM resources"+cond+" ORDER BY id"+limitOffset(f.Limit, f.Offset)), args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			r, err := scanResource(rows)
			if err != nil {
				return err
			}
			out = append(out, r)
		}
		return rows.Err()
	})
	return out, n, err
}

// DeleteResource implements vigil.ResourceStore. The resource's row is
// locked first, as an append locks it (and DeleteVersionsBefore): an
// append under way ends before the blobs to drop are read, its own
// among them. Read before, the append's version went with the cascade
// and its blob, read by no one, stayed.
func (db *DB) DeleteResource(ctx context.Context, id int64) error {
	return db.update(ctx, func(tx *sql.Tx) error {
		var locked int64
		if err := tx.QueryRowContext(ctx, q("SELECT id FROM resources WHERE id = ? FOR UPDATE"), id).Scan(&locked); err != nil {
			return notFound(err, "resource %d not found", id)
		}
		hashes, err := resourceHashes(ctx, tx, id)
		if err != nil {
			return err
		}
		// Bodies first: a patch's base is a version of the same resource.
		if _, err := tx.ExecContext(ctx, q("DELETE FROM bodies WHERE version_id IN (SELECT id FROM versions WHERE resource_id = ?)"), id); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, q("DELETE FROM resources WHERE id = ?"), id)
		if err := affected(res, err, "resource %d not found", id); err != nil {
			return err
		}
		return dropUnusedBlobs(ctx, tx, hashes)
	})
}

// resourceHashes lists the blobs a resource's full bodies use.
func resourceHashes(ctx context.Context, tx *sql.Tx, resourceID int64) ([]string, error) {
	rows, err := tx.QueryContext(ctx, q(`SELECT DISTINCT b.hash FROM bodies b JOIN versions v ON v.id = b.version_id
		WHERE v.resource_id = ? AND b.hash IS NOT NULL`), resourceID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var h string
		if err := rows.Scan(&h); err != nil {
			return nil, err
		}
		out = append(out, h)
	}
	return out, rows.Err()
}

// dropUnusedBlobs deletes those of hashes that no body uses any more.
func dropUnusedBlobs(ctx context.Context, tx *sql.Tx, hashes []string) error {
	for _, h := range hashes {
		if _, err := tx.ExecContext(ctx, q("DELETE FROM blobs WHERE hash = ? AND NOT EXISTS (SELECT 1 FROM bodies WHERE hash = ?)"), h, h); err != nil {
			return err
		}
	}
	return nil
}
