package sqlite

import (
	"context"
	"database/sql"
	"sync"
)

// maxCachedStatements bounds the statement cache: queries built at run
// time (IN lists of varying length) beyond it are never prepared.
const maxCachedStatements = 256

// stmtCache keeps statements prepared on the writer connection, so that the
// hot write paths (a new version, a batch of checks) do not make SQLite
// parse and plan the same SQL on every call: preparing was a sixth of the
// CPU of a check that finds a change.
//
// The writer pool has a single connection, which a transaction holds until
// it ends: a statement cannot be prepared on it from inside a transaction.
// So a query first seen inside one runs unprepared and is noted as wanted;
// update prepares the wanted statements before it begins its next
// transaction, when the connection is free.
type stmtCache struct {
	db     *sql.DB
	mu     sync.Mutex
	stmts  map[string]*sql.Stmt
	wanted map[string]bool
}

func newStmtCache(db *sql.DB) *stmtCache {
	return &stmtCache{db: db, stmts: map[string]*sql.Stmt{}, wanted: map[string]bool{}}
}

// get returns the prepared statement for query, or nil (and notes the query
// as wanted) when it is not prepared yet.
func (c *stmtCache) get(query string) *sql.Stmt {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if s, ok := c.stmts[query]; ok {
		return s
	}
	if len(c.stmts)+len(c.wanted) < maxCachedStatements {
		c.wanted[query] = true
	}
	return nil
}

// prepareWanted prepares the statements noted as wanted. It must be called
// outside any transaction on the writer connection. A statement that fails
// to prepare is dropped: its query keeps running unprepared, which reports
// the error where it belongs.
//
// The mutex is not held while preparing: preparing waits for the writer
// connection, and the transaction holding it may be asking the cache for a
// statement.
func (c *stmtCache) prepareWanted(ctx context.Context) {
	if c == nil {
		return
	}
	c.mu.Lock()
	if len(c.wanted) == 0 {
		c.mu.Unlock()
		return
	}
	queries := make([]string, 0, len(c.wanted))
	for query := range c.wanted {
		queries = append(queries, query)
		delete(c.wanted, query)
	}
	c.mu.Unlock()
	for _, query := range queries {
		s, err := c.db.PrepareContext(ctx, query)
		if err != nil {
			continue
		}
		c.mu.Lock()
		if _, dup := c.stmts[query]; dup {
			s.Close()
		} else {
			c.stmts[query] = s
		}
		c.mu.Unlock()
	}
}

// close closes every cached statement.
func (c *stmtCache) close() error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var first error
	for q, s := range c.stmts {
		if err := s.Close(); err != nil && first == nil {
			first = err
		}
		delete(c.stmts, q)
	}
	return first
}

// execer is what the write helpers need of a transaction: *sql.Tx, or a
// cachedTx over one.
type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// cachedTx runs the queries of one write transaction through the prepared
// statements (bound to the transaction with Tx.StmtContext, which reuses
// the statement already prepared on the one writer connection).
type cachedTx struct {
	tx    *sql.Tx
	cache *stmtCache
}

func (t cachedTx) stmt(ctx context.Context, query string) *sql.Stmt {
	if s := t.cache.get(query); s != nil {
		return t.tx.StmtContext(ctx, s)
	}
	return nil
}

func (t cachedTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if s := t.stmt(ctx, query); s != nil {
		return s.ExecContext(ctx, args...)
	}
	return t.tx.ExecContext(ctx, query, args...)
}

func (t cachedTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if s := t.stmt(ctx, query); s != nil {
		return s.QueryContext(ctx, args...)
	}
	return t.tx.QueryContext(ctx, query, args...)
}

func (t cachedTx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if s := t.stmt(ctx, query); s != nil {
		return s.QueryRowContext(ctx, args...)
	}
	return t.tx.QueryRowContext(ctx, query, args...)
}
