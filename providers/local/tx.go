package local

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/forgetools/forgetools/toolserver"
)

// sqliteBusyTimeoutMS is how long a SQLite statement waits for another
// connection's lock when the gateway's DSN set no busy timeout.
const sqliteBusyTimeoutMS = 5000

// JoinsTx reports whether db is the forge's database: then its writes join
// a transaction the gateway carries in the context (toolserver.WithTx), and a
// create commits with the gateway's memo of it.
func (f *Forge) JoinsTx(db *sql.DB) bool { return db == f.db }

// write runs fn in a transaction that may write: the caller's, when the
// context carries one on the forge's database (the caller commits or rolls
// back), else one of its own. fn's first statement must write: a SQLite
// transaction that reads first and upgrades later can fail with
// SQLITE_BUSY no matter how long it waits.
func (f *Forge) write(ctx context.Context, fn func(*sql.Tx) error) error {
	if tx := toolserver.TxOn(ctx, f.db); tx != nil {
		// The caller's transaction already holds SQLite's write lock.
		return runIn(tx, fn)
	}
	if f.dialect == DialectSQLite {
		f.writeMu.Lock()
		defer f.writeMu.Unlock()
	}
	return f.inTx(ctx, fn)
}

func (f *Forge) inTx(ctx context.Context, fn func(*sql.Tx) error) (err error) {
	var tx *sql.Tx
	if f.dialect == DialectSQLite && !f.busyFromDSN.Load() {
		// The gateway opened the database; it may not have set a busy
		// timeout, without which a concurrent writer fails at once.
		conn, cerr := f.db.Conn(ctx)
		if cerr != nil {
			return internal(cerr)
		}
		defer conn.Close()
		if err := f.ensureBusyTimeout(ctx, conn); err != nil {
			return internal(err)
		}
		tx, err = conn.BeginTx(ctx, nil)
	} else {
		tx, err = f.db.BeginTx(ctx, nil)
	}
	if err != nil {
		return internal(err)
	}
	if err := runIn(tx, fn); err != nil {
		_ = tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return internal(err)
	}
	return nil
}

// runIn calls fn in tx; a failure that is not already the forge's answer is
// an internal error.
func runIn(tx *sql.Tx, fn func(*sql.Tx) error) error { return answer(fn(tx)) }

// answer is err as the forge reports it: its own answer as it is, any
// other failure as internal.
func answer(err error) error {
	if err != nil {
		if _, ok := toolserver.AsError(err); ok {
			return err
		}
		return internal(err)
	}
	return nil
}

// ensureBusyTimeout sets a busy timeout on a SQLite connection that has none,
// leaving one the gateway chose alone.
//
// Asking costs a statement per call (a sixth of a read's CPU under load),
// so the forge remembers the answer that makes asking pointless: a
// connection found with a timeout the forge never set got it from the DSN,
// and every connection of the pool opens with the same DSN. Until the forge
// has set one itself, a timeout it finds can only be the DSN's: it sets
// busySet before the connection it set goes back to the pool.
func (f *Forge) ensureBusyTimeout(ctx context.Context, conn *sql.Conn) error {
	var ms int
	if err := conn.QueryRowContext(ctx, "PRAGMA busy_timeout").Scan(&ms); err != nil {
		return err
	}
	if ms > 0 {
		if !f.busySet.Load() {
			f.busyFromDSN.Store(true)
		}
		return nil
	}
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", sqliteBusyTimeoutMS)); err != nil {
		return err
	}
	f.busySet.Store(true)
	return nil
}
