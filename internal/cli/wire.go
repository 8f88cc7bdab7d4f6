package cli

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
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
//
// Everything that can be checked without the store is checked first (every
// credential, every account, every remote forge's settings), so a start
// that fails leaves no store file and no migrated schema behind; a SQLite
// file created by a start that fails later is removed again.
func open(ctx context.Context, cfg *config.Config, log *slog.Logger) (_ *system, err error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	creds, err := cfg.Resolve()
	if err != nil {
		return nil, err
	}
	gcfg := gateway.Config{Logger: log, DedupWindow: time.Duration(cfg.DedupWindow)}
	for _, a := range cfg.Accounts {
		acct := gateway.Account{
			Name: a.Name, AgentHandle: a.AgentHandle, OwnerHandle: a.OwnerHandle,
			Scope: a.Scope, Sessions: a.Sessions,
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
		gcfg.Redact = append(gcfg.Redact, secrets...)
	}

	created, err := prepareStore(cfg.Store)
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
	gcfg.Store = st
	for i, f := range cfg.Forges {
		if f.Provider == "local" {
			p, err := local.New(ctx, st.DB(), local.Options{
				Dialect: string(st.Dialect()), BaseURL: f.BaseURL, Host: f.Host, Logger: log,
			})
			if err != nil {
				st.Close()
				return nil, fmt.Errorf("forges[%d] (local): %w", i, err)
			}
			forges[i] = p
		}
		gcfg.Forges = append(gcfg.Forges, gateway.Forge{Provider: subscriptions.Serve(forges[i], st), Default: f.Default})
	}
	svc, err := gateway.New(gcfg)
	if err != nil {
		st.Close()
		return nil, err
	}
	return &system{svc: svc, store: st}, nil
}

// createdStore is what prepareStore made for a SQLite store that did not
// exist yet, so a failed start can take it away again.
type createdStore struct {
	file string // the database file, "" when it existed already
	dir  string // the directory, "" when it existed already
}

func (c createdStore) remove() {
	if c.file != "" {
		for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
			os.Remove(c.file + suffix)
		}
	}
	if c.dir != "" {
		os.Remove(c.dir) // only if empty
	}
}

// prepareStore creates the directory of a SQLite store file, so the
// default store in a fresh data directory just works, and says what it
// (and the first open) will have created.
func prepareStore(dsn string) (createdStore, error) {
	var c createdStore
	if dsn == "" {
		return c, errors.New("no store: set store in the config or pass --store")
	}
	if isPostgres(dsn) || dsn == ":memory:" {
		return c, nil
	}
	file := strings.TrimPrefix(dsn, "sqlite:")
	dir := filepath.Dir(file)
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		c.dir = dir
	}
	if _, err := os.Stat(file); errors.Is(err, fs.ErrNotExist) {
		c.file = file
	}
	return c, os.MkdirAll(dir, 0o700)
}

func isPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// buildRemote constructs a provider that talks to a forge's API and
// returns the secrets it holds, so the gateway can keep them out of every
// log line and error.
func buildRemote(f config.Forge, creds config.Credentials, log *slog.Logger) (subscriptions.Provider, []string, error) {
	timeout := time.Duration(f.Timeout)
	token, reviewer := creds[f.TokenEnv], creds[f.ReviewerTokenEnv]
	switch f.Provider {
	case "github":
		p, err := github.New(github.Options{
			Host: f.Host, APIURL: f.APIURL, Token: token, ReviewerToken: reviewer,
			Timeout: timeout, Logger: log,
		})
		return p, nonEmpty(token, reviewer), err
	case "linear":
		p, err := linear.New(linear.Options{
			Host: f.Host, APIURL: f.APIURL, APIKey: token, Auth: linear.AuthKind(f.Auth),
			Timeout: timeout, Logger: log,
		})
		return p, nonEmpty(token), err
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
