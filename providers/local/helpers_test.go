package local_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
	_ "modernc.org/sqlite"

	"github.com/forgetools/forgetools/gateway/store/storetest"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	optionsv1 "github.com/forgetools/forgetools/gen/forgetools/options/v1"
	"github.com/forgetools/forgetools/providers/local"
	"github.com/forgetools/forgetools/toolserver"
)

// database is one test's storage: open returns a new handle on it each call,
// the way a restarted gateway or a second replica would connect.
type database struct {
	dialect string
	open    func(t *testing.T) *sql.DB
	// gitDir holds the repositories, shared like the database by every
	// Forge the test opens on it.
	gitDir string
}

// eachDialect runs fn against a fresh SQLite file and a fresh PostgreSQL
// schema.
func eachDialect(t *testing.T, fn func(t *testing.T, d database)) {
	t.Helper()
	t.Run("sqlite", func(t *testing.T) { fn(t, sqliteDatabase(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, postgresDatabase(t)) })
}

func sqliteDatabase(t *testing.T) database {
	path := filepath.Join(t.TempDir(), "forge.db")
	return database{dialect: local.DialectSQLite, gitDir: t.TempDir(), open: func(t *testing.T) *sql.DB {
		// No busy timeout: the forge must cope with a DSN that sets none.
		// Foreign keys on, so the schema's references are enforced.
		return openDB(t, "sqlite", "file:"+path+"?_pragma=foreign_keys(1)")
	}}
}

// postgresDatabase is a schema of its own on FORGETOOLS_TEST_POSTGRES,
// which storetest makes and drops, so parallel test packages never collide.
func postgresDatabase(t *testing.T) database {
	dsn := storetest.Postgres(t)
	return database{dialect: local.DialectPostgres, gitDir: t.TempDir(), open: func(t *testing.T) *sql.DB {
		return openDB(t, "pgx", dsn)
	}}
}

// openDB opens a handle closed at cleanup, before the cleanups registered
// earlier (such as dropping the schema) run.
func openDB(t *testing.T, driver, dsn string) *sql.DB {
	t.Helper()
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatalf("open %s: %v", driver, err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Ping(); err != nil {
		t.Fatalf("ping %s: %v", driver, err)
	}
	return db
}

const testBase = "https://forge.test/sandbox"

// newForge opens d and builds a Forge on it with a test base URL and a clock
// that ticks one second per reading.
func newForge(t *testing.T, d database, opts local.Options) (*local.Forge, *sql.DB) {
	t.Helper()
	db := d.open(t)
	if opts.BaseURL == "" {
		opts.BaseURL = testBase
	}
	if opts.Now == nil {
		opts.Now = tickingClock()
	}
	if opts.GitDir == "" {
		opts.GitDir = d.gitDir
	}
	f, err := local.New(context.Background(), db, opts)
	if err != nil {
		t.Fatalf("local.New: %v", err)
	}
	return f, db
}

func tickingClock() func() time.Time {
	var ticks atomic.Int64
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	return func() time.Time { return start.Add(time.Duration(ticks.Add(1)) * time.Second) }
}

var alice = toolserver.Call{Account: "alice", Session: "s-1"}

// wantCode fails unless err is a toolserver.Error with code whose message
// contains every fragment.
func wantCode(t *testing.T, err error, code gatewayv1.ErrorCode, fragments ...string) {
	t.Helper()
	pe, ok := toolserver.AsError(err)
	if !ok {
		t.Fatalf("error = %v, want a toolserver.Error with code %v", err, code)
	}
	if gatewayv1.ErrorCode(pe.Code) != code { // the enums share numbers (gateway TestErrorCodesMatch)
		t.Fatalf("code = %v (%q), want %v", pe.Code, pe.Message, code)
	}
	for _, f := range fragments {
		if !strings.Contains(pe.Message, f) {
			t.Errorf("message %q does not contain %q", pe.Message, f)
		}
	}
}

func createIssue(t *testing.T, f *local.Forge, repo, title string, labels ...string) uint64 {
	t.Helper()
	is, err := f.CreateIssue(context.Background(), alice, &gatewayv1.CreateIssueRequest{Repo: repo, Title: title, Labels: labels})
	if err != nil {
		t.Fatalf("create issue %q: %v", title, err)
	}
	return is.GetNumber()
}

// createPull opens a pull request from head, creating the branch first
// (from the default branch) when it does not exist.
func createPull(t *testing.T, f *local.Forge, repo, head string) uint64 {
	t.Helper()
	branch(t, f, repo, head)
	pr, err := f.CreatePullRequest(context.Background(), alice,
		&gatewayv1.CreatePullRequestRequest{Repo: repo, Title: "PR from " + head, HeadRef: head})
	if err != nil {
		t.Fatalf("create pull request from %q: %v", head, err)
	}
	return pr.GetNumber()
}

// branch creates branch in repo from the default branch unless it exists.
func branch(t *testing.T, f *local.Forge, repo, name string) {
	t.Helper()
	_, err := f.CreateBranch(context.Background(), alice, &gatewayv1.CreateBranchRequest{Repo: repo, Branch: name})
	if pe, ok := toolserver.AsError(err); err != nil && (!ok || pe.Code != optionsv1.ErrorCode_ERROR_CODE_ALREADY_EXISTS) {
		t.Fatalf("create branch %s: %v", name, err)
	}
}
