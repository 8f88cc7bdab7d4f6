// Package migrate applies one set of goose SQL migrations to a SQLite or
// PostgreSQL database under a lock, so that any number of processes opening
// the same fresh database at once (fifty `forgetools call` processes on an
// empty data directory, two gateway replicas starting together) migrate it
// exactly once: the first to take the lock applies what is pending, and
// every other finds nothing left to do.
//
// The gateway's store and the local forge each keep their own migration
// set and version table in the shared database, and each calls Up.
package migrate

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
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
	// lock is a file beside the database (see fileLocker).
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
		path, err := databaseFile(ctx, db)
		if err != nil {
			return nil, err
		}
		if path != "" { // an in-memory database has one process: no lock
			opts = append(opts, goose.WithLocker(fileLocker{path: path + lockSuffix}))
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

// databaseFile is the file of db's main SQLite database, or "" for an
// in-memory one.
func databaseFile(ctx context.Context, db *sql.DB) (string, error) {
	rows, err := db.QueryContext(ctx, "PRAGMA database_list")
	if err != nil {
		return "", fmt.Errorf("migrations: locate the SQLite database: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var seq int
		var name, file string
		if err := rows.Scan(&seq, &name, &file); err != nil {
			return "", fmt.Errorf("migrations: locate the SQLite database: %w", err)
		}
		if name == "main" {
			return file, nil
		}
	}
	return "", rows.Err()
}
