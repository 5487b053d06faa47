package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/vigil-web/vigil"
)

const versionColumns = `id, resource_id, seq, fetched_at, status, etag, last_modified, content_type, charset,
	size, content_hash, fetch_duration, error, read_as_text, tree_reading, url`

func scanVersion(row interface{ Scan(...any) error }) (*vigil.Version, error) {
	v := &vigil.Version{}
	var dur int64
	err := row.Scan(versionFields(v, &dur)...)
	v.FetchDuration = time.Duration(dur)
	return v, err
}

// versionFields returns where the columns versionColumns name are scanned
// into v, its fetch duration into dur, in nanoseconds.
func versionFields(v *vigil.Version, dur *int64) []any {
	return []any{&v.ID, &v.ResourceID, &v.Seq, ts{&v.FetchedAt}, &v.Status, &v.ETag, ts{&v.LastModified},
		&v.ContentType, &v.Charset, &v.Size, &v.ContentHash, dur, &v.Error, &v.ReadAsText, &v.TreeReading, textScan{&v.URL}}
}

// AppendVersion implements vigil.VersionStore.
func (db *DB) AppendVersion(ctx context.Context, a *vigil.Append) error {
	v := a.Version
	if v == nil || a.Blob == nil {
		return vigil.Errorf(vigil.EINVALID, "append needs a version and its blob")
	}
	if err := v.Validate(); err != nil {
		return err
	}
	if a.Blob.Hash != v.ContentHash {
		return vigil.Errorf(vigil.EINVALID, "blob hash differs from the version's contentHash")
	}
	for _, l := range a.Links {
		if err := l.Validate(); err != nil {
			return err
		}
	}
	if (a.Prev != nil && a.Prev.VersionID != a.PrevID) || ((a.Prev != nil || a.PrevBlob != nil) && a.PrevID == 0) {
		return vigil.Errorf(vigil.EINVALID, "prev body must be for version prevId")
	}
	var stored *vigil.Version // the fetch stored already, if it is
	err := db.update(ctx, func(tx execer) error {
		var exists int
		if err := tx.QueryRowContext(ctx, q("SELECT count(*) FROM resources WHERE id = ?"), v.ResourceID).Scan(&exists); err != nil {
			return err
		}
		if exists == 0 {
			return vigil.Errorf(vigil.ENOTFOUND, "resource %d not found", v.ResourceID)
		}
		// The same fetch appended again (two imports of one file at once,
		// each having read the page's history before the other wrote it)
		// is the version stored: looked for under the lock, where no
		// other append of the resource runs.
		var err error
		if stored, err = storedFetch(ctx, tx, v); err != nil || stored != nil {
			return err
		}
		var headID, headSeq int64
		err = tx.QueryRowContext(ctx, q(headQuery), v.ResourceID).Scan(&headID, &headSeq)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		if headID != a.PrevID {
			return vigil.Errorf(vigil.ECONFLICT, "resource %d: newest version is %d, not %d", v.ResourceID, headID, a.PrevID)
		}
		if err := putBlob(ctx, tx, a.Blob, a.RepairBlob); err != nil {
			return err
		}
		v.Seq = headSeq + 1
		err = tx.QueryRowContext(ctx, q(`INSERT INTO versions (id, resource_id, seq, fetched_at, status, etag, last_modified,
			content_type, charset, size, content_hash, fetch_duration, error, read_as_text, tree_reading, url)
			VALUES (`+nextID("versions")+`, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`),
			v.ResourceID, v.Seq, tv(v.FetchedAt), v.Status, v.ETag, tv(v.LastModified), v.ContentType, v.Charset,
			v.Size, v.ContentHash, int64(v.FetchDuration), v.Error, v.ReadAsText, v.TreeReading, nullText(v.URL)).Scan(&v.ID)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, q("INSERT INTO bodies (version_id, encoding, hash) VALUES (?, 'full', ?)"), v.ID, v.ContentHash); err != nil {
			return err
		}
		for i, l := range a.Links {
			l.VersionID = v.ID
			if _, err := tx.ExecContext(ctx, q("INSERT INTO links (version_id, ord, source, target, anchor, type) VALUES (?, ?, ?, ?, ?, ?)"),
				v.ID, i, l.Source, l.Target, l.Anchor, string(l.Type)); err != nil {
				return err
			}
		}
		if a.PrevBlob != nil {
			var prevHash string
			if err := tx.QueryRowContext(ctx, q("SELECT content_hash FROM versions WHERE id = ?"), a.PrevID).Scan(&prevHash); err != nil {
				return err
			}
			if a.PrevBlob.Hash != prevHash {
				return vigil.Errorf(vigil.EINVALID, "prevBlob hash differs from version %d's contentHash", a.PrevID)
			}
			if err := putBlob(ctx, tx, a.PrevBlob, false); err != nil {
				return err
			}
		}
		if a.Prev != nil {
			if a.Prev.Encoding == vigil.BodyPatch {
				a.Prev.BaseID = v.ID
			}
			if err := replaceBody(ctx, tx, a.Prev, nil); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil && stored != nil {
		*v = *stored
	}
	a.Existing = err == nil && stored != nil
	return err
}

// storedFetch returns the version of v's resource that holds the fetch v
// describes (the same fetch time, content hash, status and error), nil if
// none does.
func storedFetch(ctx context.Context, tx execer, v *vigil.Version) (*vigil.Version, error) {
	stored, err := scanVersion(tx.QueryRowContext(ctx, q("SELECT "+versionColumns+` FROM versions
		WHERE resource_id = ? AND fetched_at = ? AND content_hash = ? AND status = ? AND error = ? ORDER BY seq LIMIT 1`),
		v.ResourceID, tv(v.FetchedAt), v.ContentHash, v.Status, v.Error))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return stored, err
}

const headQuery = "SELECT id, seq FROM versions WHERE resource_id = ? ORDER BY seq DESC LIMIT 1"

// putBlob stores b unless its hash is stored, or, if repair, in place of
// the stored one (vigil.Append.RepairBlob).
func putBlob(ctx context.Context, tx execer, b *vigil.Blob, repair bool) error {
	if b == nil {
		return nil
	}
	// The same content may come encoded better (a full copy recompressed
	// for keeping): keep the smaller encoding. A repair replaces a
	// corrupt one, which is often the smaller (truncated).
	_, err := tx.ExecContext(ctx, q(`INSERT INTO blobs (hash, size, data) VALUES (?, ?, ?)
		ON CONFLICT (hash) DO UPDATE SET size = excluded.size, data = excluded.data
		WHERE ? OR length(excluded.data) < length(blobs.data)`), b.Hash, b.Size, b.Data, repair)
	return err
}

// replaceBody re-encodes one version's body inside tx.
func replaceBody(ctx context.Context, tx execer, b *vigil.StoredBody, blob *vigil.Blob) error {
	var resourceID int64
	var hash string
	err := tx.QueryRowContext(ctx, q("SELECT resource_id, content_hash FROM versions WHERE id = ?"), b.VersionID).Scan(&resourceID, &hash)
	if err != nil {
		return notFound(err, "version %d not found", b.VersionID)
	}
	var old sql.NullString
	if err := tx.QueryRowContext(ctx, q("SELECT hash FROM bodies WHERE version_id = ?"), b.VersionID).Scan(&old); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return err
	}
	switch b.Encoding {
	case vigil.BodyFull:
		if blob != nil {
			if blob.Hash != hash {
				return vigil.Errorf(vigil.EINVALID, "blob hash differs from version %d's contentHash", b.VersionID)
			}
			if err := putBlob(ctx, tx, blob, false); err != nil {
				return err
			}
		}
		var n int
		if err := tx.QueryRowContext(ctx, q("SELECT count(*) FROM blobs WHERE hash = ?"), hash).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return vigil.Errorf(vigil.EINVALID, "no blob %s for version %d", hash, b.VersionID)
		}
		_, err = tx.ExecContext(ctx, q(`UPDATE bodies SET encoding = 'full', hash = ?, base_id = NULL, data = NULL, tree_delta = ?
			WHERE version_id = ?`), hash, b.TreeDelta, b.VersionID)
	case vigil.BodyPatch:
		var baseResource, baseSeq, seq int64
		if err := tx.QueryRowContext(ctx, q("SELECT resource_id, seq FROM versions WHERE id = ?"), b.BaseID).Scan(&baseResource, &baseSeq); err != nil {
			return notFound(err, "base version %d not found", b.BaseID)
		}
		if err := tx.QueryRowContext(ctx, q("SELECT seq FROM versions WHERE id = ?"), b.VersionID).Scan(&seq); err != nil {
			return err
		}
		if baseResource != resourceID || b.BaseID == b.VersionID {
			return vigil.Errorf(vigil.EINVALID, "patch base %d is not another version of the same resource", b.BaseID)
		}
		if through, err := readThrough(ctx, tx, b.BaseID, b.VersionID); err != nil {
			return err
		} else if through {
			return vigil.Errorf(vigil.EINVALID, "version %d as a patch against version %d would make a cycle of patches: version %d is read through version %d", b.VersionID, b.BaseID, b.BaseID, b.VersionID)
		}
		if b.Data == nil {
			b.Data = []byte{}
		}
		_, err = tx.ExecContext(ctx, q(`UPDATE bodies SET encoding = 'patch', hash = NULL, base_id = ?, data = ?, tree_delta = ?
			WHERE version_id = ?`), b.BaseID, b.Data, b.TreeDelta, b.VersionID)
	default:
		return vigil.Errorf(vigil.EINVALID, "unknown body encoding %q", b.Encoding)
	}
	if err != nil {
		return err
	}
	if old.Valid {
		return dropUnusedBlobs(ctx, tx, []string{old.String})
	}
	return nil
}

