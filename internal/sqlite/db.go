// Package sqlite is Vigil's embedded store: every vigil store interface on
// one SQLite file in the data directory, with the pure-Go driver
// modernc.org/sqlite.
//
// The database runs in WAL mode with foreign keys on and a busy timeout.
// Writes go through one connection (SQLite has one writer at a time; a
// single connection makes that explicit and avoids SQLITE_BUSY between our
// own writers), each write one IMMEDIATE transaction; reads use a pool of
// read-only connections that WAL lets run while the writer writes.
// synchronous=NORMAL: a committed transaction survives a crash of the
// process (the crash test kills a writer with SIGKILL); after a power loss
// the last few commits may be rolled back, never half-applied.
//
// Migrations are the .sql files under migrations/, embedded, applied in
// name order and recorded in the schema_migrations table; a migration may
// have a Go step too (migrationSteps), run in its transaction after its
// SQL.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/vigil-web/vigil"
	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

//go:embed migrations/*.sql
var migrations embed.FS

// FileName is the database file inside the data directory.
const FileName = "vigil.db"

// busyTimeout is how long a write waits for the write lock another
// connection holds (another process's write transaction: vigil serve's,
// or an import warc's in one transaction) before it fails with
// EUNAVAILABLE (busyError).
var busyTimeout = 10 * time.Second

// DB is the SQLite store. It implements vigil.Store.
type DB struct {
	write *sql.DB    // one connection
	read  *sql.DB    // read-only pool
	stmts *stmtCache // statements prepared on write
	// readStmts are statements prepared on the read pool.
	readStmts *stmtCache
	path      string
	now       func() time.Time
	// schema is what OpenFile did to the schema (Schema).
	schema vigil.SchemaReport
	// tx, in the copy of DB that InTransaction hands its function, is
	// the transaction every read and write of it runs in.
	tx execer
	// readOnly is a DB OpenCurrent opened, which Close does not
	// checkpoint, and whose writes are refused as such (readOnlyError).
	readOnly bool
	// immutable is a DB Open read as immutable, in a directory this user
	// may not write (readonly.go): its writes fail as read-only, and
	// ReadOnly says so to the daemon, which refuses it.
	immutable bool
	// wrote is set once a write of this process is committed (a
	// migration, a write transaction, a vacuum), shared by the copies
	// of DB that InTransaction hands out: Close lets pass the read-only
	// checkpoint of a store only while it is unset.
	wrote *atomic.Bool
}

var (
	_ vigil.Store          = (*DB)(nil)
	_ vigil.SchemaReporter = (*DB)(nil)
)

// Schema returns the migrations OpenFile applied and those the store
// records that this build does not have.
func (db *DB) Schema() vigil.SchemaReport { return db.schema }

// Open opens (creating if needed) the database file vigil.db in dir and
// migrates it.
func Open(ctx context.Context, dir string) (*DB, error) {
	return OpenFile(ctx, filepath.Join(dir, FileName))
}

// OpenFile opens the database at path and migrates it. A store this
// user may read but not write is read, in a directory they may not
// write too (readonly.go), and a write to it says that the store is
// read-only.
//
// A database made by two processes at the same moment (vigil serve and a
// vigil user add started together on a new data directory) may refuse
// one of them at once, SQLITE_BUSY, without waiting the busy timeout:
// turning a new file to WAL, and making its first table, take locks
// SQLite does not wait for. Where the file was empty, so that another
// process may be making it, the open is tried again, a few times.
func OpenFile(ctx context.Context, path string) (*DB, error) {
	fresh := false
	if fi, err := os.Stat(path); err != nil || fi.Size() == 0 {
		fresh = true
	}
	for try := 1; ; try++ {
		db, err := openFile(ctx, path)
		if err == nil || !fresh || try == freshOpenTries || !isBusy(err) || ctx.Err() != nil {
			return db, err
		}
		time.Sleep(time.Duration(try) * 20 * time.Millisecond)
	}
}

// freshOpenTries is how many times OpenFile opens a new database another
// process may be making.
const freshOpenTries = 10

