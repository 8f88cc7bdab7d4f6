package local_test

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/pressly/goose/v3"

	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/providers/local"
)

// migrations is how many migrations the forge has per dialect.
const migrations = 6

// TestReopenKeepsData reopens the same database, as a restarted gateway does:
// the data is all there, numbering carries on, and the migrations, already
// applied, are not applied again.
func TestReopenKeepsData(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		var logs bytes.Buffer
		logger := slog.New(slog.NewTextHandler(&logs, nil))
		f, db := newForge(t, d, local.Options{Logger: logger})
		if got := strings.Count(logs.String(), "local forge migration applied"); got != migrations {
			t.Fatalf("first New logged %d applied migrations, want %d:\n%s", got, migrations, logs.String())
		}
		createIssue(t, f, "acme/app", "kept", "bug")
		pr := createPull(t, f, "acme/app", "feat")
		if _, err := f.SubmitReview(ctx, alice, &gatewayv1.SubmitReviewRequest{Repo: "acme/app", PullNumber: pr,
			Verdict: gatewayv1.Verdict_VERDICT_COMMENT, Body: "kept too"}); err != nil {
			t.Fatal(err)
		}
		before := appliedVersions(t, db)
		db.Close()

		logs.Reset()
		f2, db2 := newForge(t, d, local.Options{Logger: logger})
		if logs.Len() != 0 {
			t.Fatalf("reopening applied migrations again:\n%s", logs.String())
		}
		if after := appliedVersions(t, db2); after != before {
			t.Fatalf("version table %q after reopening, was %q", after, before)
		}
		is, err := f2.GetIssue(ctx, alice, &gatewayv1.GetIssueRequest{Repo: "acme/app", IssueNumber: 1})
		if err != nil || is.GetTitle() != "kept" || len(is.GetLabels()) != 1 {
			t.Fatalf("issue after reopening = %v, %v", is, err)
		}
		got, err := f2.GetPullRequest(ctx, alice, &gatewayv1.GetPullRequestRequest{Repo: "acme/app", PullNumber: pr})
		if err != nil || len(got.GetReviews()) != 1 || got.GetReviews()[0].GetBody() != "kept too" {
			t.Fatalf("pull request after reopening = %v, %v", got, err)
		}
		if next := createIssue(t, f2, "acme/app", "next"); next != 3 {
			t.Fatalf("next number after reopening = %d, want 3", next)
		}
	})
}

// appliedVersions renders the rows of the local forge's goose version table.
func appliedVersions(t *testing.T, db *sql.DB) string {
	t.Helper()
	rows, err := db.Query("SELECT version_id, is_applied FROM " + local.VersionTable + " ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v int64
		var applied bool
		if err := rows.Scan(&v, &applied); err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%d:%t", v, applied))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(out, " ")
}

// TestSharesDatabaseWithGatewayMigrations runs another goose migration set
// with goose's default version table (as the gateway's store may) on the
// same database, before and after the forge's: neither sees the other's
// versions.
func TestSharesDatabaseWithGatewayMigrations(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		db := d.open(t)
		gatewayMigrations := fstest.MapFS{
			"00001_store.sql": {Data: []byte("-- +goose Up\nCREATE TABLE gateway_things (id INTEGER PRIMARY KEY);\n" +
				"-- +goose Down\nDROP TABLE gateway_things;\n")},
			"00002_more.sql": {Data: []byte("-- +goose Up\nCREATE TABLE gateway_more (id INTEGER PRIMARY KEY);\n" +
				"-- +goose Down\nDROP TABLE gateway_more;\n")},
		}
		dialect := goose.DialectSQLite3
		if d.dialect == local.DialectPostgres {
			dialect = goose.DialectPostgres
		}
		gateway, err := goose.NewProvider(dialect, db, gatewayMigrations, goose.WithDisableGlobalRegistry(true))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := gateway.UpTo(ctx, 1); err != nil {
			t.Fatalf("gateway migration 1: %v", err)
		}
		f, err := local.New(ctx, db, local.Options{Dialect: d.dialect, GitDir: d.gitDir})
		if err != nil {
			t.Fatalf("local.New beside the gateway's migrations: %v", err)
		}
		if _, err := gateway.Up(ctx); err != nil {
			t.Fatalf("gateway migration 2 after the forge's: %v", err)
		}
		if v, err := gateway.GetDBVersion(ctx); err != nil || v != 2 {
			t.Fatalf("gateway version = %d (err %v), want 2", v, err)
		}
		if got := appliedVersions(t, db); got != "0:true 1:true 2:true 3:true 4:true 5:true 6:true" {
			t.Fatalf("forge version table = %q, want only its own migrations", got)
		}
		createIssue(t, f, "acme/app", "works")
	})
}

