package store

import (
	"context"
	"embed"
	"fmt"
	"io/fs"

	"github.com/forgetools/forgetools/internal/migrate"
)

// migrations holds one directory of goose SQL files per dialect; a schema
// change adds a file to both.
//
//go:embed migrations
var migrations embed.FS

// VersionTable is the gateway's goose version table. It is not goose's
// default, so providers/local (or anything else sharing the database) can
// keep its own migration history beside it.
const VersionTable = "forgetools_gateway_migrations"

// migrationLockID is the PostgreSQL advisory lock that serialises replicas
// migrating one database at the same time (any fixed int64 unique to us).
const migrationLockID int64 = 0x666f7267655f6777 // "forge_gw"

// migrate applies the pending migrations, serialised with every other
// process migrating the same database (see internal/migrate).
func (s *Store) migrate(ctx context.Context) error {
	sub, err := fs.Sub(migrations, "migrations/"+string(s.dialect))
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	results, err := migrate.Up(ctx, s.db, migrate.Set{
		Dialect: string(s.dialect), Files: sub, Table: VersionTable, LockID: migrationLockID,
	})
	if err != nil {
		return fmt.Errorf("migrate %s: %w", s.dialect, err)
	}
	for _, r := range results {
		s.log.Info("store migrated", "dialect", string(s.dialect), "version", r.Source.Version,
			"duration_ms", r.Duration.Milliseconds())
	}
	return nil
}
