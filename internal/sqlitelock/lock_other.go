//go:build !unix

package sqlitelock

import (
	"context"
	"database/sql"
)

const lockSuffix = ".lock"

// fileLocker is a no-op where flock is unavailable: concurrent first uses
// of one SQLite file may then race to migrate it.
type fileLocker struct{ path string }

func (fileLocker) Lock(context.Context, *sql.DB) error   { return nil }
func (fileLocker) Unlock(context.Context, *sql.DB) error { return nil }
