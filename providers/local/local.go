// Package local is the sandbox forge: issues, pull requests, comments and
// reviews kept in the gateway's own SQLite or PostgreSQL database, so every
// forge tool runs with no credentials and no network.
//
// The forge has no users. An artifact's author is the gateway account the
// call was made for (handler.Call.Account), or "agent" when the call names
// none; the attribution header the gateway stamped into the body is stored
// verbatim with it.
//
// Every repository exists and starts empty: reads of an unknown repository
// find nothing (not_found for one artifact, an empty list for a listing), and
// the first create in it records the repository with the default branch.
// Repository names are "owner/name" or a bare key ("ENG", as Linear names a
// team) and match exactly, case included. Issues and pull requests share one
// number sequence per repository, as on GitHub; a bare-key repository's
// issues also get a Linear-style identifier ("ENG-12").
//
// URLs are BaseURL/<repo>/issues/N and BaseURL/<repo>/pull/N, with
// #issuecomment-ID and #pullrequestreview-ID for comments and reviews.
package local

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1handler"
	"github.com/forgetools/forgetools/handler"
	"github.com/forgetools/forgetools/subscriptions"
)

// Dialects New accepts in Options.Dialect.
const (
	DialectSQLite   = "sqlite"
	DialectPostgres = "postgres"
)

// Defaults for the zero Options.
const (
	DefaultBaseURL = "http://localhost/forge"
	DefaultHost    = "local"
	DefaultBranch  = "main"
	defaultAuthor  = "agent"
)

// Options configure a Forge. The zero value is usable on a database whose
// driver New can recognise.
type Options struct {
	// Dialect is DialectSQLite (modernc.org/sqlite) or DialectPostgres (pgx
	// stdlib). Empty: detected from db.Driver().
	Dialect string
	// BaseURL prefixes every artifact URL: BaseURL/owner/name/issues/N.
	// Empty: DefaultBaseURL.
	BaseURL string
	// Host is the ForgeRef host this forge serves. Empty: DefaultHost.
	Host string
	// DefaultBranch is the base of pull requests that omit base_ref, in
	// repositories created on first use. Empty: DefaultBranch.
	DefaultBranch string
	// Repos are created (or have their default branch updated) by New.
	Repos []Repo
	// Now stamps created and updated times. Nil: time.Now.
	Now func() time.Time
	// Logger receives migration progress and failures to record changes.
	// Nil: slog.Default().
	Logger *slog.Logger
	// Recorder hears of every change the forge's writes make (comments,
	// reviews, state and checks), for change notifications; nil: nobody.
	Recorder subscriptions.Recorder
}

// Repo is a repository configured up front.
type Repo struct {
	// Name is "owner/name", or a bare key such as "ENG".
	Name string
	// DefaultBranch is the base of pull requests that omit base_ref. Empty:
	// Options.DefaultBranch.
	DefaultBranch string
}

// Forge is the local sandbox forge. It is safe for concurrent use, and
// several Forges (in one process or many) may share one database.
type Forge struct {
	gatewayv1handler.UnimplementedForgeHandler

	db            *sql.DB
	dialect       string
	baseURL       string
	host          string
	defaultBranch string
	now           func() time.Time
	log           *slog.Logger
	recorder      subscriptions.Recorder

	// writeMu serialises this process's SQLite writers, so they queue here
	// instead of spinning in SQLite's busy handler. Other processes on the
	// same file are covered by the busy timeout.
	writeMu sync.Mutex
}

var (
	_ handler.Provider                          = (*Forge)(nil)
	_ gatewayv1handler.ForgeIssuesHandler       = (*Forge)(nil)
	_ gatewayv1handler.ForgePullRequestsHandler = (*Forge)(nil)
	_ gatewayv1handler.ForgeReviewsHandler      = (*Forge)(nil)
)

