// Package sqlitelock serialises the goose migrations of one SQLite
// database across processes, so that any number of processes opening the
// same fresh file at once migrate it exactly once: goose has a lock for
// PostgreSQL (an advisory lock) but none for SQLite.
//
// The gateway's store (through internal/migrate) and the local forge (with
// goose directly) each migrate their own set under it; both take the same
// lock file, one set after the other.
package sqlitelock

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/pressly/goose/v3/lock"
)

// For is the lock of db's database file, for goose.WithLocker; nil (and no
// error) for an in-memory database, which has one process and needs none.
func For(ctx context.Context, db *sql.DB) (lock.Locker, error) {
	path, err := databaseFile(ctx, db)
	if err != nil || path == "" {
		return nil, err
	}
	return fileLocker{path: path + lockSuffix}, nil
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