// readThrough reports whether the body of version id is read through
// version through: whether through is on its chain of patches, which a
// patch of through against id would close into a cycle. A cycle already
// stored on the chain ends the walk (UNION keeps each id once).
func readThrough(ctx context.Context, tx execer, id, through int64) (bool, error) {
	var n int
	err := tx.QueryRowContext(ctx, q(`WITH RECURSIVE chain(id) AS (
			SELECT CAST(? AS BIGINT)
			UNION SELECT b.base_id FROM bodies b JOIN chain c ON b.version_id = c.id WHERE b.encoding = 'patch')
		SELECT count(*) FROM chain WHERE id = ?`), id, through).Scan(&n)
	if err != nil {
		return false, fmt.Errorf("chain of patches of version %d: %w", id, err)
	}
	return n > 0, nil
}

// FindVersionByID implements vigil.VersionStore.
func (db *DB) FindVersionByID(ctx context.Context, id int64) (*vigil.Version, error) {
	v, err := scanVersion(db.reader().QueryRowContext(ctx, q("SELECT "+versionColumns+" FROM versions WHERE id = ?"), id))
	if err != nil {
		return nil, notFound(err, "version %d not found", id)
	}
	return v, nil
}

// FindVersionBySeq implements vigil.VersionStore.
func (db *DB) FindVersionBySeq(ctx context.Context, resourceID, seq int64) (*vigil.Version, error) {
	v, err := scanVersion(db.reader().QueryRowContext(ctx, q("SELECT "+versionColumns+" FROM versions WHERE resource_id = ? AND seq = ?"), resourceID, seq))
	if err != nil {
		return nil, notFound(err, "resource %d has no version %d", resourceID, seq)
	}
	return v, nil
}