// hostPattern is ForgeRef.host's buf.validate pattern, non-empty.
var hostPattern = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?(:[0-9]{1,5})?$`)

// New migrates db (the forge's tables live beside the gateway's, with their
// own goose version table) and returns a Forge on it. The Forge does not own
// db: closing it is the caller's job.
func New(ctx context.Context, db *sql.DB, opts Options) (*Forge, error) {
	if db == nil {
		return nil, errors.New("local forge: nil database")
	}
	f := &Forge{
		db:            db,
		dialect:       opts.Dialect,
		baseURL:       strings.TrimRight(opts.BaseURL, "/"),
		host:          opts.Host,
		defaultBranch: opts.DefaultBranch,
		now:           opts.Now,
		recorder:      opts.Recorder,
	}
	if f.dialect == "" {
		f.dialect = detectDialect(db)
	}
	if f.dialect != DialectSQLite && f.dialect != DialectPostgres {
		return nil, fmt.Errorf("local forge: unknown dialect %q for driver %T: set Options.Dialect to %q or %q",
			f.dialect, db.Driver(), DialectSQLite, DialectPostgres)
	}
	if f.baseURL == "" {
		f.baseURL = DefaultBaseURL
	}
	if u, err := url.Parse(f.baseURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("local forge: base URL %q must be an absolute http(s) URL without query or fragment", opts.BaseURL)
	}
	if f.host == "" {
		f.host = DefaultHost
	}
	if len(f.host) > 253 || !hostPattern.MatchString(f.host) {
		return nil, fmt.Errorf("local forge: host %q is not a valid forge host (name[:port])", f.host)
	}
	if f.defaultBranch == "" {
		f.defaultBranch = DefaultBranch
	}
	if err := checkBranch("default branch", f.defaultBranch); err != nil {
		return nil, fmt.Errorf("local forge: %w", err)
	}
	if f.now == nil {
		f.now = time.Now
	}
	f.log = opts.Logger
	if f.log == nil {
		f.log = slog.Default()
	}
	if err := migrate(ctx, db, f.dialect, f.log); err != nil {
		return nil, err
	}
	if err := f.seed(ctx, opts.Repos); err != nil {
		return nil, err
	}
	return f, nil
}

// detectDialect names the dialect of the two drivers the project uses, by
// type name so this package does not register either driver itself.
func detectDialect(db *sql.DB) string {
	switch fmt.Sprintf("%T", db.Driver()) {
	case "*sqlite.Driver":
		return DialectSQLite
	case "*stdlib.Driver":
		return DialectPostgres
	}
	return ""
}

// Ref is the coordinate this forge serves: {local, Host}.
func (f *Forge) Ref() *forgev1.ForgeRef {
	return &forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_LOCAL, Host: f.host}
}

// seed creates the configured repositories; configuration wins over the
// default branch a repository got on first use.
func (f *Forge) seed(ctx context.Context, repos []Repo) error {
	for _, r := range repos {
		branch := r.DefaultBranch
		if branch == "" {
			branch = f.defaultBranch
		}
		if err := checkRepo(r.Name); err != nil {
			return fmt.Errorf("local forge: configured repository: %w", err)
		}
		if err := checkBranch("default branch of "+r.Name, branch); err != nil {
			return fmt.Errorf("local forge: %w", err)
		}
		err := f.write(ctx, func(tx *sql.Tx) error {
			_, err := tx.ExecContext(ctx, `INSERT INTO local_repos (name, default_branch, last_number, created_at)
				VALUES ($1, $2, 0, $3)
				ON CONFLICT (name) DO UPDATE SET default_branch = excluded.default_branch`,
				r.Name, branch, f.now().UnixMicro())
			return err
		})
		if err != nil {
			return fmt.Errorf("local forge: seed repository %s: %w", r.Name, err)
		}
	}
	return nil
}

// author is who the forge records as having written an artifact.
func author(c handler.Call) string {
	if c.Account != "" {
		return c.Account
	}
	return defaultAuthor
}
