//go:build unix

package sqlitelock

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"
)

// lockSuffix names the lock file of a SQLite database: "forgetools.db" is
// locked through "forgetools.db.lock".
const lockSuffix = ".lock"

// Poll intervals while another process holds the lock.
const (
	pollFirst = 5 * time.Millisecond
	pollMax   = 200 * time.Millisecond
)

// fileLocker serialises migrations of one SQLite database across processes
// with an exclusive flock on a file beside it. SQLite's own locks cannot do
// it: they last one transaction, and goose runs several (the version table,
// then one per migration). The database file itself is never opened here:
// closing any descriptor of it would drop the POSIX locks SQLite holds on it
// in this process. A flock ends with the process, so a migration killed
// half way never leaves the database locked.
type fileLocker struct{ path string }

// held maps a lock file to its open descriptor while this process holds
// it. Lock and Unlock are separate calls on a value receiver.
var held sync.Map // path -> *os.File

func (l fileLocker) Lock(ctx context.Context, _ *sql.DB) error {
	f, err := os.OpenFile(l.path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("migration lock: %w", err)
	}
	wait := pollFirst
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			held.Store(l.path, f)
			return nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			f.Close()
			return fmt.Errorf("migration lock %s: %w", l.path, err)
		}
		select {
		case <-ctx.Done():
			f.Close()
			return fmt.Errorf("migration lock %s: waiting for another process to finish migrating: %w", l.path, ctx.Err())
		case <-time.After(wait):
		}
		wait = min(wait*2, pollMax)
	}
}

func (l fileLocker) Unlock(context.Context, *sql.DB) error {
	v, ok := held.LoadAndDelete(l.path)
	if !ok {
		return fmt.Errorf("migration lock %s: not held", l.path)
	}
	return v.(*os.File).Close() // closing the descriptor releases the flock
}