// LatestVersion implements vigil.VersionStore.
func (db *DB) LatestVersion(ctx context.Context, resourceID int64) (*vigil.Version, error) {
	v, err := scanVersion(db.reader().QueryRowContext(ctx, q("SELECT "+versionColumns+" FROM versions WHERE resource_id = ? ORDER BY seq DESC LIMIT 1"), resourceID))
	if err != nil {
		return nil, notFound(err, "resource %d has no version", resourceID)
	}
	return v, nil
}

// latestByURL selects a resource by URL with its newest version: no row
// if it has none.
var latestByURL = "SELECT " + qualified("r", resourceColumns) + ", " + qualified("v", versionColumns) +
	" FROM resources r JOIN versions v ON v.resource_id = r.id WHERE r.url = ? ORDER BY v.seq DESC LIMIT 1"

// qualified returns the columns cols, a list separated by commas, of the
// table named a in a query: "a.id, a.url".
func qualified(a, cols string) string {
	fields := strings.Split(cols, ",")
	for i, f := range fields {
		fields[i] = a + "." + strings.TrimSpace(f)
	}
	return strings.Join(fields, ", ")
}

// LatestVersionByURL implements vigil.VersionStore: one query when the
// resource has a version, a second for a resource without.
func (db *DB) LatestVersionByURL(ctx context.Context, rawURL string) (*vigil.Resource, *vigil.Version, error) {
	u, err := vigil.CanonicalURL(rawURL)
	if err != nil {
		return nil, nil, err
	}
	r, v := &vigil.Resource{}, &vigil.Version{}
	var dur int64
	err = db.reader().QueryRowContext(ctx, q(latestByURL), u).Scan(append([]any{&r.ID, &r.URL, &r.Host, ts{&r.CreatedAt}, importance{&r.Importance}},
		versionFields(v, &dur)...)...)
	if errors.Is(err, sql.ErrNoRows) {
		r, err := db.FindResourceByURL(ctx, u)
		return r, nil, err
	}
	if err != nil {
		return nil, nil, fmt.Errorf("newest version of %s: %w", vigil.RedactURL(u), err)
	}
	v.FetchDuration = time.Duration(dur)
	return r, v, nil
}

