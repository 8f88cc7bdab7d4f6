package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/internal/config"
	"github.com/forgetools/forgetools/providers/github"
	"github.com/forgetools/forgetools/providers/linear"
	"github.com/forgetools/forgetools/providers/local"
	"github.com/forgetools/forgetools/subscriptions"
	"github.com/forgetools/forgetools/subscriptions/feed"
	"github.com/forgetools/forgetools/subscriptions/poll"
	"github.com/forgetools/forgetools/subscriptions/webhook"
)

// system is a running gateway: its service and the state it owns.
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
	log      *slog.Logger
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
func open(ctx context.Context, cfg *config.Config, log *slog.Logger) (*system, error) {
	if err := prepareStore(cfg.Store); err != nil {
		return nil, err
	}
	st, err := store.Open(ctx, cfg.Store, store.Options{Logger: log})
	if err != nil {
		return nil, err
	}
	sys := &system{store: st, webhooks: map[string]http.Handler{}, events: cfg.Events, log: log}
	sys.feed = feed.New(st, feed.Options{Retention: time.Duration(cfg.Events.Retention), Logger: log})
	gcfg := gateway.Config{Store: st, Logger: log, State: subscriptions.State(st)}
	for i, f := range cfg.Forges {
		p, secrets, err := buildForge(ctx, st, sys.feed, f, log)
		if err == nil {
			secrets, err = sys.notify(st, p, f, secrets)
		}
		if err != nil {
			sys.Close()
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
				sys.Close()
				return nil, fmt.Errorf("account %s: %w", a.Name, err)
			}
			acct.Tokens = append(acct.Tokens, gateway.Token{Secret: secret})
		}
		gcfg.Accounts = append(gcfg.Accounts, acct)
	}
	if sys.svc, err = gateway.New(gcfg); err != nil {
		sys.Close()
		return nil, err
	}
	return sys, nil
}

// notify wires a forge into change notifications: a local forge is kept
// for the demo, a pollable one becomes a poll source, and one with a
// webhook secret gets a receiver (whose secret joins the redacted ones).
func (s *system) notify(st *store.Store, p subscriptions.Provider, f config.Forge, secrets []string) ([]string, error) {
	if l, ok := p.(*local.Forge); ok && s.local == nil {
		s.local = l
	}
	if src, ok := p.(poll.Source); ok {
		s.sources = append(s.sources, src)
	}
	if f.WebhookSecretEnv == "" {
		return secrets, nil
	}
	secret, err := config.Secret(f.WebhookSecretEnv)
	if err != nil {
		return nil, err
	}
	src, ok := p.(webhook.Source)
	if !ok {
		return nil, fmt.Errorf("%s sends no webhooks the gateway can verify", f.Provider)
	}
	s.webhooks[webhook.Path(src.Ref())] = webhook.Handler(st, s.feed, src, []byte(secret), s.log)
	return append(secrets, secret), nil
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
	return wg.Wait
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
func buildForge(ctx context.Context, st *store.Store, rec subscriptions.Recorder, f config.Forge, log *slog.Logger) (subscriptions.Provider, []string, error) {
	timeout := time.Duration(f.Timeout)
	switch f.Provider {
	case "local":
		p, err := local.New(ctx, st.DB(), local.Options{
			Dialect: string(st.Dialect()), BaseURL: f.BaseURL, Host: f.Host, Logger: log, Recorder: rec,
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
