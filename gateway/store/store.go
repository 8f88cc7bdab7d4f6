// Package store keeps the gateway's state: the create dedup memo, the
// ownership records of created artifacts and the change-notification
// subscriptions. It runs on SQLite (a file, pure Go, no cgo) by default and on
// PostgreSQL when several gateway replicas share state.
//
// The database is shared: providers/local keeps its forge in the same one
// (DB and Dialect), with its own migration version table.
package store

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	"modernc.org/sqlite"

	"github.com/forgetools/forgetools/internal/redact"
)

// DefaultLease is how long a create claim stays valid without a heartbeat:
// after it, another attempt may take the claim over (the first attempt's
// gateway is presumed dead).
const DefaultLease = 30 * time.Second

// Options tune a Store. The zero value is the production configuration.
type Options struct {
	// Lease is the create claim lease; zero means DefaultLease.
	Lease time.Duration
	// Now is the clock for timestamps and leases; nil means time.Now. Tests
	// move it to expire leases without waiting.
	Now func() time.Time
	// Logger receives migration and heartbeat messages; nil means
	// slog.Default().
	Logger *slog.Logger
}

// maxConns bounds the connections one gateway holds to its database.
const maxConns = 16

// Store is the gateway's state. It is safe for concurrent use.
type Store struct {
	db      *sql.DB
	dialect Dialect
	lease   time.Duration
	now     func() time.Time
	log     *slog.Logger
	// redactor redacts what the store writes (redact.go).
	redactor atomic.Pointer[redact.Redactor]

	// creates hands CreateTx's creates to the committer, which runs them
	// (up to groupMax per transaction); committing starts it.
	creates    chan *txCreate
	committing sync.Once
	// careful counts down the groups the committer runs with savepoints
	// (runBatch); only the committer's goroutine uses it.
	careful int

	// closing stops claim heartbeats when the store closes; beats tracks
	// them so Close returns only after the last one has stopped.
	closing   chan struct{}
	closeOnce sync.Once
	beats     sync.WaitGroup
}

// Open connects to dsn (see parseDSN for the accepted forms), applies the
// pending migrations and returns the Store. A SQLite database and the files
// beside it are kept 0600 (see secureFiles).
func Open(ctx context.Context, dsn string, opts ...Options) (*Store, error) {
	var o Options
	if len(opts) > 0 {
		o = opts[0]
	}
	t, err := parseDSN(dsn)
	if err != nil {
		return nil, err
	}
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	if t.path != "" {
		if err := secureFiles(t.path, log); err != nil {
			return nil, err
		}
	}
	db, err := openDB(t)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", t.dialect, err)
	}
	if t.memory {
		// Every connection to ":memory:" is a different database: keep
		// exactly one, forever. Callers must not hold a row set open while
		// running another query on DB().
		db.SetMaxOpenConns(1)
		db.SetMaxIdleConns(1)
		db.SetConnMaxLifetime(0)
		db.SetConnMaxIdleTime(0)
	} else {
		// As many idle as open: with fewer, every burst above the idle
		// count closes and reopens connections (a new PostgreSQL session
		// each time); the load driver measured PostgreSQL reads at a third
		// of the throughput with 4 idle.
		db.SetMaxOpenConns(maxConns)
		db.SetMaxIdleConns(maxConns)
	}
	s := &Store{
		db:      db,
		dialect: t.dialect,
		lease:   o.Lease,
		now:     o.Now,
		log:     log,
		closing: make(chan struct{}),
	}
	s.creates = make(chan *txCreate)
	if s.lease <= 0 {
		s.lease = DefaultLease
	}
	if s.now == nil {
		s.now = time.Now
	}
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect to %s: %w", t.dialect, err)
	}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// openDB opens the target's pool: SQLite through the statement-keeping
// connector (stmtcache.go), PostgreSQL through pgx, which keeps its own.
func openDB(t target) (*sql.DB, error) {
	if t.dialect != SQLite {
		return sql.Open(t.driver, t.dsn)
	}
	c, err := sqlite.NewConnector(t.dsn)
	if err != nil {
		return nil, err
	}
	return sql.OpenDB(stmtConnector{base: c}), nil
}

// DB is the underlying database, for providers/local to keep its tables
// beside the gateway's.
func (s *Store) DB() *sql.DB { return s.db }

// Dialect is the database the store runs on.
func (s *Store) Dialect() Dialect { return s.dialect }

// Close stops the claim heartbeats and closes the database. A claim still
// held is left pending; its lease expires and another attempt takes it over,
// exactly as after a crash.
func (s *Store) Close() error {
	s.closeOnce.Do(func() { close(s.closing) })
	s.beats.Wait()
	return s.db.Close()
}

// q rewrites a query written with '?' placeholders for the store's dialect.
// The queries in this package contain no literal '?'.
func (s *Store) q(query string) string {
	if s.dialect != Postgres {
		return query
	}
	var b strings.Builder
	n := 0
	for _, r := range query {
		if r == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// millis is the store's time representation: Unix milliseconds in a BIGINT,
// identical on both dialects and free of driver time-zone handling.
func millis(t time.Time) int64 { return t.UnixMilli() }

func fromMillis(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

// inTx runs fn in a transaction, committing when it returns nil.
func (s *Store) inTx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		_ = tx.Rollback() // the transaction's own failure is the one to report
		return err
	}
	return tx.Commit()
}
