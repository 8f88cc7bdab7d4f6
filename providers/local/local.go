// Package local is the sandbox forge: issues, pull requests, comments,
// reviews and CI runs kept in the gateway's own SQLite or PostgreSQL
// database, and each repository a real bare git repository on disk
// (Options.GitDir, through localgit), so every forge tool runs with no
// credentials and no network, and a person can `git clone` what an agent
// did, or push to it.
//
// The forge has no users. An artifact's author is the gateway account the
// call was made for (toolserver.Call.Account), or "agent" when the call names
// none; the attribution header the gateway stamped into the body is stored
// verbatim with it. A commit's author is the account's agent handle, with
// the email <account>@<host>.
//
// Every repository exists: its database record and its git repository (an
// initial commit on the default branch) are made the first time a call
// needs them. Reads of artifacts that do not
// exist find nothing (not_found for one, an empty list for a listing).
// Repository names are "owner/name" and match case-insensitively, as on
// GitHub, Gitea and GitLab: one repository per case-folded name, shown in
// the spelling it was created with, which is also the name of its git
// repository on disk. A name without a slash is invalid_argument, as on
// every forge that takes "owner/name". Issues and pull requests share one
// number sequence per repository, as on GitHub. A pull request's head must
// be a branch of the repository.
//
// URLs are BaseURL/<repo>/issues/N and BaseURL/<repo>/pull/N, with
// #issuecomment-ID and #pullrequestreview-ID for comments and reviews, and
// BaseURL/<repo>/blob/<ref>/<path>, /tree/<branch>, /commit/<sha> and
// /actions/runs/<id> for files, branches, commits and CI runs.
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
	"sync/atomic"
	"time"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1handler"
	"github.com/forgetools/forgetools/providers/local/localgit"
	"github.com/forgetools/forgetools/toolserver"
	"github.com/forgetools/forgetools/toolserver/notify"
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
	// GitDir holds the repositories, <GitDir>/<owner>/<name>.git. Required.
	GitDir string
	// CI is the forge's CI; the zero value runs none, and the CI tools
	// answer unimplemented, saying how to configure a command.
	CI CI
	// Now stamps created and updated times. Nil: time.Now.
	Now func() time.Time
	// Logger receives migration progress and failures to record changes.
	// Nil: slog.Default().
	Logger *slog.Logger
	// Recorder hears of every change the forge's writes make (comments,
	// reviews, state, labels and checks), for change notifications; nil:
	// nobody.
	Recorder notify.Recorder
	// Orgs are the local forge's organisations, each with its member
	// accounts, as the gateway's "org:NAME" trusted-author entry reads
	// them. The local forge has no organisations of its own; one not
	// configured here has no members.
	Orgs map[string][]string
}

// Repo is a repository configured up front.
type Repo struct {
	// Name is "owner/name"; another spelling of a configured repository's
	// name configures the same repository.
	Name string
	// DefaultBranch is the base of pull requests that omit base_ref. Empty:
	// Options.DefaultBranch.
	DefaultBranch string
	// Visibility is what forge_get_repo reports, and so what the
	// gateway's information-flow rules read: "public", "private" or
	// "internal". Empty: private, as every repository not configured here
	// is.
	Visibility string
	// Writers are the accounts (the logins the local forge records as
	// authors) with write permission on the repository, as the gateway's
	// "collaborators:write" trusted-author entry reads it. A repository
	// not configured here, or with none listed, has no writers: the local
	// forge lets every account write, so that fact says nothing.
	Writers []string
}

// CI is what forge_trigger_ci runs on the local forge.
type CI struct {
	// Command is a shell command (sh -c) run in a fresh checkout of the
	// ref; its exit status is the run's conclusion. Empty: no CI.
	Command string
	// Timeout bounds one run. Zero: DefaultCITimeout.
	Timeout time.Duration
	// Env names the environment variables the command sees besides PATH,
	// HOME and the locale; the gateway's own environment (its credentials)
	// is never passed on whole.
	Env []string
	// Sandbox is how a run is confined: "" or SandboxBubblewrap (its own
	// unprivileged uid, mount, pid, IPC and network namespaces, resource
	// limits; CI refuses to run when that cannot be made), or SandboxNone
	// (the gateway's uid and file system; a warning at every run).
	Sandbox string
	// Network lets a sandboxed run reach the network (the host's network
	// namespace). Off: the run has only a loopback interface of its own.
	Network bool
	// UID and GID are who a sandboxed run is when the gateway runs as
	// root. Zero: 65534 (nobody, nogroup); root is refused.
	UID, GID int
	// Memory bounds the address space of each process of a sandboxed
	// run, in bytes. Zero: DefaultCIMemory (4 GiB). The race detector
	// reserves far more address space than it uses: raise it for -race.
	Memory int64
}

