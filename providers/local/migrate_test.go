package local_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/forgetools/forgetools/internal/sqlitelock"
	"github.com/forgetools/forgetools/providers/local"
)

// migrationLockID is the forge's PostgreSQL advisory lock (providers/local
// migrate.go), held here as another replica migrating would hold it.
const migrationLockID int64 = 0x4c6f6346

// TestNewWaitsForTheMigrationLock: while another process holds the forge's
// migration lock (a flock beside the SQLite file, the advisory lock on
// PostgreSQL), New does not migrate; once it is released, New migrates
// and succeeds. Without the lock, processes opening one fresh database at
// once could each apply the same migration.
func TestNewWaitsForTheMigrationLock(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		db := d.open(t)
		release := holdMigrationLock(t, d, db)
		other := d.open(t)
		done := make(chan error, 1)
		go func() {
			_, err := local.New(ctx, other, local.Options{Dialect: d.dialect, GitDir: d.gitDir})
			done <- err
		}()
		// A slow machine only makes this check weaker, never wrong: New
		// cannot finish while the lock is held.
		select {
		case err := <-done:
			t.Fatalf("New finished while the migration lock was held (err %v)", err)
		case <-time.After(300 * time.Millisecond):
		}
		release()
		if err := <-done; err != nil {
			t.Fatalf("New after the lock was released: %v", err)
		}
		var applied int
		if err := db.QueryRow("SELECT COUNT(*) FROM " + local.VersionTable + " WHERE version_id > 0").Scan(&applied); err != nil || applied != migrations {
			t.Fatalf("%d migrations recorded (err %v), want %d", applied, err, migrations)
		}
	})
}

// holdMigrationLock takes the forge's migration lock on d and returns
// what releases it.
func holdMigrationLock(t *testing.T, d database, db *sql.DB) (release func()) {
	t.Helper()
	ctx := context.Background()
	if d.dialect == local.DialectSQLite {
		l, err := sqlitelock.For(ctx, db)
		if err != nil || l == nil {
			t.Fatalf("sqlitelock.For = %v, %v", l, err)
		}
		if err := l.Lock(ctx, db); err != nil {
			t.Fatal(err)
		}
		return func() {
			if err := l.Unlock(ctx, db); err != nil {
				t.Error(err)
			}
		}
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", migrationLockID); err != nil {
		t.Fatal(err)
	}
	return func() {
		if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_unlock($1)", migrationLockID); err != nil {
			t.Error(err)
		}
		conn.Close()
	}
}