// openFile is OpenFile, once.
func openFile(ctx context.Context, path string) (*DB, error) {
	dsn := func(extra string) string {
		q := url.Values{}
		busy := fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds())
		for _, p := range []string{"journal_mode(WAL)", "foreign_keys(1)", busy, "synchronous(NORMAL)"} {
			q.Add("_pragma", p)
		}
		return fileURI(path) + "?" + q.Encode() + extra
	}
	// The database holds password and token hashes and every page fetched:
	// readable by its owner only. SQLite gives its -wal and -shm files the
	// database's permissions.
	// Best effort: a file of another user's may be opened as before.
	if f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE, 0o600); err == nil {
		f.Close()
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		os.Chmod(p, 0o600)
	}
	where := "sqlite at " + path
	w, err := sql.Open("sqlite", dsn("&_txlock=immediate"))
	if err != nil {
		return nil, fmt.Errorf("%s: open: %w", where, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	db := &DB{write: w, stmts: newStmtCache(w), path: path, now: microNow, wrote: new(atomic.Bool)}
	readDSN := dsn("&_pragma=query_only(1)")
	if err := db.migrate(ctx); err != nil {
		w.Close()
		switch {
		case isUnreadableWAL(path, err):
			return nil, fmt.Errorf("%s: %w", where, walLeft(path))
		case !isReadOnlyDirectory(err):
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		// A directory this user may not write: read as immutable
		// (readonly.go), if it can be.
		if ferr := immutableFallback(path, err); ferr != nil {
			return nil, fmt.Errorf("%s: %w", where, ferr)
		}
		readDSN = currentDSN(path, true)
		db.immutable = true
		if w, err = sql.Open("sqlite", readDSN); err != nil {
			return nil, fmt.Errorf("%s: open: %w", where, err)
		}
		w.SetMaxOpenConns(1)
		w.SetMaxIdleConns(1)
		w.SetConnMaxLifetime(0)
		db.write, db.stmts = w, newStmtCache(w)
		if err := db.migrate(ctx); err != nil {
			w.Close()
			return nil, fmt.Errorf("%s: %w", where, err)
		}
	}
	r, err := sql.Open("sqlite", readDSN)
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("%s: open: %w", where, err)
	}
	r.SetMaxOpenConns(8)
	r.SetMaxIdleConns(8)
	db.read = r
	db.readStmts = newStmtCache(r)
	return db, nil
}

// fileURI returns the file: URI of the database file at path, which a
// DSN names it by (the driver passes it to SQLite whole, with
// SQLITE_OPEN_URI): path with the characters SQLite's URIs read
// otherwise escaped, '%' (which begins an escape), '?' (which begins the
// parameters, and the driver's own) and '#' (which ends the path). Written
// as it was, a data directory named with one of them kept the store in
// another file (the path cut at the '?' or '#'; at a '?', without WAL,
// the driver reading the DSN's first pragma as part of the path) or
// failed to open it.
func fileURI(path string) string { return "file:" + uriPathEscaper.Replace(path) }

var uriPathEscaper = strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")

// ReadOnly reports whether the store may not be written through db:
// opened by OpenCurrent, or by Open in a directory this user may not
// write (read as immutable). vigil serve refuses such a store, which
// would fail every check's commit.
func (db *DB) ReadOnly() bool { return db.readOnly || db.immutable }

// Path returns the database file.
func (db *DB) Path() string { return db.path }

// Close closes both pools, checkpointing the write-ahead log into the
// database file first. A checkpoint that fails (a full disk, an I/O
// error) is returned, saying that nothing is lost; one that another
// process's reader holds back (SQLite's busy=1, vigil serve reading while
// a command closes) is not an error: the changes stay in the WAL, which
// that process or the next open checkpoints, and a command that did its
// work must not fail for it. Nor does the checkpoint wait for them, or
// for another process's writer (an import warc in one transaction,
// which holds the write lock until it ends): a command that only read
// the store beside an import closed after the busy timeout.
func (db *DB) Close() error {
	var errs []error
	errs = append(errs, db.stmts.close())
	if db.readStmts != nil {
		errs = append(errs, db.readStmts.close())
	}
	if db.read != nil {
		errs = append(errs, db.read.Close())
	}
	// Checkpoint so that the WAL file does not outlive the process. One
	// that fails (a full disk) loses nothing: the next open reads the
	// WAL, which holds the changes. What the others hold back is left
	// at once (busy_timeout 0) for them or the next open to checkpoint.
	// A DB opened read-only (OpenCurrent) changes nothing.
	var err error
	if !db.readOnly {
		_, err = db.write.Exec("PRAGMA busy_timeout = 0")
		if err == nil {
			_, err = db.write.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
		}
	}
	if checkpointLeft(err, db.wrote.Load()) {
		err = nil
	}
	if err != nil {
		errs = append(errs, fmt.Errorf("sqlite at %s: close: checkpoint of its write-ahead log: %w (nothing is lost: the changes stay in %s-wal, which the next open reads)", db.path, err, db.path))
	}
	errs = append(errs, db.write.Close())
	return errors.Join(errs...)
}

// checkpointLeft reports whether Close lets pass err, its checkpoint's
// error, on a store this process wrote to (wrote) or not: SQLITE_READONLY
// itself on a store it did not write, one this user may read but not
// write, whose log it leaves to its owner's processes. Another read-only
// error (the file moved away, a log it cannot recover or lock) is
// returned, and so is one after a write.
func checkpointLeft(err error, wrote bool) bool {
	return !wrote && isPlainReadOnly(err)
}

// IntegrityCheck runs PRAGMA integrity_check and returns its report ("ok"
// when the file is sound).
func (db *DB) IntegrityCheck(ctx context.Context) (string, error) {
	rows, err := db.read.QueryContext(ctx, "PRAGMA integrity_check")
	if err != nil {
		return "", err
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return "", err
		}
		lines = append(lines, s)
	}
	return strings.Join(lines, "\n"), rows.Err()
}