func TestNewRejectsBadOptions(t *testing.T) {
	db := sqliteDatabase(t).open(t)
	for _, tc := range []struct {
		opts local.Options
		want string
	}{
		{local.Options{Dialect: "mysql"}, `unknown dialect "mysql"`},
		{local.Options{BaseURL: "localhost/forge"}, "absolute http(s) URL"},
		{local.Options{BaseURL: "ftp://host/forge"}, "absolute http(s) URL"},
		{local.Options{BaseURL: "https://host/forge?x=1"}, "without query or fragment"},
		{local.Options{Host: "bad host"}, `host "bad host" is not a valid forge host`},
		{local.Options{DefaultBranch: "a..b"}, `default branch "a..b" is not a valid branch name`},
		{local.Options{Repos: []local.Repo{{Name: "a b"}}}, `configured repository: repo "a b"`},
		{local.Options{Repos: []local.Repo{{Name: "acme/app", DefaultBranch: "-x"}}}, `default branch of acme/app "-x"`},
		{local.Options{GitDir: "-"}, "no git directory: set Options.GitDir"}, // "-" stands for none
		{local.Options{CI: local.CI{Command: "true", Timeout: -time.Second}}, "CI timeout -1s is negative"},
		{local.Options{CI: local.CI{Command: "true", Env: []string{"A=B"}}}, `CI environment variable name "A=B" is not a name`},
	} {
		switch tc.opts.GitDir {
		case "":
			tc.opts.GitDir = t.TempDir()
		case "-":
			tc.opts.GitDir = ""
		}
		_, err := local.New(context.Background(), db, tc.opts)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%+v) = %v, want an error containing %q", tc.opts, err, tc.want)
		}
	}
	if _, err := local.New(context.Background(), nil, local.Options{}); err == nil {
		t.Error("New(nil db) succeeded")
	}
}

// TestDefaults checks the zero Options: host "local", the default base URL
// and branch, and the dialect detected from the driver.
func TestDefaults(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		f, err := local.New(context.Background(), d.open(t), local.Options{GitDir: d.gitDir})
		if err != nil {
			t.Fatal(err)
		}
		branch(t, f, "o/r", "h")
		pr, err := f.CreatePullRequest(context.Background(), alice,
			&gatewayv1.CreatePullRequestRequest{Repo: "o/r", Title: "t", HeadRef: "h"})
		if err != nil {
			t.Fatal(err)
		}
		if pr.GetUrl() != local.DefaultBaseURL+"/o/r/pull/1" || pr.GetBaseRef() != "main" ||
			f.Ref().GetHost() != "local" || f.Ref().GetProvider().String() != "FORGE_PROVIDER_LOCAL" {
			t.Fatalf("defaults: pr %v, ref %v", pr, f.Ref())
		}
	})
}

// TestTimestamps reads the stored times: a comment or review moves an
// artifact's updated time and leaves its created time.
func TestTimestamps(t *testing.T) {
	eachDialect(t, func(t *testing.T, d database) {
		ctx := context.Background()
		clock := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
		f, db := newForge(t, d, local.Options{Now: func() time.Time { return clock }})
		createIssue(t, f, "acme/app", "t")
		clock = clock.Add(time.Hour)
		if _, err := f.CommentOnIssue(ctx, alice, &gatewayv1.CommentOnIssueRequest{Repo: "acme/app", IssueNumber: 1, Body: "b"}); err != nil {
			t.Fatal(err)
		}
		var created, updated int64
		if err := db.QueryRow("SELECT created_at, updated_at FROM local_items WHERE number = 1").Scan(&created, &updated); err != nil {
			t.Fatal(err)
		}
		if created != clock.Add(-time.Hour).UnixMicro() || updated != clock.UnixMicro() {
			t.Fatalf("created %d updated %d, want %d and %d", created, updated, clock.Add(-time.Hour).UnixMicro(), clock.UnixMicro())
		}
	})
}
