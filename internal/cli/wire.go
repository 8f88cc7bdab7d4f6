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
	"github.com/forgetools/forgetools/providers/gitea"
	"github.com/forgetools/forgetools/providers/github"
	"github.com/forgetools/forgetools/providers/gitlab"
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
		p, secrets, err := buildForge(ctx, st, f, log)
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
			Scope: a.Scope, Sessions: a.Sessions,
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
func buildForge(ctx context.Context, st *store.Store, f config.Forge, log *slog.Logger) (subscriptions.Provider, []string, error) {
	timeout := time.Duration(f.Timeout)
	switch f.Provider {
	case "local":
		p, err := local.New(ctx, st.DB(), local.Options{
			Dialect: string(st.Dialect()), BaseURL: f.BaseURL, Host: f.Host, Logger: log,
		})
		return p, nil, err
	case "github":
		token, reviewer, err := credentials(f)
		if err != nil {
			return nil, nil, err
		}
		p, err := github.New(github.Options{
			Host: f.Host, APIURL: f.APIURL, Token: token, ReviewerToken: reviewer,
			Timeout: timeout, Logger: log,
		})
		return p, nonEmpty(token, reviewer), err
	case "gitea", "forgejo":
		token, reviewer, err := credentials(f)
		if err != nil {
			return nil, nil, err
		}
		p, err := gitea.New(gitea.Options{
			Flavor: gitea.Flavor(f.Provider), Host: f.Host, APIURL: f.APIURL, Token: token, ReviewerToken: reviewer,
			Timeout: timeout, Logger: log,
		})
		return p, nonEmpty(token, reviewer), err
	case "gitlab":
		token, reviewer, err := credentials(f)
		if err != nil {
			return nil, nil, err
		}
		p, err := gitlab.New(gitlab.Options{
			Host: f.Host, APIURL: f.APIURL, Token: token, ReviewerToken: reviewer, Timeout: timeout, Logger: log,
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

// credentials reads a forge's author and (optional) reviewer credential.
func credentials(f config.Forge) (token, reviewer string, err error) {
	if token, err = config.Secret(f.TokenEnv); err != nil {
		return "", "", err
	}
	if reviewer, err = config.Secret(f.ReviewerTokenEnv); err != nil {
		return "", "", err
	}
	return token, reviewer, nil
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