// DefaultCITimeout bounds a CI run when CI.Timeout is zero.
const DefaultCITimeout = 10 * time.Minute

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
	git           *localgit.Store
	ci            CI
	log           *slog.Logger
	recorder      notify.Recorder
	// visibility holds the configured repositories' visibility by
	// case-folded name; a repository not in it is private.
	visibility map[string]string
	// writers and members hold the configured writers by repository key
	// and members by organisation, each login case-folded.
	writers, members map[string]map[string]bool

	// writeMu serialises this process's SQLite writers, so they queue here
	// instead of spinning in SQLite's busy handler. Other processes on the
	// same file are covered by the busy timeout.
	writeMu sync.Mutex
	// busyFromDSN records that the SQLite DSN sets a busy timeout, so no
	// connection needs one checked; busySet that the forge set one itself
	// (ensureBusyTimeout).
	busyFromDSN, busySet atomic.Bool
}

var (
	_ gatewayv1handler.ForgeIssuesHandler       = (*Forge)(nil)
	_ gatewayv1handler.ForgePullRequestsHandler = (*Forge)(nil)
	_ gatewayv1handler.ForgeReviewsHandler      = (*Forge)(nil)
	_ gatewayv1handler.ForgeRepositoryHandler   = (*Forge)(nil)
	_ gatewayv1handler.ForgePushHandler         = (*Forge)(nil)
	_ gatewayv1handler.ForgeCiHandler           = (*Forge)(nil)
	_ toolserver.Explainer                      = (*Forge)(nil)
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
	if opts.GitDir == "" {
		return nil, errors.New("local forge: no git directory: set Options.GitDir, where each repository is kept as a bare git repository")
	}
	var err error
	if f.git, err = localgit.New(opts.GitDir); err != nil {
		return nil, fmt.Errorf("local forge: %w", err)
	}
	if f.ci, err = checkCI(opts.CI); err != nil {
		return nil, fmt.Errorf("local forge: %w", err)
	}
	f.log = opts.Logger
	if f.log == nil {
		f.log = slog.Default()
	}
	if err := applyMigrations(ctx, db, f.dialect, f.log); err != nil {
		return nil, err
	}
	if err := f.reportSetAside(ctx, f.log); err != nil {
		return nil, err
	}
	if err := f.seed(ctx, opts.Repos); err != nil {
		return nil, err
	}
	if err := f.seedPeople(opts.Repos, opts.Orgs); err != nil {
		return nil, err
	}
	return f, nil
}

// reportSetAside warns about the repositories migration 2 set aside: ones
// whose names differed only in case from an older repository's, from
// before names were matched case-insensitively. Their data is kept, out of
// every call's reach, until an operator moves or deletes it.
func (f *Forge) reportSetAside(ctx context.Context, logger *slog.Logger) error {
	rows, err := f.db.QueryContext(ctx, `SELECT r.name, r.id, o.name FROM local_repos r
		JOIN local_repos o ON o.name_key = lower(r.name) WHERE r.name_key <> lower(r.name) ORDER BY r.id`)
	if err != nil {
		return fmt.Errorf("local forge: list repositories set aside: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var name, kept string
		var id int64
		if err := rows.Scan(&name, &id, &kept); err != nil {
			return fmt.Errorf("local forge: list repositories set aside: %w", err)
		}
		logger.Warn("local forge repository set aside: its name differs only in case from an older repository's, which now answers for both spellings",
			"repository", name, "id", id, "kept", kept)
	}
	return rows.Err()
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
	f.visibility = map[string]string{}
	for _, r := range repos {
		switch r.Visibility {
		case "", "private", "public", "internal":
		default:
			return fmt.Errorf("local forge: configured repository %s: visibility %q is not public, private or internal", r.Name, r.Visibility)
		}
		if r.Visibility != "" {
			f.visibility[repoKey(r.Name)] = r.Visibility
		}
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
			_, err := tx.ExecContext(ctx, `INSERT INTO local_repos (name, name_key, default_branch, last_number, created_at)
				VALUES ($1, $2, $3, 0, $4)
				ON CONFLICT (name_key) DO UPDATE SET default_branch = excluded.default_branch`,
				r.Name, repoKey(r.Name), branch, f.now().UnixMicro())
			return err
		})
		if err != nil {
			return fmt.Errorf("local forge: seed repository %s: %w", r.Name, err)
		}
	}
	return nil
}

// author is who the forge records as having written an artifact.
func author(c toolserver.Call) string {
	if c.Account != "" {
		return c.Account
	}
	return defaultAuthor
}
