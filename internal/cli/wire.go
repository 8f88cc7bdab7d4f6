package cli

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/internal/config"
	"github.com/forgetools/forgetools/internal/redact"
	"github.com/forgetools/forgetools/providers"
	"github.com/forgetools/forgetools/providers/github"
	"github.com/forgetools/forgetools/providers/linear"
	"github.com/forgetools/forgetools/providers/local"
)

// system is a running gateway: its caller, the state it owns and the
// logger everything in it writes to.
type system struct {
	caller *gateway.ForgeCaller
	store  *store.Store
	// log redacts every credential the configuration names, however
	// encoded, from every line (internal/redact).
	log *slog.Logger
}

func (s *system) Close() error { return s.store.Close() }

// open builds the gateway a configuration describes: the store, every forge
// provider (credentials read from the environment variables the config
// names) and the ForgeCaller over them, all logging through a logger that
// redacts those credentials.
func open(ctx context.Context, cfg *config.Config, log *slog.Logger) (*system, error) {
	secrets, err := secretsOf(cfg)
	if err != nil {
		return nil, err
	}
	log = slog.New(redact.NewHandler(log.Handler(), redact.New(secrets...)))
	if err := prepareStore(cfg.Store, log); err != nil {
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
		gcfg.Forges = append(gcfg.Forges, gateway.Forge{Provider: p, Default: f.Default})
		gcfg.Redact = append(gcfg.Redact, secrets...)
	}
	for _, a := range cfg.Accounts {
		acct := gateway.Account{
			Name: a.Name, AgentHandle: a.AgentHandle, OwnerHandle: a.OwnerHandle,
			Scope: a.Scope, Peers: map[string]gateway.Peer{},
		}
		for _, s := range a.Sessions {
			acct.Sessions = append(acct.Sessions, s.Name)
			if s.UID != nil || s.GID != nil {
				acct.Peers[s.Name] = gateway.Peer{UID: s.UID, GID: s.GID}
			}
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
	caller, err := gateway.New(gcfg)
	if err != nil {
		st.Close()
		return nil, err
	}
	return &system{caller: caller, store: st, log: log}, nil
}

// secretsOf reads every credential the configuration names; an unset one
// is an error saying where the configuration names it.
func secretsOf(cfg *config.Config) ([]string, error) {
	var out []string
	read := func(where string, envs ...string) error {
		for _, env := range envs {
			v, err := config.Secret(env)
			if err != nil {
				return fmt.Errorf("%s: %w", where, err)
			}
			out = append(out, v)
		}
		return nil
	}
	for i, f := range cfg.Forges {
		if err := read(fmt.Sprintf("forges[%d] (%s)", i, f.Provider), f.TokenEnv, f.ReviewerTokenEnv); err != nil {
			return nil, err
		}
	}
	for _, a := range cfg.Accounts {
		if err := read("account "+a.Name, a.TokenEnvs...); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func isPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// buildForge constructs one provider and returns the secrets it holds, so
// the gateway can keep them out of every log line and error.
func buildForge(ctx context.Context, st *store.Store, f config.Forge, log *slog.Logger) (providers.Provider, []string, error) {
	timeout := time.Duration(f.Timeout)
	switch f.Provider {
	case "local":
		p, err := local.New(ctx, st.DB(), local.Options{
			Dialect: string(st.Dialect()), BaseURL: f.BaseURL, Host: f.Host, Logger: log,
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

func nonEmpty(vs ...string) []string {
	var out []string
	for _, v := range vs {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}