// VersionAt implements vigil.VersionStore.
func (db *DB) VersionAt(ctx context.Context, resourceID int64, t time.Time) (*vigil.Version, error) {
	v, err := scanVersion(db.reader().QueryRowContext(ctx, q("SELECT "+versionColumns+
		" FROM versions WHERE resource_id = ? AND fetched_at <= ? ORDER BY fetched_at DESC, seq DESC LIMIT 1"), resourceID, tv(t)))
	if err != nil {
		return nil, notFound(err, "resource %d has no version at %s", resourceID, t.UTC().Format(time.RFC3339))
	}
	return v, nil
}

// FindVersions implements vigil.VersionStore.
func (db *DB) FindVersions(ctx context.Context, f vigil.VersionFilter) ([]*vigil.Version, int, error) {
	where := []string{"resource_id = ?"}
	args := []any{f.ResourceID}
	if !f.Since.IsZero() {
		where, args = append(where, "fetched_at >= ?"), append(args, tv(f.Since))
	}
	if !f.Until.IsZero() {
		where, args = append(where, "fetched_at < ?"), append(args, tv(f.Until))
	}
	cond := " WHERE " + strings.Join(where, " AND ")
	order := " ORDER BY seq"
	if f.Descending {
		order += " DESC"
	}
	var out []*vigil.Version
	var n int
	err := db.view(ctx, func(tx execer) error {
		if err := tx.QueryRowContext(ctx, q("SELECT count(*) FROM versions"+cond), args...).Scan(&n); err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, q("SELECT "+versionColumns+" FROM versions"+cond+order+limitOffset(f.Limit, f.Offset)), args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			v, err := scanVersion(rows)
			if err != nil {
				return err
			}
			out = append(out, v)
		}
		return rows.Err()
	})
	return out, n, err
}

// Body implements vigil.VersionStore.
func (db *DB) Body(ctx context.Context, versionID int64) (*vigil.StoredBody, error) {
	b := &vigil.StoredBody{VersionID: versionID}
	var enc string
	err := db.reader().QueryRowContext(ctx, q("SELECT encoding, base_id, data, tree_delta FROM bodies WHERE version_id = ?"), versionID).
		Scan(&enc, idScan{&b.BaseID}, &b.Data, &b.TreeDelta)
	if err != nil {
		return nil, notFound(err, "version %d not found", versionID)
	}
	b.Encoding = vigil.BodyEncoding(enc)
	return b, nil
}

