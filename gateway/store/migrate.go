package store

import (
	"context"
	"embed"
	"fmt"
	"io/fs"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
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

func (s *Store) migrate(ctx context.Context) error {
	dir := "migrations/sqlite"
	dialect := goose.DialectSQLite3
	var opts []goose.ProviderOption
	if s.dialect == Postgres {
		dir = "migrations/postgres"
		dialect = goose.DialectPostgres
		locker, err := lock.NewPostgresSessionLocker(lock.WithLockID(migrationLockID))
		if err != nil {
			return fmt.Errorf("migration lock: %w", err)
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	sub, err := fs.Sub(migrations, dir)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	opts = append(opts,
		goose.WithTableName(VersionTable),
		goose.WithDisableGlobalRegistry(true),
		goose.WithLogger(goose.NopLogger()),
	)
	p, err := goose.NewProvider(dialect, s.db, sub, opts...)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	results, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("migrate %s: %w", s.dialect, err)
	}
	for _, r := range results {
		s.log.Info("store migrated", "dialect", string(s.dialect), "version", r.Source.Version,
			"duration_ms", r.Duration.Milliseconds())
	}
	return nil
}
