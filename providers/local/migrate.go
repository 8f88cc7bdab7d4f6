package local

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"io/fs"
	"log/slog"

	"github.com/forgetools/forgetools/internal/migrate"
)

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

// applyMigrations applies the dialect's pending migrations, serialised with every
// other process migrating the same database (see internal/migrate); applied
// ones are skipped, so it runs on every New.
func applyMigrations(ctx context.Context, db *sql.DB, dialect string, logger *slog.Logger) error {
	dir, err := fs.Sub(migrations, "migrations/"+dialect)
	if err != nil {
		return fmt.Errorf("local forge: migrations for %s: %w", dialect, err)
	}
	results, err := migrate.Up(ctx, db, migrate.Set{Dialect: dialect, Files: dir, Table: VersionTable, LockID: migrationLockID})
	if err != nil {
		return fmt.Errorf("local forge: migrate: %w", err)
	}
	for _, r := range results {
		logger.Info("local forge migration applied", "dialect", dialect, "version", r.Source.Version,
			"duration_ms", r.Duration.Milliseconds())
	}
	return nil
}
