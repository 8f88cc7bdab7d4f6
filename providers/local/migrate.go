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
)

// VersionTable is the goose version table of the local forge's migrations.
// It is not goose's default, so the gateway's store can keep its own
// migrations in the same database.
const VersionTable = "local_forge_migrations"

// migrationLockID is the PostgreSQL advisory lock that serialises gateway
// replicas migrating one database at once ("LocF" in ASCII). It differs from
// goose's default, which the gateway's store may take.
const migrationLockID int64 = 0x4c6f6346

//go:embed migrations/sqlite/*.sql migrations/postgres/*.sql
var migrations embed.FS

// migrate applies the dialect's pending migrations; applied ones are skipped,
// so it runs on every New.
func migrate(ctx context.Context, db *sql.DB, dialect string, logger *slog.Logger) error {
	dir, err := fs.Sub(migrations, "migrations/"+dialect)
	if err != nil {
		return fmt.Errorf("local forge: migrations for %s: %w", dialect, err)
	}
	opts := []goose.ProviderOption{
		goose.WithTableName(VersionTable),
		goose.WithDisableGlobalRegistry(true),
	}
	gooseDialect := goose.DialectSQLite3
	if dialect == DialectPostgres {
		gooseDialect = goose.DialectPostgres
		// Probe every second for up to five minutes: tests in parallel
		// schemas of one database contend for the same advisory lock.
		locker, err := lock.NewPostgresSessionLocker(lock.WithLockID(migrationLockID), lock.WithLockTimeout(1, 300))
		if err != nil {
			return fmt.Errorf("local forge: migration lock: %w", err)
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	// The provider is not closed: Close would close db, which the caller owns.
	p, err := goose.NewProvider(gooseDialect, db, dir, opts...)
	if err != nil {
		return fmt.Errorf("local forge: migrations: %w", err)
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
