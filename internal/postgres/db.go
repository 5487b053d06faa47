// Package postgres is Vigil's store for scale: every vigil store interface
// on PostgreSQL, through github.com/jackc/pgx/v5 (a pgxpool pool, used
// through database/sql with pgx's stdlib adapter so that the SQL reads as
// in internal/sqlite).
//
// Many processes may write at once: each write is one transaction; an
// append locks its resource's row (SELECT ... FOR UPDATE) so that two
// writers of one resource serialise, and claims of due sentinels and
// outbox entries use FOR UPDATE SKIP LOCKED so that workers never claim the
// same row; the retry of a dead letter and the removal of its sentinel
// both lock the sentinel's row first, so that one wholly precedes the
// other; a write of several sentinels (UpdateSentinels, RecordChecks)
// locks their rows in id order, so that two such writes never deadlock.
// Migrations are the .sql files under migrations/ (the SQLite
// schema in PostgreSQL's dialect), embedded, applied in name order under an
// advisory lock and recorded in schema_migrations; a migration may have a
// Go step too (migrationSteps), run in its transaction after its SQL.
package postgres

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/vigil-web/vigil"
)

//go:embed migrations/*.sql
var migrations embed.FS

// DB is the PostgreSQL store. It implements vigil.Store.
type DB struct {
	pool  *pgxpool.Pool
	write *sql.DB // the same pool; two names so the code reads as the SQLite adapter's
	read  *sql.DB
	now   func() time.Time
	// schema is what Open did to the schema (Schema).
	schema vigil.SchemaReport
	// tx, in the copy of DB that InTransaction hands its function, is
	// the transaction every read and write of it runs in; failed is the
	// first of its reads or writes that PostgreSQL refused (txFailure),
	// after which the transaction can only be rolled back.
	tx     *sql.Tx
	failed *txFailure
}

var (
	_ vigil.Store          = (*DB)(nil)
	_ vigil.SchemaReporter = (*DB)(nil)
)

// Open connects to the database at dsn (a postgres:// URL or key=value
// string; a search_path parameter selects the schema) and migrates it.
func Open(ctx context.Context, dsn string) (*DB, error) { return open(ctx, dsn, openMigrate) }

// OpenExisting is Open for a database that must hold a Vigil store
// already: one whose schema (the first of the search path, where Open
// would migrate) has no schema_migrations table (no store, or not Vigil's) is left as it is and refused with an ENOTFOUND
// error, so that a command given a mistyped DSN does not turn another
// database into an empty store and answer as for one.
func OpenExisting(ctx context.Context, dsn string) (*DB, error) { return open(ctx, dsn, openExisting) }

// openMode is what open does to the database it opens.
type openMode int

const (
	openMigrate  openMode = iota // Open: make the store if need be, and migrate it
	openExisting                 // OpenExisting: refuse a database without one, migrate it
	openCurrent                  // OpenCurrent: refuse a database without one, and one to migrate
)

// open is Open, OpenExisting or OpenCurrent, as mode says.
func open(ctx context.Context, dsn string, mode openMode) (*DB, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	where := "postgres at " + address(&cfg.ConnConfig.Config)
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	// The pool connects lazily: its first connection, here, says which
	// store could not be reached, not the first migration.
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("%s: connect: %w", where, err)
	}
	var found bool
	var schema *string // none when no schema of the search path exists
	var searchPath string
	if err := pool.QueryRow(ctx, `SELECT current_schema(), current_setting('search_path'), EXISTS (SELECT 1 FROM information_schema.tables
		WHERE table_schema = current_schema() AND table_name = 'schema_migrations')`).Scan(&schema, &searchPath, &found); err != nil {
		pool.Close()
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	if schema == nil {
		// Nowhere to make the store, nor to read it: each mode says so
		// alike, and how to make the schema.
		pool.Close()
		return nil, vigil.Errorf(vigil.ENOTFOUND, "no store in %s: %s", where, noSchema(searchPath))
	}
	if mode != openMigrate && !found {
		pool.Close()
		return nil, vigil.Errorf(vigil.ENOTFOUND, "no store in %s: its schema %s has no schema_migrations table (vigil serve makes one at its first start, as vigil sentinel add and vigil import warc do; check the DSN's database and search_path)", where, strconv.Quote(*schema))
	}
	sdb := stdlib.OpenDBFromPool(pool)
	db := &DB{pool: pool, write: sdb, read: sdb,
		// PostgreSQL keeps microseconds.
		now: func() time.Time { return time.Now().Truncate(time.Microsecond) }}
	prepare := db.migrate
	if mode == openCurrent {
		prepare = db.checkCurrent
	}
	if err := prepare(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("%s: %w", where, err)
	}
	return db, nil
}