// Vacuum checkpoints the WAL and rebuilds the file without free pages
// (space left by deleted blobs and patches), returning its size in bytes.
// The rebuilt pages go to the write-ahead log first: a checkpoint that a
// reader holds back (SQLite's busy=1) leaves the file as it was, and its
// size would be the old one, so Vacuum says so instead.
func (db *DB) Vacuum(ctx context.Context) (int64, error) {
	if _, err := db.write.ExecContext(ctx, "VACUUM"); err != nil {
		return 0, fmt.Errorf("vacuum: %w", err)
	}
	db.wrote.Store(true)
	var busy, frames, copied int
	if err := db.write.QueryRowContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)").Scan(&busy, &frames, &copied); err != nil {
		return 0, fmt.Errorf("checkpoint: %w", err)
	}
	if busy != 0 {
		return 0, fmt.Errorf("checkpoint after vacuum: a reader holds the write-ahead log back (%d of its %d pages copied), so %s keeps its size until the readers are done", copied, frames, db.path)
	}
	fi, err := os.Stat(db.path)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// migrationSteps are the Go steps of migrations, by file name: run in the
// migration's transaction after its SQL, for what SQL does not say as the
// store's Go code does.
var migrationSteps = map[string]func(ctx context.Context, tx execer) error{
	"0106_change_pages.sql":  backfillChangePages,
	"0123_query_percent.sql": rekeyQueryPercent,
}

