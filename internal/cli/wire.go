package cli

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/console"
	"github.com/forgetools/forgetools/gateway/scopeedit"
	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/internal/config"
	"github.com/forgetools/forgetools/internal/redact"
	"github.com/forgetools/forgetools/providers/gitea"
	"github.com/forgetools/forgetools/providers/github"
	"github.com/forgetools/forgetools/providers/gitlab"
	"github.com/forgetools/forgetools/providers/kit"
	"github.com/forgetools/forgetools/providers/linear"
	"github.com/forgetools/forgetools/providers/local"
	"github.com/forgetools/forgetools/subscriptions"
	"github.com/forgetools/forgetools/subscriptions/feed"
	"github.com/forgetools/forgetools/subscriptions/poll"
	"github.com/forgetools/forgetools/subscriptions/webhook"
	"github.com/forgetools/forgetools/toolserver/notify"
)

// system is a running gateway: its service, the state it owns and the
// logger everything in it writes to.
type system struct {
	svc   *gateway.Service
	store *store.Store
	// feed records and delivers change notifications.
	feed *feed.Feed
	// local is the first local forge, whose operator methods the demo
	// uses; nil when none is configured.
	local *local.Forge
	// sources are the forges the poll driver polls.
	sources []poll.Source
	// webhooks receive forges' webhooks, by path, on the TCP listener.
	webhooks map[string]http.Handler
	events   config.Events
	// operators are the console's operator tokens, named by their
	// variables (console.operator_token_envs).
	operators []console.Operator
	// discover are the forges that can list what their credentials
	// reach, for the console's scope editor.
	discover []scopeedit.Forge
	// mcpApprovers are the accounts whose parked calls the person at the
	// MCP client may decide (approvers: [mcp_client]).
	mcpApprovers map[string]bool
	// log redacts every credential the configuration names, however
	// encoded, from every line (internal/redact).
	log *slog.Logger
}

func (s *system) Close() error {
	s.feed.Close()
	return s.store.Close()
}

