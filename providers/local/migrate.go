package local

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"log/slog"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"github.com/forgetools/forgetools/internal/sqlitelock"
)

// The local forge keeps its own schema: its goose migrations, under
// migrations/<dialect>, run by goose directly (not through the gateway's
// migration runner, which a provider does not import), each set under a
// lock so that processes opening one fresh database at once migrate it
// exactly once.

// VersionTable is the goose version table of the local forge's migrations.
// It is not goose's default, so the gateway's store can keep its own
// migrations in the same database.
const VersionTable = "local_forge_migrations"

// migrationLockID is the PostgreSQL advisory lock that serialises gateway
// replicas migrating one database at once ("LocF" in ASCII). It differs from
// the gateway store's, so each set has its own.
const migrationLockID int64 = 0x4c6f6346

//go:embed migrations/sqlite/*.sql migrations/postgres/*.sql
var migrations embed.FS

// applyMigrations applies the dialect's pending migrations, serialised with
// every other process migrating the same database (a flock beside a SQLite
// file, an advisory lock on PostgreSQL); applied ones are skipped, so it
// runs on every New.
func applyMigrations(ctx context.Context, db *sql.DB, dialect string, logger *slog.Logger) error {
	dir, err := fs.Sub(migrations, "migrations/"+dialect)
	if err != nil {
		return fmt.Errorf("local forge: migrations for %s: %w", dialect, err)
	}
	opts, gd, err := migrationLock(ctx, db, dialect)
	if err != nil {
		return fmt.Errorf("local forge: migration lock: %w", err)
	}
	opts = append(opts, goose.WithTableName(VersionTable), goose.WithDisableGlobalRegistry(true), goose.WithLogger(goose.NopLogger()))
	// The provider is not closed: Close would close db, which the caller owns.
	p, err := goose.NewProvider(gd, db, dir, opts...)
	if err != nil {
		return fmt.Errorf("local forge: migrate: %w", err)
	}
	results, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("local forge: migrate: %w", err)
	}
	for _, r := range results {
		logger.Info("local forge migration applied", "dialect", dialect, "version", r.Source.Version,
			"duration_ms", r.Duration.Milliseconds())
	}
	return nil
}

// migrationLock is the goose dialect of dialect and the option that locks
// its migrations.
func migrationLock(ctx context.Context, db *sql.DB, dialect string) ([]goose.ProviderOption, goose.Dialect, error) {
	switch dialect {
	case DialectSQLite:
		l, err := sqlitelock.For(ctx, db)
		if err != nil || l == nil { // an in-memory database has one process: no lock
			return nil, goose.DialectSQLite3, err
		}
		return []goose.ProviderOption{goose.WithLocker(l)}, goose.DialectSQLite3, nil
	case DialectPostgres:
		// Probe every second for up to five minutes: replicas starting
		// together, and tests in parallel schemas of one database, contend
		// for the same advisory lock.
		l, err := lock.NewPostgresSessionLocker(lock.WithLockID(migrationLockID), lock.WithLockTimeout(1, 300))
		return []goose.ProviderOption{goose.WithSessionLocker(l)}, goose.DialectPostgres, err
	}
	return nil, "", fmt.Errorf("unknown dialect %q", dialect)
}