func (db *DB) migrate(ctx context.Context) error {
	names, err := migrationNames()
	if err != nil {
		return err
	}
	// Read first, outside any transaction, and write only when there is
	// something to do: an open whose migrations are all applied takes no
	// write lock, so that a command that only reads opens the store while
	// another process holds its writes (an import warc in one
	// transaction), as WAL lets it read, and opens a store this user may
	// read but not write. Each migration still checks in its own write
	// transaction that it is not applied.
	done, err := db.appliedMigrations(ctx)
	if err != nil {
		return err
	}
	missing := missingMigrations(done, names)
	if len(missing) == 0 {
		db.schema = vigil.SchemaReport{Unknown: unknownMigrations(done, names)}
		return nil
	}
	if _, err := db.write.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)`); isReadOnly(err) {
		return notWritable(done, missing, err)
	} else if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	var report vigil.SchemaReport
	for _, base := range missing {
		name := "migrations/" + base
		applied := false
		err := db.update(ctx, func(tx execer) error {
			applied = false
			var n int
			if err := tx.QueryRowContext(ctx, "SELECT count(*) FROM schema_migrations WHERE name = ?", base).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return nil
			}
			text, err := migrations.ReadFile(name)
			if err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, string(text)); err != nil {
				return err
			}
			if step := migrationSteps[base]; step != nil {
				if err := step(ctx, tx); err != nil {
					return err
				}
			}
			_, err = tx.ExecContext(ctx, "INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)", base, time.Now().UnixNano())
			applied = err == nil
			return err
		})
		if isReadOnly(err) {
			return notWritable(done, missing, err)
		} else if err != nil {
			return fmt.Errorf("migrate %s: %w", base, err)
		}
		if applied {
			report.Applied = append(report.Applied, base)
		}
	}
	report.Unknown = unknownMigrations(done, names)
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

// missingMigrations returns, in name order, the file names of the
// migrations names (this build's, migrationNames) that done
// (schema_migrations as appliedMigrations read it) does not record.
func missingMigrations(done map[string]bool, names []string) []string {
	var missing []string
	for _, name := range names {
		if base := filepath.Base(name); !done[base] {
			missing = append(missing, base)
		}
	}
	return missing
}

// notWritable is the error of a migration that this user may not write
// (SQLite's SQLITE_READONLY, err): the store is older than this build, or
// new (done is empty), and cannot be brought up to date by this user.
func notWritable(done map[string]bool, missing []string, err error) error {
	plural := "s"
	if len(missing) == 1 {
		plural = ""
	}
	what := fmt.Sprintf("the store lacks %d migration%s of this build (%s first)", len(missing), plural, missing[0])
	if len(done) == 0 {
		what = "it holds no store yet"
	}
	return fmt.Errorf("migrate: %s, and this user may not write it (%v): run the command as the store's owner, or have vigil serve (which migrates it) start once", what, err)
}

// appliedMigrations returns the names schema_migrations records, none
// when the database has no such table (a new one).
func (db *DB) appliedMigrations(ctx context.Context) (map[string]bool, error) {
	var tables int
	if err := db.write.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'").Scan(&tables); err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	if tables == 0 {
		return map[string]bool{}, nil
	}
	rows, err := db.write.QueryContext(ctx, "SELECT name FROM schema_migrations")
	if err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	defer rows.Close()
	done := make(map[string]bool)
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, fmt.Errorf("migrate: %w", err)
		}
		done[name] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("migrate: %w", err)
	}
	return done, nil
}

// unknownMigrations returns, in name order, the migrations that done
// (schema_migrations as appliedMigrations read it) records and names
// (this build's) does not hold. The migrations an open applies are this
// build's: done read before them tells the unknown ones as well as a
// read after them.
func unknownMigrations(done map[string]bool, names []string) []string {
	known := make(map[string]bool, len(names))
	for _, name := range names {
		known[filepath.Base(name)] = true
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

// update runs fn in one write transaction; inside InTransaction's, under
// a savepoint, so that fn's writes are undone if it fails.
func (db *DB) update(ctx context.Context, fn func(tx execer) error) error {
	if db.tx != nil {
		return savepoint(ctx, db.tx, fn)
	}
	db.stmts.prepareWanted(ctx) // the writer connection is free here
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return db.readOnlyError(db.busyError(err))
	}
	if err := fn(cachedTx{tx: tx, cache: db.stmts}); err != nil {
		tx.Rollback()
		return db.readOnlyError(err)
	}
	if err := tx.Commit(); err != nil {
		return db.readOnlyError(err)
	}
	db.wrote.Store(true)
	return nil
}

// view runs fn in one read transaction (one snapshot); inside
// InTransaction's, in it, so that fn reads what it wrote.
func (db *DB) view(ctx context.Context, fn func(tx execer) error) error {
	if db.tx != nil {
		return fn(db.tx)
	}
	db.readStmts.prepareWanted(ctx) // outside any read transaction
	tx, err := db.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	return fn(cachedTx{tx: tx, cache: db.readStmts})
}

// q adapts a query written with ? placeholders to the dialect (nothing to do
// for SQLite; the PostgreSQL adapter numbers them).
func q(s string) string { return s }

// nextID returns the SQL expression of the next id of a table whose ids
// are never reused: one above the largest it ever gave (see
// migrations/0102_ids_never_reused.sql,
// 0105_resource_ids_never_reused.sql and 0115_user_ids_never_reused.sql).
// Every table with an id of its own is one. table is a constant.
func nextID(table string) string {
	return "(SELECT id + 1 FROM id_floor WHERE name = '" + table + "')"
}

// tv is how a time is stored: Unix nanoseconds, 0 for the zero time,
// truncated to the microsecond (toward the past), as PostgreSQL keeps
// it, so that a time reads back the same from both backends. A
// time outside what they hold (vigil.StorableTime: a bound of a query,
// since stored times are refused there) is the nearest they do, where
// UnixNano wrapped round to another year.
//
// The Unix epoch itself, whose Unix nanoseconds are 0 too, is stored as
// epochValue, the nanosecond before it, and read back as the epoch (ts),
// where it read back as the zero time: a Last-Modified date of
// 1970-01-01, which servers send for "unknown", was lost, and a version
// fetched then had no fetch time. The nanosecond before the epoch reads
// back as the epoch: PostgreSQL keeps microseconds only, so the two
// backends still agree to the microsecond. (0 stays the zero time, as in
// every store written before.)
func tv(t time.Time) any {
	switch {
	case t.IsZero():
		return int64(0)
	case !vigil.StorableTime(t) && t.Unix() < 0:
		return int64(math.MinInt64)
	case !vigil.StorableTime(t):
		return int64(math.MaxInt64)
	}
	n := t.UnixNano()
	if r := n % 1000; r > 0 {
		n -= r
	} else if r < 0 && n >= math.MinInt64+1000 {
		n -= 1000 + r
	} else if r < 0 {
		n -= r // the first microsecond kept, the one before is not
	}
	if n != 0 {
		return n
	}
	return int64(epochValue)
}

// microNow is the store's clock: the time to the microsecond, as it is kept
// (tv), so that a time the store sets (CreatedAt) is the one read back.
func microNow() time.Time { return time.Now().Truncate(time.Microsecond) }

// epochValue is how the Unix epoch is stored (see tv).
const epochValue = -1

// ts scans a stored time into *t.
type ts struct{ t *time.Time }

func (s ts) Scan(src any) error {
	switch v := src.(type) {
	case nil:
		*s.t = time.Time{}
	case int64:
		switch v {
		case 0:
			*s.t = time.Time{}
		case epochValue:
			*s.t = time.Unix(0, 0).UTC()
		default:
			*s.t = time.Unix(0, v).UTC()
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

// nullID stores 0 as NULL.
func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

// idScan scans a nullable id, NULL as 0.
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

// isUnique reports whether err is a UNIQUE constraint violation.
func isUnique(err error) bool {
	return err != nil && strings.Contains(err.Error(), "UNIQUE constraint failed")
}

// isForeignKey reports whether err is a FOREIGN KEY constraint violation.
func isForeignKey(err error) bool {
	return err != nil && strings.Contains(err.Error(), "FOREIGN KEY constraint failed")
}

// notFound turns sql.ErrNoRows into ENOTFOUND with the message.
func notFound(err error, format string, args ...any) error {
	if errors.Is(err, sql.ErrNoRows) {
		return vigil.Errorf(vigil.ENOTFOUND, format, args...)
	}
	return err
}

// limitOffset returns the LIMIT/OFFSET clause.
func limitOffset(limit, offset int) string {
	if limit <= 0 {
		limit = -1
	}
	return fmt.Sprintf(" LIMIT %d OFFSET %d", limit, max(offset, 0))
}

// affected returns ENOTFOUND if res changed no row.
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