// FindBlob implements vigil.VersionStore.
func (db *DB) FindBlob(ctx context.Context, hash string) (*vigil.Blob, error) {
	b := &vigil.Blob{Hash: hash}
	err := db.reader().QueryRowContext(ctx, q("SELECT size, data FROM blobs WHERE hash = ?"), hash).Scan(&b.Size, &b.Data)
	if err != nil {
		return nil, notFound(err, "blob %s not found", hash)
	}
	return b, nil
}

// ReplaceBody implements vigil.VersionStore.
func (db *DB) ReplaceBody(ctx context.Context, b *vigil.StoredBody, blob *vigil.Blob) error {
	return db.update(ctx, func(tx execer) error { return replaceBody(ctx, tx, b, blob) })
}

// FindVersionsReadAsTextUnknown implements vigil.VersionStore.
func (db *DB) FindVersionsReadAsTextUnknown(ctx context.Context, reading int, beforeID int64, limit int) ([]*vigil.Version, error) {
	if limit < 1 {
		return nil, vigil.Errorf(vigil.EINVALID, "versions whose reason is not known: limit %d must be at least 1", limit)
	}
	if reading < 1 {
		return nil, vigil.Errorf(vigil.EINVALID, "versions whose reason is not known: reading %d must be at least 1", reading)
	}
	query, args := readAsTextUnknownQuery(reading, beforeID, limit)
	rows, err := db.reader().QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*vigil.Version
	for rows.Next() {
		v, err := scanVersion(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// readAsTextUnknownQuery returns the query of FindVersionsReadAsTextUnknown
// and its arguments: one arm for each reading below reading, each of which
// finds its highest ids below beforeID by the index on (tree_reading, id),
// in order, merged. A single range (tree_reading < reading) cannot give
// the ids in order, and SQLite, without statistics, would scan the table
// backwards by id instead, every version when none is left to read.
func readAsTextUnknownQuery(reading int, beforeID int64, limit int) (string, []any) {
	if beforeID <= 0 {
		beforeID = math.MaxInt64
	}
	arms := make([]string, 0, reading)
	args := make([]any, 0, 3*reading+1)
	for r := range reading {
		arms = append(arms, fmt.Sprintf("SELECT * FROM (SELECT %s FROM versions WHERE tree_reading = ? AND id < ? ORDER BY id DESC LIMIT ?) AS r%d", versionColumns, r))
		args = append(args, r, beforeID, limit)
	}
	return q(strings.Join(arms, " UNION ALL ") + " ORDER BY id DESC LIMIT ?"), append(args, limit)
}

// RecordReadAsText implements vigil.VersionStore.
func (db *DB) RecordReadAsText(ctx context.Context, versionID int64, reason string, reading int) error {
	if reading < 1 {
		return vigil.Errorf(vigil.EINVALID, "version %d: reading %d must be at least 1", versionID, reading)
	}
	return db.update(ctx, func(tx execer) error {
		// A reason recorded under a later reading (by a newer Vigil on
		// the same store) is kept.
		res, err := tx.ExecContext(ctx, q("UPDATE versions SET read_as_text = ?, tree_reading = ? WHERE id = ? AND tree_reading <= ?"),
			reason, reading, versionID, reading)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n > 0 {
			return err
		}
		var id int64
		return notFound(tx.QueryRowContext(ctx, q("SELECT id FROM versions WHERE id = ?"), versionID).Scan(&id), "version %d not found", versionID)
	})
}

// Links implements vigil.VersionStore.
func (db *DB) Links(ctx context.Context, versionID int64) ([]*vigil.Link, error) {
	rows, err := db.reader().QueryContext(ctx, q("SELECT version_id, source, target, anchor, type FROM links WHERE version_id = ? ORDER BY ord"), versionID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []*vigil.Link
	for rows.Next() {
		l := &vigil.Link{}
		var typ string
		if err := rows.Scan(&l.VersionID, &l.Source, &l.Target, &l.Anchor, &typ); err != nil {
			return nil, err
		}
		l.Type = vigil.LinkType(typ)
		out = append(out, l)
	}
	return out, rows.Err()
}

// BodySizes implements vigil.VersionStore.
func (db *DB) BodySizes(ctx context.Context, resourceID int64) ([]vigil.BodySize, error) {
	rows, err := db.reader().QueryContext(ctx, q(`SELECT v.id, v.seq, v.fetched_at, b.encoding, coalesce(b.hash, ''),
		coalesce(length(b.data), 0) + coalesce((SELECT length(data) FROM blobs WHERE hash = b.hash), 0), coalesce(length(b.tree_delta), 0)
		FROM versions v JOIN bodies b ON b.version_id = v.id WHERE v.resource_id = ? ORDER BY v.seq`), resourceID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []vigil.BodySize
	for rows.Next() {
		var s vigil.BodySize
		var enc string
		if err := rows.Scan(&s.VersionID, &s.Seq, ts{&s.FetchedAt}, &enc, &s.Hash, &s.Bytes, &s.TreeBytes); err != nil {
			return nil, err
		}
		s.Encoding = vigil.BodyEncoding(enc)
		out = append(out, s)
	}
	return out, rows.Err()
}

// DeleteVersionsBefore implements vigil.VersionStore.
func (db *DB) DeleteVersionsBefore(ctx context.Context, resourceID, seq int64) (int, error) {
	var n int64
	err := db.update(ctx, func(tx execer) error {
		var exists int64
		if err := tx.QueryRowContext(ctx, q("SELECT id FROM resources WHERE id = ?"), resourceID).Scan(&exists); err != nil {
			return notFound(err, "resource %d not found", resourceID)
		}
		var broken int
		err := tx.QueryRowContext(ctx, q(`SELECT count(*) FROM bodies b JOIN versions v ON v.id = b.version_id
			JOIN versions base ON base.id = b.base_id
			WHERE v.resource_id = ? AND v.seq >= ? AND base.seq < ?`), resourceID, seq, seq).Scan(&broken)
		if err != nil {
			return err
		}
		if broken > 0 {
			return vigil.Errorf(vigil.ECONFLICT, "resource %d: %d kept versions are patches against versions before %d", resourceID, broken, seq)
		}
		rows, err := tx.QueryContext(ctx, q(`SELECT DISTINCT b.hash FROM bodies b JOIN versions v ON v.id = b.version_id
			WHERE v.resource_id = ? AND v.seq < ? AND b.hash IS NOT NULL`), resourceID, seq)
		if err != nil {
			return err
		}
		var hashes []string
		for rows.Next() {
			var h string
			if err := rows.Scan(&h); err != nil {
				rows.Close()
				return err
			}
			hashes = append(hashes, h)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		// Bodies of the dropped versions first, newest base last: they may
		// be patches against each other.
		if _, err := tx.ExecContext(ctx, q("DELETE FROM bodies WHERE version_id IN (SELECT id FROM versions WHERE resource_id = ? AND seq < ?)"), resourceID, seq); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, q("DELETE FROM versions WHERE resource_id = ? AND seq < ?"), resourceID, seq)
		if err != nil {
			return err
		}
		if n, err = res.RowsAffected(); err != nil {
			return err
		}
		return dropUnusedBlobs(ctx, tx, hashes)
	})
	return int(n), err
}

// Stats implements vigil.VersionStore.
func (db *DB) Stats(ctx context.Context) (*vigil.StorageStats, error) {
	s := &vigil.StorageStats{}
	err := db.view(ctx, func(tx execer) error {
		if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM versions").Scan(&s.Versions); err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, "SELECT count(*), coalesce(sum(length(data)), 0) FROM blobs").Scan(&s.Blobs, &s.BlobBytes); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT count(data), coalesce(sum(length(data)), 0), coalesce(sum(length(tree_delta)), 0) FROM bodies`).
			Scan(&s.Patches, &s.PatchBytes, &s.TreeDeltaBytes)
	})
	return s, err
}