// open builds the gateway a configuration describes: the store, every forge
// provider (credentials read from the environment variables the config
// names) and the Service over them. Every forge gets subscriptions kept in
// the gateway store; the local forge reports its writes to the event feed,
// polled forges are the poll driver's sources, and forges with a webhook
// secret get a receiver.
//
// Everything that can be checked without the store is checked first (every
// credential, every account, every remote forge's settings), so a start
// that fails leaves no store file and no migrated schema behind; a SQLite
// file created by a start that fails later is removed again. Everything
// logs through a logger that redacts the credentials.
func open(ctx context.Context, cfg *config.Config, log *slog.Logger) (_ *system, err error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	creds, err := cfg.Resolve()
	if err != nil {
		return nil, err
	}
	redactor := redact.New(creds.Values()...)
	log = slog.New(redact.NewHandler(log.Handler(), redactor))
	gcfg := gateway.Config{Logger: log, DedupWindow: time.Duration(cfg.DedupWindow), ApprovalExpiry: time.Duration(cfg.ApprovalExpiry),
		ApprovalWait: time.Duration(cfg.ApprovalWait)}
	for _, a := range cfg.Accounts {
		acct := gateway.Account{
			Name: a.Name, AgentHandle: a.AgentHandle, OwnerHandle: a.OwnerHandle,
			Scope: a.Scope, Peers: map[string]gateway.Peer{}, PushToDefaultBranch: a.PushToDefaultBranch,
			Limits: gateway.Limits(a.Limits),
			Flow: gateway.FlowRules{
				AllowPrivateToPublic:  a.Flow.PrivateToPublic != nil && !*a.Flow.PrivateToPublic,
				AllowUntrustedContent: a.Flow.UntrustedContent != nil && !*a.Flow.UntrustedContent,
				TrustedAuthors:        a.Flow.TrustedAuthors,
			},
			Policy: a.Policy.Gateway(),
		}
		for _, s := range a.Sessions {
			acct.Sessions = append(acct.Sessions, s.Name)
			if s.UID != nil || s.GID != nil {
				acct.Peers[s.Name] = gateway.Peer{UID: s.UID, GID: s.GID}
			}
		}
		for _, env := range a.TokenEnvs {
			acct.Tokens = append(acct.Tokens, gateway.Token{Secret: creds[env]})
		}
		gcfg.Accounts = append(gcfg.Accounts, acct)
	}
	if err := gateway.CheckAccounts(gcfg.Accounts); err != nil {
		return nil, err
	}
	// Remote forges need no store: build them before it exists.
	forges := make([]subscriptions.Provider, len(cfg.Forges))
	for i, f := range cfg.Forges {
		if f.Provider == "local" {
			continue
		}
		p, secrets, err := buildRemote(f, creds, log)
		if err != nil {
			return nil, fmt.Errorf("forges[%d] (%s): %w", i, f.Provider, err)
		}
		forges[i] = p
		// A webhook secret never reaches a provider, but it is kept out of
		// errors all the same.
		gcfg.Redact = append(gcfg.Redact, nonEmpty(append(secrets, creds[f.WebhookSecretEnv])...)...)
	}

	created, err := prepareStore(cfg.Store, log)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err != nil {
			created.remove()
		}
	}()
	st, err := store.Open(ctx, cfg.Store, store.Options{Logger: log})
	if err != nil {
		return nil, err
	}
	sys := &system{store: st, webhooks: map[string]http.Handler{}, events: cfg.Events, log: log}
	for _, env := range cfg.Console.OperatorTokenEnvs {
		sys.operators = append(sys.operators, console.Operator{Name: env, Token: creds[env]})
	}
	sys.mcpApprovers = map[string]bool{}
	for _, a := range cfg.Accounts {
		sys.mcpApprovers[a.Name] = a.Approves(config.ApproverMCPClient)
	}
	sys.feed = feed.New(st, feed.Options{Retention: time.Duration(cfg.Events.Retention), Logger: log})
	defer func() {
		if err != nil {
			sys.Close()
		}
	}()
	gcfg.Store, gcfg.State, gcfg.Wake = st, subscriptions.State(st), sys.feed.Wake
	for i, f := range cfg.Forges {
		if f.Provider == "local" {
			if forges[i], err = buildLocal(ctx, st, sys.feed, f, cfg.Store, log); err != nil {
				return nil, fmt.Errorf("forges[%d] (local): %w", i, err)
			}
		}
		if lf, err := discoveryForge(cfg, f, forges[i], redactor); err == nil {
			sys.discover = append(sys.discover, lf)
		}
		if err = sys.notify(forges[i], f, creds); err != nil {
			return nil, fmt.Errorf("forges[%d] (%s): %w", i, f.Provider, err)
		}
		gcfg.Forges = append(gcfg.Forges, gateway.Forge{Provider: subscriptions.Serve(forges[i], st), Default: f.Default})
	}
	if sys.svc, err = gateway.New(gcfg); err != nil {
		return nil, err
	}
	// Rows stored before redaction came first (or before a credential was
	// configured) are redacted once, before anyone is served.
	if n, err := sys.svc.Scrub(ctx); err != nil {
		return nil, err
	} else if n > 0 {
		log.Info("redacted credentials in stored rows", "rows", n)
	}
	return sys, nil
}

// GitHub is a poll and a webhook source. The provider satisfies the
// interfaces subscriptions/poll and subscriptions/webhook own without
// importing them (it speaks handler/notify), so the match is checked here,
// where it is wired in: a signature that drifts fails the build instead of
// silently leaving GitHub unpolled.
var (
	_ poll.Source    = (*github.Provider)(nil)
	_ webhook.Source = (*github.Provider)(nil)
)

// notify wires a forge into change notifications: a local forge is kept
// for the demo, a pollable one becomes a poll source, and one with a
// webhook secret gets a receiver.
func (s *system) notify(p subscriptions.Provider, f config.Forge, creds config.Credentials) error {
	if l, ok := p.(*local.Forge); ok && s.local == nil {
		s.local = l
	}
	if src, ok := p.(poll.Source); ok {
		s.sources = append(s.sources, src)
	}
	if f.WebhookSecretEnv == "" {
		return nil
	}
	src, ok := p.(webhook.Source)
	if !ok {
		return fmt.Errorf("%s sends no webhooks the gateway can verify", f.Provider)
	}
	secret := creds[f.WebhookSecretEnv]
	s.webhooks[webhook.Path(src.Ref())] = webhook.Handler(s.store, s.feed, src, []byte(secret), s.log)
	return nil
}

// background runs what a long-lived gateway does besides answering calls
// until ctx ends: pruning events past their retention and polling the
// subscribed artifacts of forges without webhooks. wait returns once both
// have stopped.
func (s *system) background(ctx context.Context) (wait func()) {
	var wg sync.WaitGroup
	driver := poll.New(s.store, s.feed, s.sources, poll.Options{Interval: time.Duration(s.events.PollInterval), Logger: s.log})
	wg.Go(func() { s.feed.Run(ctx) })
	wg.Go(func() { driver.Run(ctx) })
	wg.Go(func() { s.announceExpiries(ctx) })
	return wg.Wait
}

