package sqlite_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/sqlite"
	"github.com/vigil-web/vigil/internal/storetest"
)

// fkIndexMigration is the migration that indexes the foreign keys 0001 left
// without one.
const fkIndexMigration = "0101_foreign_key_indexes.sql"

// olderDatabase makes, in dir, the database an older Vigil left: every
// migration before the one named applied, then the statements given run
// (the rows the test migrates). It is closed at the test's end.
func olderDatabase(t *testing.T, dir, before string, rows ...string) *sql.DB {
	t.Helper()
	ctx := context.Background()
	c, err := sql.Open("sqlite", "file:"+filepath.Join(dir, sqlite.FileName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if _, err := c.ExecContext(ctx, `CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	storetest.ApplyMigrationsBefore(t, "migrations", before, func(name, text string) error {
		if _, err := c.ExecContext(ctx, text); err != nil {
			return err
		}
		_, err := c.ExecContext(ctx, "INSERT INTO schema_migrations (name, applied_at) VALUES (?, 1)", name)
		return err
	})
	for _, q := range rows {
		if _, err := c.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return c
}

// TestMigrateAddsForeignKeyIndexes migrates a database that has every
// migration before fkIndexMigration applied, as one created by an older
// Vigil, and checks that the outbox's foreign keys are indexed afterwards,
// like every other foreign key of the schema.
func TestMigrateAddsForeignKeyIndexes(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	c := olderDatabase(t, dir, fkIndexMigration)
	// The old schema leaves the outbox's foreign keys unindexed.
	if got, want := unindexedForeignKeys(t, c), []string{"notifications(change_id)", "notifications(user_id)"}; !slices.Equal(got, want) {
		t.Fatalf("unindexed foreign keys before: %v, want %v", got, want)
	}

	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	for _, want := range []struct{ name, column string }{{"notifications_change", "change_id"}, {"notifications_user", "user_id"}} {
		var column string
		if err := c.QueryRowContext(ctx, "SELECT name FROM pragma_index_info(?) WHERE seqno = 0", want.name).Scan(&column); err != nil {
			t.Fatalf("index %s after migration: %v", want.name, err)
		}
		if column != want.column {
			t.Errorf("index %s leads with %s, want %s", want.name, column, want.column)
		}
	}
	// Every foreign key leads an index now (a cascade or SET NULL from its
	// parent looks its rows up by it).
	if got := unindexedForeignKeys(t, c); len(got) > 0 {
		t.Errorf("unindexed foreign keys after migration: %v", got)
	}
	// And the cascade from a change uses it.
	var plan []string
	rows, err := c.QueryContext(ctx, "EXPLAIN QUERY PLAN SELECT id FROM notifications WHERE change_id = 1")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if p := strings.Join(plan, "; "); !strings.Contains(p, "notifications_change") {
		t.Errorf("lookup by change_id: %s", p)
	}
}

// TestMigrateIDsNeverReused migrates a database an older Vigil left, with
// sentinels and changes in it: the ids are numbered on from the largest,
// and an id given after the migration is never given again.
func TestMigrateIDsNeverReused(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	olderDatabase(t, dir, "0102_ids_never_reused.sql",
		`INSERT INTO users (id, email, name, password_hash, created_at, updated_at) VALUES (1, 'ada@example.com', 'Ada', 'x', 1, 1)`,
		`INSERT INTO resources (id, url, host, created_at) VALUES (1, 'http://example.com/', 'example.com', 1)`,
		`INSERT INTO sentinels (id, owner_id, name, source, status, created_at, updated_at, next_check, last_check) VALUES (7, 1, 's', 'x', 'active', 1, 1, 0, 0)`,
		`INSERT INTO changes (id, sentinel_id, resource_id, from_version, to_version, detected_at, summary) VALUES (9, 7, 1, 0, 1, 1, '')`,
	)
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	create := func() (*vigil.Sentinel, *vigil.Change) {
		t.Helper()
		sn := &vigil.Sentinel{OwnerID: 1, Name: "t", Source: "x", Status: vigil.SentinelActive}
		if err := db.CreateSentinel(ctx, sn); err != nil {
			t.Fatal(err)
		}
		ch := &vigil.Change{SentinelID: sn.ID, ResourceID: 1, ToVersion: 1, DetectedAt: time.Unix(1, 0)}
		if err := db.CreateChange(ctx, ch); err != nil {
			t.Fatal(err)
		}
		return sn, ch
	}
	sn, ch := create()
	if sn.ID != 8 || ch.ID != 10 {
		t.Errorf("after the migration: sentinel %d (want 8), change %d (want 10)", sn.ID, ch.ID)
	}
	if err := db.DeleteSentinel(ctx, sn.ID); err != nil { // and its change
		t.Fatal(err)
	}
	if sn, ch = create(); sn.ID != 9 || ch.ID != 11 {
		t.Errorf("after deleting the newest: sentinel %d (want 9), change %d (want 11)", sn.ID, ch.ID)
	}
}

// unindexedForeignKeys returns, as table(column) and sorted, the foreign
// keys whose first column leads no index (an INTEGER PRIMARY KEY, the rowid,
// counts as one).
func unindexedForeignKeys(t *testing.T, c *sql.DB) []string {
	t.Helper()
	rows, err := c.Query(`SELECT m.name, f."from" FROM sqlite_master m, pragma_foreign_key_list(m.name) f
		WHERE m.type = 'table' AND f.seq = 0
		AND NOT EXISTS (SELECT 1 FROM pragma_index_list(m.name) l, pragma_index_info(l.name) i
			WHERE i.seqno = 0 AND i.name = f."from")
		AND NOT EXISTS (SELECT 1 FROM pragma_table_info(m.name) c
			WHERE c.name = f."from" AND c.pk = 1 AND upper(c.type) = 'INTEGER'
			AND (SELECT count(*) FROM pragma_table_info(m.name) WHERE pk > 0) = 1)
		ORDER BY 1, 2`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var fks []string
	for rows.Next() {
		var table, column string
		if err := rows.Scan(&table, &column); err != nil {
			t.Fatal(err)
		}
		fks = append(fks, fmt.Sprintf("%s(%s)", table, column))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return fks
}

// TestMigrateFeedGeneration migrates a database an older Vigil left, with
// a sentinel in it: the sentinel is kept whole, its feed at generation 0
// (whose token is the one its feed URL always had), and rotates from there.
func TestMigrateFeedGeneration(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	olderDatabase(t, dir, "0103_feed_generation.sql",
		`INSERT INTO users (id, email, name, password_hash, created_at, updated_at) VALUES (1, 'ada@example.com', 'Ada', 'x', 1, 1)`,
		`INSERT INTO sentinels (id, owner_id, name, source, status, created_at, updated_at, next_check, last_check) VALUES (7, 1, 's', 'x', 'paused', 1000, 2000, 3000, 4000)`,
	)
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sn, err := db.FindSentinelByID(ctx, 7)
	if err != nil {
		t.Fatal(err)
	}
	want := vigil.Sentinel{ID: 7, OwnerID: 1, Name: "s", Source: "x", Status: vigil.SentinelPaused,
		CreatedAt: time.Unix(0, 1000).UTC(), UpdatedAt: time.Unix(0, 2000).UTC(), NextCheck: time.Unix(0, 3000).UTC(), LastCheck: time.Unix(0, 4000).UTC()}
	if !reflect.DeepEqual(*sn, want) {
		t.Errorf("after the migration: %+v, want %+v", *sn, want)
	}
	if gen, err := db.RotateSentinelFeed(ctx, 7); err != nil || gen != 1 {
		t.Errorf("first rotation after the migration: %d, %v; want 1", gen, err)
	}
}

// TestMigrateResourceIDsNeverReused migrates a database an older Vigil
// left, with a resource and a version in it: ids go on from the largest
// each table gave, and the ids of the newest resource and version, once
// deleted, are not given again.
func TestMigrateResourceIDsNeverReused(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	olderDatabase(t, dir, "0105_resource_ids_never_reused.sql",
		`INSERT INTO resources (id, url, host, created_at) VALUES (5, 'http://example.com/', 'example.com', 1)`,
		`INSERT INTO versions (id, resource_id, seq, fetched_at, status, etag, last_modified, content_type, charset, size,
			content_hash, fetch_duration, error) VALUES (8, 5, 1, 1, 200, '', 0, 'text/html', 'utf-8', 0, 'x', 0, '')`,
	)
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	create := func(url string) (*vigil.Resource, *vigil.Version) {
		t.Helper()
		r, err := db.EnsureResource(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		v := &vigil.Version{ResourceID: r.ID, FetchedAt: time.Unix(1, 0), Status: 200, ContentType: "text/html",
			ContentHash: storetest.Hash(nil)}
		if err := db.AppendVersion(ctx, &vigil.Append{Version: v, Blob: &vigil.Blob{Hash: v.ContentHash, Data: []byte("z")}}); err != nil {
			t.Fatal(err)
		}
		return r, v
	}
	r, v := create("http://example.com/a")
	if r.ID != 6 || v.ID != 9 {
		t.Errorf("after the migration: resource %d (want 6), version %d (want 9)", r.ID, v.ID)
	}
	if err := db.DeleteResource(ctx, r.ID); err != nil {
		t.Fatal(err)
	}
	if r, v = create("http://example.com/b"); r.ID != 7 || v.ID != 10 {
		t.Errorf("after deleting the newest: resource %d (want 7), version %d (want 10)", r.ID, v.ID)
	}
}

// TestMigrateChangePages migrates a database an older Vigil left, with
// changes of a site and of a page in it: the pages they name are indexed
// as those of new changes are.
func TestMigrateChangePages(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	olderDatabase(t, dir, "0106_change_pages.sql",
		`INSERT INTO users (id, email, name, password_hash, created_at, updated_at) VALUES (1, 'ada@example.com', 'Ada', 'x', 1, 1)`,
		`INSERT INTO resources (id, url, host, created_at) VALUES (1, 'http://a.example/', 'a.example', 1), (2, 'http://a.example/guide', 'a.example', 1)`,
		`INSERT INTO sentinels (id, owner_id, name, source, status, created_at, updated_at, next_check, last_check) VALUES
			(7, 1, 'site', 'x', 'active', 1, 1, 0, 0), (8, 1, 'page', 'x', 'active', 1, 1, 0, 0)`,
		`INSERT INTO changes (id, sentinel_id, resource_id, from_version, to_version, detected_at, summary, records) VALUES
			(9, 7, 1, 0, 1, 1, '', CAST('[{"op":"insert","kind":"page","page":{"url":"http://a.example/guide","resourceId":2}}]' AS BLOB)),
			(10, 8, 2, 1, 2, 1, '', CAST('[{"op":"insert","kind":"text"}]' AS BLOB)),
			(11, 8, 2, 2, 3, 1, '', NULL)`,
	)
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got, err := db.FindChangePages(ctx, vigil.ChangePageFilter{SentinelIDs: []int64{7, 8}})
	if err != nil {
		t.Fatal(err)
	}
	slices.SortFunc(got, func(a, b vigil.ChangePage) int { return strings.Compare(fmt.Sprint(a), fmt.Sprint(b)) })
	want := []vigil.ChangePage{{SentinelID: 7, ResourceID: 1}, {SentinelID: 7, URL: "http://a.example/guide", ResourceID: 2}, {SentinelID: 8, ResourceID: 2}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("pages after the migration: %+v, want %+v", got, want)
	}
}

// countedTx counts the reads run through a transaction.
type countedTx struct {
	*sql.Tx
	queries int
}

func (c *countedTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	c.queries++
	return c.Tx.QueryContext(ctx, query, args...)
}

// TestBackfillChangePagesBatches runs the migration's backfill over 600
// changes of 3 pages each: it indexes them all, and holds no more records
// at a time than backfillBytes allows (a batch ends at the change that
// passes it; the records of a whole site's change are megabytes).
func TestBackfillChangePagesBatches(t *testing.T) {
	const n = 600
	ctx := context.Background()
	dir := t.TempDir()
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	u := &vigil.User{Email: "ada@example.com", Name: "Ada", PasswordHash: "x"}
	if err := db.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	sen := &vigil.Sentinel{OwnerID: u.ID, Name: "site", Source: "x", Status: vigil.SentinelActive}
	if err := db.CreateSentinel(ctx, sen); err != nil {
		t.Fatal(err)
	}
	r, err := db.EnsureResource(ctx, "http://a.example/")
	if err != nil {
		t.Fatal(err)
	}
	c, err := sql.Open("sqlite", "file:"+filepath.Join(dir, sqlite.FileName)+"?_pragma=busy_timeout(10000)")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	// Changes as an older Vigil left them: no pages indexed.
	records := `[{"op":"insert","kind":"page","page":{"url":"http://a.example/p","resourceId":2}},{"op":"delete","kind":"page","page":{"url":"http://a.example/q"}}]`
	if _, err := c.ExecContext(ctx, `WITH RECURSIVE g(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM g WHERE i < ?)
		INSERT INTO changes (id, sentinel_id, resource_id, from_version, to_version, detected_at, summary, records)
		SELECT i, ?, ?, i, i + 1, 1, '', CAST(? AS BLOB) FROM g`, n, sen.ID, r.ID, records); err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		bytes      int
		minQueries int
	}{
		"default":          {bytes: 0, minQueries: 2},
		"bytes a batch 1k": {bytes: 1000, minQueries: n * len(records) / (1000 + len(records))},
	} {
		t.Run(name, func(t *testing.T) {
			if tc.bytes > 0 {
				defer sqlite.SetBackfillBytes(tc.bytes)()
			}
			tx, err := c.BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback()
			if _, err := tx.ExecContext(ctx, "DELETE FROM change_pages"); err != nil {
				t.Fatal(err)
			}
			ct := &countedTx{Tx: tx}
			if err := sqlite.BackfillChangePages(ctx, ct); err != nil {
				t.Fatal(err)
			}
			var rows int
			if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM change_pages").Scan(&rows); err != nil {
				t.Fatal(err)
			}
			if rows != 3*n {
				t.Errorf("%d pages indexed, want %d", rows, 3*n)
			}
			if ct.queries < tc.minQueries {
				t.Errorf("%d reads of changes, want at least %d with %d bytes a batch", ct.queries, tc.minQueries, tc.bytes)
			}
		})
	}
}

// TestMigrateVersionReadAsText migrates a database an older Vigil left,
// with a version in it: the version's reading is not known (0), so the
// warehouse reads its body once when asked, and records what it found.
func TestMigrateVersionReadAsText(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	olderDatabase(t, dir, "0107_version_read_as_text.sql",
		`INSERT INTO resources (id, url, host, created_at) VALUES (5, 'http://example.com/', 'example.com', 1)`,
		`INSERT INTO versions (id, resource_id, seq, fetched_at, status, etag, last_modified, content_type, charset, size,
			content_hash, fetch_duration, error) VALUES (8, 5, 1, 1, 200, '', 0, 'text/html', 'utf-8', 0, 'x', 0, '')`,
	)
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	v, err := db.FindVersionByID(ctx, 8)
	if err != nil {
		t.Fatal(err)
	}
	if v.ReadAsText != "" || v.TreeReading != 0 || v.ContentType != "text/html" {
		t.Errorf("after the migration: %+v, want reading 0 and no reason", v)
	}
	if err := db.RecordReadAsText(ctx, 8, "line 1, column 8: end tag </r> does not match the start tag <a>", 5); err != nil {
		t.Fatal(err)
	}
	if v, err = db.FindVersionByID(ctx, 8); err != nil || v.ReadAsText != "line 1, column 8: end tag </r> does not match the start tag <a>" || v.TreeReading != 5 {
		t.Errorf("recorded after the migration: %+v, %v", v, err)
	}
}

// TestMigrateMakesFirstUserAdmin: a database made before the
// administrator role gets one administrator, the user with the lowest id
// among those with a password (one without could not sign in to use the
// role), so that somebody can still manage the users in the dashboard.
func TestMigrateMakesFirstUserAdmin(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	olderDatabase(t, dir, "0112_user_admin.sql",
		"INSERT INTO users (id, email, name, password_hash, created_at, updated_at) VALUES (7, 'bob@example.org', 'Bob', 'h', 1, 1)",
		"INSERT INTO users (id, email, name, password_hash, created_at, updated_at) VALUES (3, 'ann@example.org', 'Ann', 'h', 2, 2)",
		"INSERT INTO users (id, email, name, password_hash, created_at, updated_at) VALUES (9, 'cy@example.org', 'Cy', '', 3, 3)",
		"INSERT INTO users (id, email, name, password_hash, created_at, updated_at) VALUES (1, 'dee@example.org', 'Dee', '', 4, 4)")
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	users, err := db.FindUsers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var admins []int64
	for _, u := range users {
		if u.Admin {
			admins = append(admins, u.ID)
		}
	}
	if !slices.Equal(admins, []int64{3}) {
		t.Errorf("administrators after the migration: %v, want [3]", admins)
	}
}

// TestMigrateSecrets: a database made before the secrets table gets it,
// empty, and keeps keys written after the migration.
func TestMigrateSecrets(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	olderDatabase(t, dir, "0113_secrets.sql")
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Secret(ctx, "secret"); vigil.ErrorCode(err) != vigil.ENOTFOUND {
		t.Errorf("a key after the migration: %v, want ENOTFOUND", err)
	}
	if got, stored, err := db.EnsureSecret(ctx, "secret", []byte("the data directory's key, imported")); err != nil || !stored || string(got) != "the data directory's key, imported" {
		t.Errorf("EnsureSecret after the migration: %q, %v, %v", got, stored, err)
	}
}

// TestMigrateChangeReading: a change stored before changes kept how their
// versions were read reads back without a reading, and one stored after
// the migration keeps its own.
func TestMigrateChangeReading(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	olderDatabase(t, dir, "0114_change_reading.sql",
		`INSERT INTO users (id, email, name, password_hash, created_at, updated_at) VALUES (1, 'ada@example.com', 'Ada', 'x', 1, 1)`,
		`INSERT INTO resources (id, url, host, created_at) VALUES (2, 'http://a.example/', 'a.example', 1)`,
		`INSERT INTO sentinels (id, owner_id, name, source, status, created_at, updated_at, next_check, last_check) VALUES
			(8, 1, 'page', 'x', 'active', 1, 1, 0, 0)`,
		`INSERT INTO changes (id, sentinel_id, resource_id, from_version, to_version, detected_at, summary, records) VALUES
			(10, 8, 2, 1, 2, 1, 'older', CAST('[{"op":"insert","kind":"text"}]' AS BLOB))`,
	)
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	older, err := db.FindChangeByID(ctx, 10)
	if err != nil || older.Summary != "older" || older.Reading != nil {
		t.Fatalf("a change stored before the migration: %+v, %v; want it without a reading", older, err)
	}
	reading := &vigil.ChangeReading{AsText: "new", Why: "served as text/plain"}
	c := &vigil.Change{SentinelID: 8, ResourceID: 2, FromVersion: 2, ToVersion: 3, DetectedAt: time.Unix(2, 0).UTC(), Summary: "after", Reading: reading}
	if err := db.CreateChange(ctx, c); err != nil {
		t.Fatal(err)
	}
	cs, n, err := db.FindChanges(ctx, vigil.ChangeFilter{SentinelID: 8})
	if err != nil || n != 2 || !reflect.DeepEqual(cs[0].Reading, reading) || cs[1].Reading != nil {
		t.Errorf("changes after the migration: %d, %v: %+v", n, err, cs)
	}
}

// TestMigrateReportsSchema: opening a store made before the last
// migration reports that migration as applied, and only it; opening it
// again applies none; and a migration the store records that this build
// does not have (a newer Vigil's) is reported as unknown, so that a daemon
// can say so.
func TestMigrateReportsSchema(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	files, err := filepath.Glob("migrations/*.sql")
	if err != nil || len(files) == 0 {
		t.Fatalf("the migrations: %v, %v", files, err)
	}
	last := filepath.Base(slices.Max(files))
	c := olderDatabase(t, dir, last)
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := db.Schema(); !slices.Equal(got.Applied, []string{last}) || len(got.Unknown) != 0 {
		t.Errorf("the first open's report: %+v, want %s applied, none unknown", got, last)
	}
	db.Close()
	if _, err := c.ExecContext(ctx, "INSERT INTO schema_migrations (name, applied_at) VALUES ('9999_from_a_newer_vigil.sql', 1)"); err != nil {
		t.Fatal(err)
	}
	again, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if got := again.Schema(); len(got.Applied) != 0 || !slices.Equal(got.Unknown, []string{"9999_from_a_newer_vigil.sql"}) {
		t.Errorf("the second open's report: %+v, want none applied, 9999_from_a_newer_vigil.sql unknown", got)
	}
}

// TestMigrateOutboxQueue migrates an outbox an older Vigil left, with
// entries sent, pending, under a worker's lease, failed and waiting for
// their retries, and dead: claims deliver them all, each address's in
// queue order (storetest.CheckOutboxMigrated).
func TestMigrateOutboxQueue(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	c := olderDatabase(t, dir, "0119_outbox_queue.sql")
	now := storetest.OutboxMigratedNow
	for _, r := range storetest.OutboxBeforeQueue {
		sent := int64(0)
		if r.State == vigil.NotificationSent {
			sent = now.UnixNano()
		}
		if _, err := c.ExecContext(ctx, `INSERT INTO notifications (channel, target, payload, state, attempts, next_attempt, last_error, created_at, sent_at)
			VALUES ('email', ?, '{}', ?, ?, ?, '', ?, ?)`, r.Target, string(r.State), r.Attempts, now.Add(r.Due).UnixNano(), now.Add(-2*time.Hour).UnixNano(), sent); err != nil {
			t.Fatal(err)
		}
	}
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	storetest.CheckOutboxMigrated(t, db)
}

// TestMigrateOutboxHeads migrates an outbox an older Vigil left, its
// addresses' heads not marked (0120), with
// entries sent, pending, under a worker's lease, failed and waiting for
// their retries, and dead: claims deliver them all, each address's in
// queue order (storetest.CheckOutboxMigrated).
func TestMigrateOutboxHeads(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	c := olderDatabase(t, dir, "0120_outbox_heads.sql")
	now := storetest.OutboxMigratedNow
	for _, r := range storetest.OutboxBeforeQueue {
		sent := int64(0)
		if r.State == vigil.NotificationSent {
			sent = now.UnixNano()
		}
		if _, err := c.ExecContext(ctx, `INSERT INTO notifications (channel, target, payload, state, attempts, next_attempt, last_error, created_at, sent_at)
			VALUES ('email', ?, '{}', ?, ?, ?, '', ?, ?)`, r.Target, string(r.State), r.Attempts, now.Add(r.Due).UnixNano(), now.Add(-2*time.Hour).UnixNano(), sent); err != nil {
			t.Fatal(err)
		}
	}
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	storetest.CheckOutboxMigrated(t, db)
}

// TestMigrateVersionURL migrates a database an older Vigil left, with a
// version in it: the version has no final URL (read from its resource's
// own), and a version appended after records one.
func TestMigrateVersionURL(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	olderDatabase(t, dir, "0122_version_url.sql",
		`INSERT INTO resources (id, url, host, created_at) VALUES (5, 'http://example.com/old', 'example.com', 1)`,
		`INSERT INTO versions (id, resource_id, seq, fetched_at, status, etag, last_modified, content_type, charset, size,
			content_hash, fetch_duration, error) VALUES (8, 5, 1, 1, 200, '', 0, 'text/html', 'utf-8', 0, 'x', 0, '')`,
	)
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	v, err := db.FindVersionByID(ctx, 8)
	if err != nil {
		t.Fatal(err)
	}
	if v.URL != "" || v.PageURL("http://example.com/old") != "http://example.com/old" {
		t.Errorf("after the migration: %+v, want no final URL", v)
	}
}

// TestMigrateQueryPercent migrates a database an older Vigil left, whose
// resources and version spell their queries' percent-encodings otherwise
// than vigil.CanonicalURL does now (storetest.QueryPercentResources): each
// page keeps its history under its canonical URL.
func TestMigrateQueryPercent(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	var rows []string
	for id, u := range storetest.QueryPercentResources {
		rows = append(rows, fmt.Sprintf(`INSERT INTO resources (id, url, host, created_at) VALUES (%d, '%s', 'example.com', 1)`, id, u))
	}
	rows = append(rows, `INSERT INTO versions (id, resource_id, seq, fetched_at, status, etag, last_modified, content_type, charset, size,
			content_hash, fetch_duration, error, url) VALUES (9, 5, 1, 1, 200, '', 0, 'text/html', 'utf-8', 0, 'x', 0, '', '`+storetest.QueryPercentVersion+`')`)
	olderDatabase(t, dir, "0123_query_percent.sql", rows...)
	db, err := sqlite.Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	storetest.CheckQueryPercentRekeyed(t, db)
}
