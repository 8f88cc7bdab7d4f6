// Package migrate applies one set of goose SQL migrations to a SQLite or
// PostgreSQL database under a lock, so that any number of processes opening
// the same fresh database at once (fifty `forgetools call` processes on an
// empty data directory, two gateway replicas starting together) migrate it
// exactly once: the first to take the lock applies what is pending, and
// every other finds nothing left to do.
//
// The gateway's store calls Up; the local forge, a provider that imports
// nothing of the gateway's, runs its own set with goose directly under the
// same locks (internal/sqlitelock, goose's PostgreSQL advisory lock).
package migrate

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"github.com/forgetools/forgetools/internal/sqlitelock"
)

// Dialects Up accepts.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// Set is one migration set.
type Set struct {
	// Dialect is SQLite or Postgres.
	Dialect string
	// Files holds the dialect's goose SQL files at its root.
	Files fs.FS
	// Table is the set's goose version table.
	Table string
	// LockID is the PostgreSQL advisory lock of the set. On SQLite the
	// lock is a file beside the database (internal/sqlitelock).
	LockID int64
}

// Applied is one migration Up applied.
type Applied = goose.MigrationResult

// Up applies the set's pending migrations to db and returns those it
// applied; none when another process got there first.
func Up(ctx context.Context, db *sql.DB, set Set) ([]*Applied, error) {
	opts := []goose.ProviderOption{
		goose.WithTableName(set.Table),
		goose.WithDisableGlobalRegistry(true),
		goose.WithLogger(goose.NopLogger()),
	}
	var dialect goose.Dialect
	switch set.Dialect {
	case SQLite:
		dialect = goose.DialectSQLite3
		locker, err := sqlitelock.For(ctx, db)
		if err != nil {
			return nil, err
		}
		if locker != nil { // an in-memory database has one process: no lock
			opts = append(opts, goose.WithLocker(locker))
		}
	case Postgres:
		dialect = goose.DialectPostgres
		// Probe every second for up to five minutes: replicas starting
		// together, and tests in parallel schemas of one database, contend
		// for the same advisory lock.
		locker, err := lock.NewPostgresSessionLocker(lock.WithLockID(set.LockID), lock.WithLockTimeout(1, 300))
		if err != nil {
			return nil, fmt.Errorf("migration lock: %w", err)
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	default:
		return nil, fmt.Errorf("migrations: unknown dialect %q", set.Dialect)
	}
	// The provider is not closed: Close would close db, which the caller owns.
	p, err := goose.NewProvider(dialect, db, set.Files, opts...)
	if err != nil {
		return nil, fmt.Errorf("migrations: %w", err)
	}
	return p.Up(ctx)
}
