package store

import (
	"context"
	"database/sql/driver"
	"sync/atomic"
)

// SQLite compiles a statement's text on every call unless the statement is
// prepared once and kept: under load, preparation cost the gateway half as
// much CPU again as running the statements. The store therefore opens SQLite
// through a connector whose connections keep their prepared statements,
// keyed by query text. Everything that runs on the store's database (the
// store, the local forge beside it) reuses them without changing a query.
//
// PostgreSQL needs none of this: pgx caches prepared statements per
// connection itself (its default exec mode, cache_statement; see
// TestPostgresStatementCache).

// maxCachedStmts bounds one connection's statements. The store and the local
// forge together run fewer than a hundred distinct texts; past the bound a
// statement is evicted to make room.
const maxCachedStmts = 128

// stmtPrepares counts the statements cached connections have prepared, for
// the test that shows a repeated query is prepared once.
var stmtPrepares atomic.Int64

// stmtConnector opens connections that keep their prepared statements.
type stmtConnector struct{ base driver.Connector }

func (c stmtConnector) Connect(ctx context.Context) (driver.Conn, error) {
	dc, err := c.base.Connect(ctx)
	if err != nil {
		return nil, err
	}
	conn, ok := dc.(cacheableConn)
	if !ok {
		// A driver without the context interfaces: leave it alone.
		return dc, nil
	}
	return &stmtConn{cacheableConn: conn, stmts: map[string]*cachedStmt{}}, nil
}

// Driver is the base connector's, so (*sql.DB).Driver() still names SQLite.
func (c stmtConnector) Driver() driver.Driver { return c.base.Driver() }

// cacheableConn is the driver connection's side the cache relies on and
// passes through: every optional interface modernc.org/sqlite implements,
// which a wrapper must forward or database/sql falls back to the
// context-free calls.
type cacheableConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

// cacheableStmt is what a prepared statement of that driver offers.
type cacheableStmt interface {
	driver.Stmt
	driver.StmtExecContext
	driver.StmtQueryContext
}

// stmtConn is a connection with its statements. database/sql serialises
// every call on one connection, so the map needs no lock.
type stmtConn struct {
	cacheableConn
	stmts map[string]*cachedStmt
}

// cachedStmt is a kept statement; busy while a row set still reads from it,
// when the same text runs on a statement of its own instead.
type cachedStmt struct {
	s    cacheableStmt
	busy bool
}

// Unwrap gives the driver's connection to code that needs it (the driver's
// Limit, for one).
func (c *stmtConn) Unwrap() driver.Conn { return c.cacheableConn }

// stmt returns query's kept statement, preparing it on first use; nil when
// the kept one is busy.
func (c *stmtConn) stmt(ctx context.Context, query string) (*cachedStmt, error) {
	if cs, ok := c.stmts[query]; ok {
		if cs.busy {
			return nil, nil
		}
		return cs, nil
	}
	ds, err := c.cacheableConn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	s, ok := ds.(cacheableStmt)
	if !ok {
		ds.Close()
		return nil, nil
	}
	stmtPrepares.Add(1)
	if len(c.stmts) >= maxCachedStmts {
		c.evict()
	}
	cs := &cachedStmt{s: s}
	c.stmts[query] = cs
	return cs, nil
}

// evict drops one idle statement (the map's order is as good a choice as any
// for a bound that is only reached by unusual query texts).
func (c *stmtConn) evict() {
	for q, cs := range c.stmts {
		if !cs.busy {
			cs.s.Close()
			delete(c.stmts, q)
			return
		}
	}
}

func (c *stmtConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	cs, err := c.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	if cs == nil {
		return c.cacheableConn.ExecContext(ctx, query, args)
	}
	return cs.s.ExecContext(ctx, args)
}

func (c *stmtConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	cs, err := c.stmt(ctx, query)
	if err != nil {
		return nil, err
	}
	if cs == nil {
		return c.cacheableConn.QueryContext(ctx, query, args)
	}
	rows, err := cs.s.QueryContext(ctx, args)
	if err != nil {
		return nil, err
	}
	cs.busy = true
	return &stmtRows{Rows: rows, stmt: cs}, nil
}

// Close finalises the kept statements, then closes the connection.
func (c *stmtConn) Close() error {
	for q, cs := range c.stmts {
		cs.s.Close()
		delete(c.stmts, q)
	}
	return c.cacheableConn.Close()
}

// stmtRows frees its statement for the next call when closed. The column
// type methods are not forwarded: nothing on the store's database asks for
// them.
type stmtRows struct {
	driver.Rows
	stmt *cachedStmt
}

func (r *stmtRows) Close() error {
	err := r.Rows.Close() // resets the statement for its next use
	r.stmt.busy = false
	return err
}
