package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/internal/config"
	"github.com/forgetools/forgetools/providers/github"
	"github.com/forgetools/forgetools/providers/linear"
	"github.com/forgetools/forgetools/providers/local"
	"github.com/forgetools/forgetools/subscriptions"
)

// system is a running gateway: its service and the state it owns.
type system struct {
	svc   *gateway.Service
	store *store.Store
}

func (s *system) Close() error { return s.store.Close() }

// open builds the gateway a configuration describes: the store, every forge
// provider (credentials read from the environment variables the config
// names) and the Service over them. Every forge gets subscriptions kept in
// the gateway store.
func open(ctx context.Context, cfg *config.Config, log *slog.Logger) (*system, error) {
	if err := prepareStore(cfg.Store); err != nil {
		return nil, err
	}
	st, err := store.Open(ctx, cfg.Store, store.Options{Logger: log})
	if err != nil {
		return nil, err
	}
	gcfg := gateway.Config{Store: st, Logger: log}
	for i, f := range cfg.Forges {
		p, secrets, err := buildForge(ctx, st, cfg.Store, f, log)
		if err != nil {
			st.Close()
			return nil, fmt.Errorf("forges[%d] (%s): %w", i, f.Provider, err)
		}
		gcfg.Forges = append(gcfg.Forges, gateway.Forge{Provider: subscriptions.Serve(p, st), Default: f.Default})
		gcfg.Redact = append(gcfg.Redact, secrets...)
	}
	for _, a := range cfg.Accounts {
		acct := gateway.Account{
			Name: a.Name, AgentHandle: a.AgentHandle, OwnerHandle: a.OwnerHandle,
			Scope: a.Scope, Sessions: a.Sessions, PushToDefaultBranch: a.PushToDefaultBranch,
		}
		for _, env := range a.TokenEnvs {
			secret, err := config.Secret(env)
			if err != nil {
				st.Close()
				return nil, fmt.Errorf("account %s: %w", a.Name, err)
			}
			acct.Tokens = append(acct.Tokens, gateway.Token{Secret: secret})
		}
		gcfg.Accounts = append(gcfg.Accounts, acct)
	}
	svc, err := gateway.New(gcfg)
	if err != nil {
		st.Close()
		return nil, err
	}
	return &system{svc: svc, store: st}, nil
}

// prepareStore creates the directory of a SQLite store file, so the
// default store in a fresh data directory just works.
func prepareStore(dsn string) error {
	if dsn == "" {
		return errors.New("no store: set store in the config or pass --store")
	}
	if isPostgres(dsn) || dsn == ":memory:" {
		return nil
	}
	return os.MkdirAll(filepath.Dir(strings.TrimPrefix(dsn, "sqlite:")), 0o700)
}

func isPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// buildForge constructs one provider and returns the secrets it holds, so
// the gateway can keep them out of every log line and error.
func buildForge(ctx context.Context, st *store.Store, dsn string, f config.Forge, log *slog.Logger) (subscriptions.Provider, []string, error) {
	timeout := time.Duration(f.Timeout)
	switch f.Provider {
	case "local":
		dir, err := gitDir(f, dsn)
		if err != nil {
			return nil, nil, err
		}
		p, err := local.New(ctx, st.DB(), local.Options{
			Dialect: string(st.Dialect()), BaseURL: f.BaseURL, Host: f.Host, Logger: log, GitDir: dir,
			CI: local.CI{Command: f.CICommand, Timeout: time.Duration(f.CITimeout), Env: f.CIEnv},
		})
		return p, nil, err
	case "github":
		token, err := config.Secret(f.TokenEnv)
		if err != nil {
			return nil, nil, err
		}
		reviewer, err := config.Secret(f.ReviewerTokenEnv)
		if err != nil {
			return nil, nil, err
		}
		p, err := github.New(github.Options{
			Host: f.Host, APIURL: f.APIURL, Token: token, ReviewerToken: reviewer,
			Timeout: timeout, Logger: log,
		})
		return p, nonEmpty(token, reviewer), err
	case "linear":
		key, err := config.Secret(f.TokenEnv)
		if err != nil {
			return nil, nil, err
		}
		p, err := linear.New(linear.Options{
			Host: f.Host, APIURL: f.APIURL, APIKey: key, Auth: linear.AuthKind(f.Auth),
			Timeout: timeout, Logger: log,
		})
		return p, nonEmpty(key), err
	}
	return nil, nil, fmt.Errorf("unknown provider %q", f.Provider)
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