// noSchema says that no schema of searchPath (the connection's
// search_path) exists, and how to make the first: vigil makes its tables
// in a schema, not the schema (which takes a privilege on the database
// that the store's user need not have).
func noSchema(searchPath string) string {
	first := ""
	for _, s := range strings.Split(searchPath, ",") {
		if s = strings.TrimSpace(s); s != "" && s != `"$user"` {
			first = s
			break
		}
	}
	if first == "" {
		return fmt.Sprintf("no schema of its search path (%s) exists: set the DSN's search_path to a schema of the database", searchPath)
	}
	return fmt.Sprintf("no schema of its search path (%s) exists: CREATE SCHEMA %s makes it (then vigil serve makes the store at its first start, as vigil sentinel add and vigil import warc do), or check the DSN's database and search_path", searchPath, first)
}

// address says where a DSN connects, for errors: its host and port (or
// Unix socket) and database, never its user's password.
func address(c *pgconn.Config) string {
	addr := net.JoinHostPort(c.Host, strconv.Itoa(int(c.Port)))
	if strings.HasPrefix(c.Host, "/") {
		addr = fmt.Sprintf("%s/.s.PGSQL.%d", c.Host, c.Port)
	}
	return addr + ", database " + c.Database
}

// Schema returns the migrations Open applied and those the store records
// that this build does not have.
func (db *DB) Schema() vigil.SchemaReport { return db.schema }

// Close closes the pool.
func (db *DB) Close() error {
	err := db.write.Close()
	db.pool.Close()
	return err
}

// migrationSteps are the Go steps of migrations, by file name: run in the
// migration's transaction after its SQL, for what SQL does not say as the
// store's Go code does.
var migrationSteps = map[string]func(ctx context.Context, tx execer) error{
	"0105_change_pages.sql":         backfillChangePages,
	"0116_sentinel_name_unique.sql": renameDuplicateSentinels,
	"0121_query_percent.sql":        rekeyQueryPercent,
}

func (db *DB) migrate(ctx context.Context) error {
	names, err := migrationNames()
	if err != nil {
		return err
	}
	var report vigil.SchemaReport
	err = db.update(ctx, func(tx *sql.Tx) error {
		report = vigil.SchemaReport{}
		// One migrator at a time across processes: what schema_migrations
		// records after the lock stays so until this transaction ends.
		if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(7423190)"); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL)`); err != nil {
			return fmt.Errorf("migrate: %w", err)
		}
		done, err := appliedMigrations(ctx, tx)
		if err != nil {
			return err
		}
		for _, base := range missingMigrations(done, names) {
			text, err := migrations.ReadFile("migrations/" + base)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, string(text)); err != nil {
				return fmt.Errorf("migrate %s: %w", base, err)
			}
			if step := migrationSteps[base]; step != nil {
				if err := step(ctx, tx); err != nil {
					return fmt.Errorf("migrate %s: %w", base, err)
				}
			}
			if _, err := tx.ExecContext(ctx, "INSERT INTO schema_migrations (name, applied_at) VALUES ($1, now())", base); err != nil {
				return err
			}
			report.Applied = append(report.Applied, base)
		}
		// The migrations applied are this build's: done, read before
		// them, tells the unknown ones as well as a read after them.
		report.Unknown = unknownMigrations(done, names)
		return nil
	})
	if err != nil {
		return err
	}
	db.schema = report
	return nil
}

// migrationNames returns this build's migrations, the paths of the
// files under migrations/ in name order.
func migrationNames() ([]string, error) {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	return names, nil
}

