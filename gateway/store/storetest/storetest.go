// Package storetest gives tests a fresh database on each backend the store
// supports: a SQLite file in the test's temporary directory, and a private
// schema on the PostgreSQL named by FORGETOOLS_TEST_POSTGRES.
//
// Without FORGETOOLS_TEST_POSTGRES the PostgreSQL cases skip with a message,
// unless FORGETOOLS_REQUIRE_POSTGRES=1, in which case they fail.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
)

// Environment variables read by this package.
const (
	EnvPostgres        = "FORGETOOLS_TEST_POSTGRES"
	EnvRequirePostgres = "FORGETOOLS_REQUIRE_POSTGRES"
)

// Run runs fn as the subtests "sqlite" and "postgres", each with the DSN of
// a fresh, empty database.
func Run(t *testing.T, fn func(t *testing.T, dsn string)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, SQLite(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, Postgres(t)) })
}

// SQLite returns the path of a new SQLite file that is removed with the
// test's temporary directory. The directory is 0700, as a store directory
// of one's own is (t.TempDir follows the umask, and forgetools warns about
// a store directory others can read).
func SQLite(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, "gateway.db")
}

// Postgres creates a schema of its own on the test PostgreSQL, drops it when
// the test ends, and returns a DSN whose search_path is that schema, so
// parallel tests and packages never see each other's tables.
func Postgres(t testing.TB) string {
	t.Helper()
	base := os.Getenv(EnvPostgres)
	if base == "" {
		if os.Getenv(EnvRequirePostgres) == "1" {
			t.Fatalf("%s=1 but %s is not set", EnvRequirePostgres, EnvPostgres)
		}
		t.Skipf("PostgreSQL tests skipped: set %s to a DSN (e.g. postgres://forgetools:forgetools@127.0.0.1:5432/forgetools?sslmode=disable)", EnvPostgres)
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s is not a URL", EnvPostgres)
	}
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	schema := "forgetools_test_" + hex.EncodeToString(b[:])

	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatalf("open %s: %v", EnvPostgres, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := admin.ExecContext(ctx, "CREATE SCHEMA "+schema); err != nil {
		admin.Close()
		t.Fatalf("create test schema on %s: %v", EnvPostgres, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := admin.ExecContext(ctx, "DROP SCHEMA "+schema+" CASCADE"); err != nil {
			t.Errorf("drop test schema %s: %v", schema, err)
		}
		admin.Close()
	})

	q := u.Query()
	q.Set("search_path", schema)
	u.RawQuery = q.Encode()
	return u.String()
}
