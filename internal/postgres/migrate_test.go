package postgres_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/vigil-web/vigil"
	"github.com/vigil-web/vigil/internal/postgres"
	"github.com/vigil-web/vigil/internal/storetest"
)

// fkIndexMigration is the migration that indexes the foreign keys 0001 left
// without one.
const fkIndexMigration = "0101_foreign_key_indexes.sql"

// olderSchema connects to the empty schema d selects and makes there the
// database an older Vigil left: every migration before the one named
// applied. The connection is closed at the test's end.
func olderSchema(t *testing.T, d, before string) *pgx.Conn {
	t.Helper()
	ctx := context.Background()
	c, err := pgx.Connect(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close(context.Background()) })
	if _, err := c.Exec(ctx, `CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	storetest.ApplyMigrationsBefore(t, "migrations", before, func(name, text string) error {
		if _, err := c.Exec(ctx, text); err != nil {
			return err
		}
		_, err := c.Exec(ctx, "INSERT INTO schema_migrations (name, applied_at) VALUES ($1, now())", name)
		return err
	})
	return c
}

// TestMigrateAddsForeignKeyIndexes migrates a database that has every
// migration before fkIndexMigration applied, as one created by an older
// Vigil, and checks that the outbox's foreign keys are indexed afterwards,
// like every other foreign key of the schema.
func TestMigrateAddsForeignKeyIndexes(t *testing.T) {
	ctx := context.Background()
	d, schema := newSchema(t)
	c := olderSchema(t, d, fkIndexMigration)
	// The old schema leaves the outbox's foreign keys unindexed.
	if got, want := unindexedForeignKeys(t, c, schema), []string{"notifications(change_id)", "notifications(user_id)"}; !slices.Equal(got, want) {
		t.Fatalf("unindexed foreign keys before: %v, want %v", got, want)
	}

	db, err := postgres.Open(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	db.Close()

	for _, want := range []struct{ name, column string }{{"notifications_change", "change_id"}, {"notifications_user", "user_id"}} {
		var def string
		err := c.QueryRow(ctx, `SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = 'notifications' AND indexname = $2`,
			schema, want.name).Scan(&def)
		if err != nil {
			t.Fatalf("index %s after migration: %v", want.name, err)
		}
		if !strings.HasSuffix(def, "("+want.column+")") {
			t.Errorf("index %s: %s", want.name, def)
		}
	}
	// Every foreign key leads an index now (a cascade or SET NULL from its
	// parent looks its rows up by it).
	if got := unindexedForeignKeys(t, c, schema); len(got) > 0 {
		t.Errorf("unindexed foreign keys after migration: %v", got)
	}
}

// unindexedForeignKeys returns, as table(column) and sorted, the foreign
// keys of schema whose first column leads no index.
func unindexedForeignKeys(t *testing.T, c *pgx.Conn, schema string) []string {
	t.Helper()
	rows, err := c.Query(context.Background(), `SELECT con.conrelid::regclass::text || '(' || a.attname || ')'
		FROM pg_constraint con
		JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = con.conkey[1]
		WHERE con.contype = 'f' AND con.connamespace = $1::regnamespace
		AND NOT EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = con.conrelid AND i.indkey[0] = con.conkey[1])
		ORDER BY 1`, schema)
	if err != nil {
		t.Fatal(err)
	}
	fks, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Fatal(err)
	}
	return fks
}

// TestMigrateFeedGeneration migrates a database an older Vigil left, with
// a sentinel in it: the sentinel is kept whole, its feed at generation 0
// (whose token is the one its feed URL always had), and rotates from there.
func TestMigrateFeedGeneration(t *testing.T) {
	ctx := context.Background()
	d, _ := newSchema(t)
	c := olderSchema(t, d, "0103_feed_generation.sql")
	at := func(sec int64) time.Time { return time.Unix(sec, 0).UTC() }
	if _, err := c.Exec(ctx, `INSERT INTO users (id, email, name, password_hash, created_at, updated_at) VALUES (1, 'ada@example.com', 'Ada', 'x', $1, $1)`, at(1)); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Exec(ctx, `INSERT INTO sentinels (id, owner_id, name, source, status, created_at, updated_at, next_check, last_check)
		VALUES (7, 1, 's', 'x', 'paused', $1, $2, $3, $4)`, at(1000), at(2000), at(3000), at(4000)); err != nil {
		t.Fatal(err)
	}
	db, err := postgres.Open(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	sn, err := db.FindSentinelByID(ctx, 7)
	if err != nil {
		t.Fatal(err)
	}
	want := vigil.Sentinel{ID: 7, OwnerID: 1, Name: "s", Source: "x", Status: vigil.SentinelPaused,
		CreatedAt: at(1000), UpdatedAt: at(2000), NextCheck: at(3000), LastCheck: at(4000)}
	if !reflect.DeepEqual(*sn, want) {
		t.Errorf("after the migration: %+v, want %+v", *sn, want)
	}
	if gen, err := db.RotateSentinelFeed(ctx, 7); err != nil || gen != 1 {
		t.Errorf("first rotation after the migration: %d, %v; want 1", gen, err)
	}
}

// TestMigrateChangePages migrates a database an older Vigil left, with
// changes of a site and of a page in it: the pages they name are indexed
// as those of new changes are.
func TestMigrateChangePages(t *testing.T) {
	ctx := context.Background()
	d, _ := newSchema(t)
	c := olderSchema(t, d, "0105_change_pages.sql")
	at := time.Unix(1, 0).UTC()
	for _, q := range []string{
		`INSERT INTO users (id, email, name, password_hash, created_at, updated_at) VALUES (1, 'ada@example.com', 'Ada', 'x', $1, $1)`,
		`INSERT INTO resources (id, url, host, created_at) VALUES (1, 'http://a.example/', 'a.example', $1), (2, 'http://a.example/guide', 'a.example', $1)`,
		`INSERT INTO sentinels (id, owner_id, name, source, status, created_at, updated_at, next_check, last_check) VALUES
			(7, 1, 'site', 'x', 'active', $1, $1, $1, $1), (8, 1, 'page', 'x', 'active', $1, $1, $1, $1)`,
		`INSERT INTO changes (id, sentinel_id, resource_id, from_version, to_version, detected_at, summary, records) VALUES
			(9, 7, 1, 0, 1, $1, '', convert_to('[{"op":"insert","kind":"page","page":{"url":"http://a.example/guide","resourceId":2}}]', 'UTF8')),
			(10, 8, 2, 1, 2, $1, '', convert_to('[{"op":"insert","kind":"text"}]', 'UTF8')),
			(11, 8, 2, 2, 3, $1, '', NULL)`,
	} {
		if _, err := c.Exec(ctx, q, at); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db, err := postgres.Open(ctx, d)
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

// countedTx counts the statements run through a transaction, and the
// bytes of records the reads of changes have the server send (each read
// run again, summed).
type countedTx struct {
	*sql.Tx
	execs, queries int
	maxSent        int // the most bytes of records one read asked for
	err            error
}

func (c *countedTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	c.execs++
	return c.Tx.ExecContext(ctx, query, args...)
}

func (c *countedTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	c.queries++
	if strings.Contains(query, ", records FROM changes") { // a read of the records themselves
		var sent int
		if err := c.Tx.QueryRowContext(ctx, "SELECT coalesce(sum(octet_length(records)), 0) FROM ("+query+") x", args...).Scan(&sent); err != nil {
			c.err = err
		}
		c.maxSent = max(c.maxSent, sent)
	}
	return c.Tx.QueryContext(ctx, query, args...)
}

// TestBackfillChangePagesBatches runs the migration's backfill over 600
// changes of 3 pages each: it writes the pages a batch of rows a
// statement, not a statement (a round trip, the changes table locked
// meanwhile) a change, and neither holds nor has the server send more
// records at a time than backfillBytes allows (a batch ends at the change
// that passes it).
func TestBackfillChangePagesBatches(t *testing.T) {
	const n = 600
	ctx := context.Background()
	d, _ := newSchema(t)
	db, err := postgres.Open(ctx, d)
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
	c, err := pgx.Connect(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	// Changes as an older Vigil left them: no pages indexed.
	records := `[{"op":"insert","kind":"page","page":{"url":"http://a.example/p","resourceId":2}},{"op":"delete","kind":"page","page":{"url":"http://a.example/q"}}]`
	if _, err := c.Exec(ctx, `INSERT INTO changes (sentinel_id, resource_id, from_version, to_version, detected_at, summary, records)
		SELECT $1, $2, g, g + 1, now(), '', convert_to($3, 'UTF8') FROM generate_series(1, $4) g`, sen.ID, r.ID, records, n); err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		bytes      int
		maxExecs   int
		minQueries int
		maxSent    int
	}{
		"default":          {bytes: 0, maxExecs: (3*n+249)/250 + 1, minQueries: 2, maxSent: n * len(records)},
		"bytes a batch 1k": {bytes: 1000, maxExecs: n, minQueries: n * len(records) / (1000 + len(records)), maxSent: 1000 + len(records)},
	} {
		t.Run(name, func(t *testing.T) {
			if tc.bytes > 0 {
				defer postgres.SetBackfillBytes(tc.bytes)()
			}
			sdb, err := sql.Open("pgx", d)
			if err != nil {
				t.Fatal(err)
			}
			defer sdb.Close()
			tx, err := sdb.BeginTx(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback()
			if _, err := tx.ExecContext(ctx, "DELETE FROM change_pages"); err != nil {
				t.Fatal(err)
			}
			ct := &countedTx{Tx: tx}
			if err := postgres.BackfillChangePages(ctx, ct); err != nil {
				t.Fatal(err)
			}
			var rows int
			if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM change_pages").Scan(&rows); err != nil {
				t.Fatal(err)
			}
			if rows != 3*n {
				t.Errorf("%d pages indexed, want %d", rows, 3*n)
			}
			if ct.execs > tc.maxExecs {
				t.Errorf("%d statements wrote the pages of %d changes, want at most %d", ct.execs, n, tc.maxExecs)
			}
			if ct.queries < tc.minQueries {
				t.Errorf("%d reads of changes, want at least %d with %d bytes a batch", ct.queries, tc.minQueries, tc.bytes)
			}
			if ct.err != nil || ct.maxSent > tc.maxSent {
				t.Errorf("a read of changes had the server send %d bytes of records (%v), want at most %d", ct.maxSent, ct.err, tc.maxSent)
			}
		})
	}
}

// TestMigrateVersionReadAsText migrates a database an older Vigil left,
// with a version in it: the version's reading is not known (0), so the
// warehouse reads its body once when asked, and records what it found.
func TestMigrateVersionReadAsText(t *testing.T) {
	ctx := context.Background()
	d, _ := newSchema(t)
	c := olderSchema(t, d, "0106_version_read_as_text.sql")
	at := time.Unix(1, 0).UTC()
	for _, q := range []string{
		`INSERT INTO resources (id, url, host, created_at) VALUES (5, 'http://example.com/', 'example.com', $1)`,
		`INSERT INTO versions (id, resource_id, seq, fetched_at, status, etag, last_modified, content_type, charset, size,
			content_hash, fetch_duration, error) VALUES (8, 5, 1, $1, 200, '', $1, 'text/html', 'utf-8', 0, 'x', 0, '')`,
	} {
		if _, err := c.Exec(ctx, q, at); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db, err := postgres.Open(ctx, d)
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
	d, _ := newSchema(t)
	c := olderSchema(t, d, "0110_user_admin.sql")
	for _, row := range []string{
		"INSERT INTO users (id, email, name, password_hash, created_at, updated_at) VALUES (7, 'bob@example.org', 'Bob', 'h', now(), now())",
		"INSERT INTO users (id, email, name, password_hash, created_at, updated_at) VALUES (3, 'ann@example.org', 'Ann', 'h', now(), now())",
		"INSERT INTO users (id, email, name, password_hash, created_at, updated_at) VALUES (9, 'cy@example.org', 'Cy', '', now(), now())",
		"INSERT INTO users (id, email, name, password_hash, created_at, updated_at) VALUES (1, 'dee@example.org', 'Dee', '', now(), now())",
	} {
		if _, err := c.Exec(ctx, row); err != nil {
			t.Fatalf("%s: %v", row, err)
		}
	}
	db, err := postgres.Open(ctx, d)
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
	d, _ := newSchema(t)
	olderSchema(t, d, "0111_secrets.sql")
	db, err := postgres.Open(ctx, d)
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
	d, _ := newSchema(t)
	c := olderSchema(t, d, "0112_change_reading.sql")
	at := time.Unix(1, 0).UTC()
	for _, q := range []string{
		`INSERT INTO users (id, email, name, password_hash, created_at, updated_at) VALUES (1, 'ada@example.com', 'Ada', 'x', $1, $1)`,
		`INSERT INTO resources (id, url, host, created_at) VALUES (2, 'http://a.example/', 'a.example', $1)`,
		`INSERT INTO sentinels (id, owner_id, name, source, status, created_at, updated_at, next_check, last_check) VALUES
			(8, 1, 'page', 'x', 'active', $1, $1, $1, $1)`,
		`INSERT INTO changes (id, sentinel_id, resource_id, from_version, to_version, detected_at, summary, records) VALUES
			(10, 8, 2, 1, 2, $1, 'older', convert_to('[{"op":"insert","kind":"text"}]', 'UTF8'))`,
	} {
		if _, err := c.Exec(ctx, q, at); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	db, err := postgres.Open(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	older, err := db.FindChangeByID(ctx, 10)
	if err != nil || older.Summary != "older" || older.Reading != nil {
		t.Fatalf("a change stored before the migration: %+v, %v; want it without a reading", older, err)
	}
	reading := &vigil.ChangeReading{AsText: "new", Why: "served as text/plain"}
	ch := &vigil.Change{SentinelID: 8, ResourceID: 2, FromVersion: 2, ToVersion: 3, DetectedAt: time.Unix(2, 0).UTC(), Summary: "after", Reading: reading}
	if err := db.CreateChange(ctx, ch); err != nil {
		t.Fatal(err)
	}
	cs, n, err := db.FindChanges(ctx, vigil.ChangeFilter{SentinelID: 8})
	if err != nil || n != 2 || !reflect.DeepEqual(cs[0].Reading, reading) || cs[1].Reading != nil {
		t.Errorf("changes after the migration: %d, %v: %+v", n, err, cs)
	}
}

// TestMigrateReportsSchema: opening a store made before a migration
// reports that migration as applied, and only it; opening it again applies
// none; and a migration the store records that this build does not have
// (a newer Vigil's) is reported as unknown, so that a daemon can say so.
func TestMigrateReportsSchema(t *testing.T) {
	ctx := context.Background()
	d, _ := newSchema(t)
	c := olderSchema(t, d, "0121_query_percent.sql")
	db, err := postgres.Open(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	if got := db.Schema(); !slices.Equal(got.Applied, []string{"0121_query_percent.sql"}) || len(got.Unknown) != 0 {
		t.Errorf("the first open's report: %+v, want 0121_query_percent.sql applied, none unknown", got)
	}
	db.Close()
	if _, err := c.Exec(ctx, "INSERT INTO schema_migrations (name, applied_at) VALUES ('9999_from_a_newer_vigil.sql', now())"); err != nil {
		t.Fatal(err)
	}
	again, err := postgres.Open(ctx, d)
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
	d, _ := newSchema(t)
	c := olderSchema(t, d, "0115_outbox_queue.sql")
	now := storetest.OutboxMigratedNow
	for _, r := range storetest.OutboxBeforeQueue {
		var sent time.Time
		if r.State == vigil.NotificationSent {
			sent = now
		}
		if _, err := c.Exec(ctx, `INSERT INTO notifications (channel, target, payload, state, attempts, next_attempt, last_error, created_at, sent_at)
			VALUES ('email', $1, '{}', $2, $3, $4, '', $5, $6)`, r.Target, string(r.State), r.Attempts, now.Add(r.Due), now.Add(-2*time.Hour), sent); err != nil {
			t.Fatal(err)
		}
	}
	db, err := postgres.Open(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	storetest.CheckOutboxMigrated(t, db)
}

// TestMigrateOutboxHeads: an outbox an older Vigil left, its addresses'
// heads not marked (0117), is delivered as TestMigrateOutboxQueue's.
func TestMigrateOutboxHeads(t *testing.T) {
	ctx := context.Background()
	d, _ := newSchema(t)
	c := olderSchema(t, d, "0117_outbox_heads.sql")
	now := storetest.OutboxMigratedNow
	for _, r := range storetest.OutboxBeforeQueue {
		var sent time.Time
		if r.State == vigil.NotificationSent {
			sent = now
		}
		if _, err := c.Exec(ctx, `INSERT INTO notifications (channel, target, payload, state, attempts, next_attempt, last_error, created_at, sent_at)
			VALUES ('email', $1, '{}', $2, $3, $4, '', $5, $6)`, r.Target, string(r.State), r.Attempts, now.Add(r.Due), now.Add(-2*time.Hour), sent); err != nil {
			t.Fatal(err)
		}
	}
	db, err := postgres.Open(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	storetest.CheckOutboxMigrated(t, db)
}

// TestMigrateLongURLs migrates a store an older Vigil left, with a
// resource and a version with links, to 0119: its URLs stay unique (an
// ensure of the stored URL finds its resource), and a URL or a link
// target longer than a B-tree index entry holds is stored.
func TestMigrateLongURLs(t *testing.T) {
	ctx := context.Background()
	d, _ := newSchema(t)
	c := olderSchema(t, d, "0119_long_urls.sql")
	for _, stmt := range []string{
		`INSERT INTO resources (id, url, host, created_at) VALUES (7, 'http://example.com/', 'example.com', now())`,
		`INSERT INTO versions (id, resource_id, seq, fetched_at, status, etag, last_modified, content_type, charset, size, content_hash, fetch_duration, error)
			VALUES (3, 7, 1, now(), 200, '', now(), 'text/html', 'utf-8', 1, 'h', 0, '')`,
		`INSERT INTO links (version_id, ord, source, target, anchor, type) VALUES (3, 0, 'http://example.com/', 'http://example.com/a', 'a', 'local')`,
	} {
		if _, err := c.Exec(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	db, err := postgres.Open(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	r, err := db.EnsureResource(ctx, "http://example.com/")
	if err != nil || r.ID != 7 {
		t.Fatalf("the stored URL ensured again: %+v, %v; want resource 7", r, err)
	}
	if _, err := c.Exec(ctx, `INSERT INTO resources (url, host, created_at) VALUES ('http://example.com/', 'example.com', now())`); err == nil {
		t.Fatal("a second resource of a stored URL was inserted")
	}
	long := "http://example.com/?q=" // of hex that does not compress, as an index entry may be
	for sum := sha256.Sum256(nil); len(long) < 5000; sum = sha256.Sum256(sum[:]) {
		long += hex.EncodeToString(sum[:])
	}
	if _, err := c.Exec(ctx, `INSERT INTO resources (url, host, created_at) VALUES ($1, 'example.com', now())`, long); err != nil {
		t.Fatalf("a resource of a URL of %d bytes: %v", len(long), err)
	}
	if _, err := c.Exec(ctx, `INSERT INTO links (version_id, ord, source, target, anchor, type) VALUES (3, 1, 'http://example.com/', $1, 'b', 'local')`, long); err != nil {
		t.Fatalf("a link to a URL of %d bytes: %v", len(long), err)
	}
}

// TestMigrateVersionURL migrates a store an older Vigil left, with a
// version in it, to 0120: the version has no final URL (read from its
// resource's own).
func TestMigrateVersionURL(t *testing.T) {
	ctx := context.Background()
	d, _ := newSchema(t)
	c := olderSchema(t, d, "0120_version_url.sql")
	for _, stmt := range []string{
		`INSERT INTO resources (id, url, host, created_at) VALUES (7, 'http://example.com/old', 'example.com', now())`,
		`INSERT INTO versions (id, resource_id, seq, fetched_at, status, etag, last_modified, content_type, charset, size, content_hash, fetch_duration, error)
			VALUES (3, 7, 1, now(), 200, '', now(), 'text/html', 'utf-8', 1, 'h', 0, '')`,
	} {
		if _, err := c.Exec(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	}
	db, err := postgres.Open(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	v, err := db.FindVersionByID(ctx, 3)
	if err != nil {
		t.Fatal(err)
	}
	if v.URL != "" || v.PageURL("http://example.com/old") != "http://example.com/old" {
		t.Errorf("after the migration: %+v, want no final URL", v)
	}
}

// TestMigrateQueryPercent migrates a store an older Vigil left, whose
// resources and version spell their queries' percent-encodings otherwise
// than vigil.CanonicalURL does now (storetest.QueryPercentResources), to
// 0121: each page keeps its history under its canonical URL.
func TestMigrateQueryPercent(t *testing.T) {
	ctx := context.Background()
	d, _ := newSchema(t)
	c := olderSchema(t, d, "0121_query_percent.sql")
	for id, u := range storetest.QueryPercentResources {
		if _, err := c.Exec(ctx, `INSERT INTO resources (id, url, host, created_at) VALUES ($1, $2, 'example.com', now())`, id, u); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.Exec(ctx, `INSERT INTO versions (id, resource_id, seq, fetched_at, status, etag, last_modified, content_type, charset, size, content_hash, fetch_duration, error, url)
			VALUES (9, 5, 1, now(), 200, '', now(), 'text/html', 'utf-8', 1, 'h', 0, '', $1)`, storetest.QueryPercentVersion); err != nil {
		t.Fatal(err)
	}
	db, err := postgres.Open(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	storetest.CheckQueryPercentRekeyed(t, db)
}