// appliedMigrations returns the names schema_migrations records, read
// in tx with one query.
func appliedMigrations(ctx context.Context, tx *sql.Tx) (map[string]bool, error) {
	rows, err := tx.QueryContext(ctx, "SELECT name FROM schema_migrations")
	if err != nil {
		return nil, fmt.Errorf("read the schema's migrations: %w", err)
	}
	defer rows.Close()
	done := make(map[string]bool)
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, fmt.Errorf("read the schema's migrations: %w", err)
		}
		done[name] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the schema's migrations: %w", err)
	}
	return done, nil
}

// missingMigrations returns, in name order, the file names of the
// migrations names (this build's, migrationNames) that done
// (appliedMigrations) does not record.
func missingMigrations(done map[string]bool, names []string) []string {
	var missing []string
	for _, name := range names {
		if base := path.Base(name); !done[base] {
			missing = append(missing, base)
		}
	}
	return missing
}

// unknownMigrations returns, in name order, the migrations that done
// (appliedMigrations) records and names (this build's) does not hold.
func unknownMigrations(done map[string]bool, names []string) []string {
	known := make(map[string]bool, len(names))
	for _, name := range names {
		known[path.Base(name)] = true
	}
	var unknown []string
	for name := range done {
		if !known[name] {
			unknown = append(unknown, name)
		}
	}
	sort.Strings(unknown)
	return unknown
}

// update runs fn in one read-write transaction; inside InTransaction's,
// in it, with no savepoint of its own (see InTransaction).
func (db *DB) update(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if db.tx != nil {
		return db.inTransaction(fn)
	}
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// view runs fn in one read-only transaction (one snapshot); inside
// InTransaction's, in it, so that fn reads what it wrote, and an error of
// fn fails the transaction as a read's does (see txReader).
func (db *DB) view(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if db.tx != nil {
		if err := db.earlierFailure(); err != nil {
			return err
		}
		err := fn(db.tx)
		db.failedBy("read", err)
		return err
	}
	tx, err := db.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true, Isolation: sql.LevelRepeatableRead})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	return fn(tx)
}

// q numbers the ? placeholders of a query as PostgreSQL's $1, $2...
// (the queries contain no other question marks).
func q(s string) string {
	if !strings.Contains(s, "?") {
		return s
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// tv is how a time is stored: as itself in UTC, the zero time as
// 0001-01-01 UTC.
func tv(t time.Time) any {
	if t.IsZero() {
		return time.Time{}
	}
	return t.UTC()
}

// ts scans a stored time into *t.
type ts struct{ t *time.Time }

func (s ts) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*s.t = time.Time{}
	case time.Time:
		if v.IsZero() {
			*s.t = time.Time{}
		} else {
			*s.t = v.UTC()
		}
	default:
		return fmt.Errorf("scan time from %T", src)
	}
	return nil
}

// nullText stores "" as NULL, for an optional text (a version's URL).
func nullText(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// textScan scans a nullable text, NULL as "".
type textScan struct{ p *string }

func (s textScan) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*s.p = ""
	case string:
		*s.p = v
	case []byte:
		*s.p = string(v)
	default:
		return fmt.Errorf("scan text from %T", src)
	}
	return nil
}

func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

type idScan struct{ p *int64 }

func (s idScan) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*s.p = 0
	case int64:
		*s.p = v
	default:
		return fmt.Errorf("scan id from %T", src)
	}
	return nil
}

func pgCode(err error) string {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code
	}
	return ""
}

// isUnique reports whether err is a unique violation.
func isUnique(err error) bool { return pgCode(err) == "23505" }

// isForeignKey reports whether err is a foreign key violation.
func isForeignKey(err error) bool { return pgCode(err) == "23503" }

func notFound(err error, format string, args ...any) error {
	if errors.Is(err, sql.ErrNoRows) {
		return vigil.Errorf(vigil.ENOTFOUND, format, args...)
	}
	return err
}

func limitOffset(limit, offset int) string {
	l := "ALL"
	if limit > 0 {
		l = strconv.Itoa(limit)
	}
	return fmt.Sprintf(" LIMIT %s OFFSET %d", l, max(offset, 0))
}

func affected(res sql.Result, err error, format string, args ...any) error {
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return vigil.Errorf(vigil.ENOTFOUND, format, args...)
	}
	return nil
}