// expirySweep is how often a long-lived gateway announces the approvals
// that expired undecided, as events of their accounts' approval streams.
const expirySweep = time.Minute

// announceExpiries announces expiries until ctx ends. Each sweep looks
// back two sweeps, so one delayed by a busy store misses nothing; an
// expiry seen twice is recorded once.
func (s *system) announceExpiries(ctx context.Context) {
	t := time.NewTicker(expirySweep)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if _, err := s.svc.AnnounceExpired(ctx, s.store.Now().Add(-2*expirySweep)); err != nil && ctx.Err() == nil {
			s.log.WarnContext(ctx, "expired approvals not announced", "cause", err.Error())
		}
	}
}

// buildLocal constructs the local forge on the gateway's store; its writes
// become events through rec.
func buildLocal(ctx context.Context, st *store.Store, rec notify.Recorder, f config.Forge, dsn string, log *slog.Logger) (*local.Forge, error) {
	dir, err := gitDir(f, dsn)
	if err != nil {
		return nil, err
	}
	return local.New(ctx, st.DB(), local.Options{
		Dialect: string(st.Dialect()), BaseURL: f.BaseURL, Host: f.Host, Logger: log, GitDir: dir, Recorder: rec,
		CI: local.CI{Command: f.CICommand, Timeout: time.Duration(f.CITimeout), Env: f.CIEnv, Sandbox: f.CISandbox,
			Network: f.CINetwork, UID: f.CIUID, GID: f.CIGID, Memory: f.CIMemoryMB << 20},
		Repos: localRepos(f.PublicRepos, f.Writers), Orgs: f.Orgs,
	})
}

func isPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// buildRemote constructs a provider that talks to a forge's API and
// returns the secrets it holds, so the gateway can keep them out of every
// log line and error.
func buildRemote(f config.Forge, creds config.Credentials, log *slog.Logger) (subscriptions.Provider, []string, error) {
	token, reviewer := creds[f.TokenEnv], creds[f.ReviewerTokenEnv]
	o := kit.Options{
		Host: f.Host, APIURL: f.APIURL, Token: token, ReviewerToken: reviewer,
		Timeout: time.Duration(f.Timeout), Logger: log,
	}
	var (
		p   subscriptions.Provider
		err error
	)
	switch f.Provider {
	case "github":
		p, err = github.New(github.Options{Options: o})
	case "gitea", "forgejo":
		p, err = gitea.New(gitea.Options{Options: o, Flavor: gitea.Flavor(f.Provider)})
	case "gitlab":
		p, err = gitlab.New(gitlab.Options{Options: o})
	case "linear":
		p, err = linear.New(linear.Options{Options: o, Auth: linear.AuthKind(f.Auth)})
	default:
		return nil, nil, fmt.Errorf("unknown provider %q", f.Provider)
	}
	if err != nil {
		return nil, nil, err
	}
	return p, nonEmpty(token, reviewer), nil
}

// gitDir is where the local forge keeps its repositories: git_dir, else
// "repos" beside a SQLite store file (so a store and its repositories move
// together), else, with PostgreSQL or an in-memory store, "repos" in the
// data directory. Gateway replicas sharing a PostgreSQL store must share
// this directory too: set git_dir to a shared path.
func gitDir(f config.Forge, dsn string) (string, error) {
	if f.GitDir != "" {
		return f.GitDir, nil
	}
	if isPostgres(dsn) || strings.TrimPrefix(dsn, "sqlite:") == ":memory:" {
		data, err := config.DataDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(data, "repos"), nil
	}
	return filepath.Join(filepath.Dir(strings.TrimPrefix(dsn, "sqlite:")), "repos"), nil
}

func nonEmpty(vs ...string) []string {
	var out []string
	for _, v := range vs {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// localRepos configures the local forge's public repositories and its
// repositories' writers (sorted, so the order does not depend on the map).
func localRepos(public []string, writers map[string][]string) []local.Repo {
	var out []local.Repo
	for _, n := range public {
		out = append(out, local.Repo{Name: n, Visibility: "public"})
	}
	for _, n := range slices.Sorted(maps.Keys(writers)) {
		out = append(out, local.Repo{Name: n, Writers: writers[n]})
	}
	return out
}
