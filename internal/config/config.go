// Package config reads the forgetools gateway configuration: which forges it
// serves, which accounts may call it and how, and where its state lives.
//
// Credentials never appear in the file: a forge or account names the
// environment variable that holds each secret, and Resolve reads them. A key
// the file does not know (such as a literal "token:") is an error with its
// line number, so a misspelt or misplaced secret is never silently ignored.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Config is the whole gateway configuration.
type Config struct {
	// Store is a SQLite file path or a PostgreSQL DSN (postgres://...).
	Store string `yaml:"store"`
	// SocketDir holds one Unix socket per configured session.
	SocketDir string `yaml:"socket_dir"`
	// Listen is a TCP address for bearer-token clients; empty = no TCP.
	// Webhooks arrive on it too.
	Listen   string    `yaml:"listen"`
	Forges   []Forge   `yaml:"forges"`
	Accounts []Account `yaml:"accounts"`
	// Events tunes change notifications.
	Events Events `yaml:"events"`
}

// Events tunes change notifications: how long events are kept and how
// often subscribed artifacts are polled on forges without webhooks.
type Events struct {
	// Retention is how long an event is kept; zero = 7 days.
	Retention Duration `yaml:"retention"`
	// PollInterval is how often each subscribed artifact on a polled forge
	// (github) is polled; zero = 60s.
	PollInterval Duration `yaml:"poll_interval"`
}

// Forge is one forge instance the gateway can act on.
type Forge struct {
	// Provider is github, linear or local.
	Provider string `yaml:"provider"`
	// Host distinguishes instances of one provider (a GitHub Enterprise
	// host); empty = the provider's default host.
	Host string `yaml:"host"`
	// Default marks the forge used when a call names none.
	Default bool `yaml:"default"`
	// APIURL overrides the API endpoint derived from the host.
	APIURL string `yaml:"api_url"`
	// TokenEnv names the environment variable holding the API credential.
	TokenEnv string `yaml:"token_env"`
	// ReviewerTokenEnv names the variable holding a second credential used
	// for reviews (GitHub), so PRs the author credential opened can be
	// approved.
	ReviewerTokenEnv string `yaml:"reviewer_token_env"`
	// Auth is how the Linear credential is sent: api_key (default) or
	// oauth (a Bearer access token).
	Auth string `yaml:"auth"`
	// BaseURL is where the local forge's artifact URLs point.
	BaseURL string `yaml:"base_url"`
	// Timeout bounds every API call; zero = the provider's default.
	Timeout Duration `yaml:"timeout"`
	// WebhookSecretEnv names the environment variable holding the secret
	// the forge signs its webhooks with (github). Set, the TCP listener
	// receives them at /webhooks/<provider>/<host>, and the poll driver
	// leaves repositories whose webhooks arrive to them.
	WebhookSecretEnv string `yaml:"webhook_secret_env"`
}

// Account is an agent identity the gateway acts for.
type Account struct {
	Name        string `yaml:"name"`
	AgentHandle string `yaml:"agent_handle"`
	OwnerHandle string `yaml:"owner_handle"`
	// Scope lists the repositories the account may touch: "owner/name",
	// "owner/*", a Linear team key, or "*" for every repository. Empty
	// denies everything.
	Scope []string `yaml:"scope"`
	// Sessions each get a Unix socket <socket_dir>/<session>.sock bound to
	// this account.
	Sessions []string `yaml:"sessions"`
	// TokenEnvs name environment variables holding bearer tokens that
	// authenticate this account over TCP.
	TokenEnvs []string `yaml:"token_envs"`
}

// Duration is a time.Duration written as "30s" in YAML.
type Duration time.Duration

func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	if err != nil {
		return fmt.Errorf("line %d: %q is not a duration like 30s", n.Line, n.Value)
	}
	*d = Duration(v)
	return nil
}

// Load reads and checks a configuration file.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	cfg, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return cfg, nil
}

// Parse decodes YAML strictly (unknown keys are errors) and checks it.
func Parse(data []byte) (*Config, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var cfg Config
	if err := dec.Decode(&cfg); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, errors.New("empty configuration")
		}
		return nil, explainYAML(err)
	}
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	return &cfg, nil
}

// explainYAML adds the hint a user needs when they wrote a secret inline.
func explainYAML(err error) error {
	msg := err.Error()
	if strings.Contains(msg, "field token ") || strings.Contains(msg, "field api_key ") || strings.Contains(msg, "field tokens ") {
		msg += " (credentials are never written in the file: name the environment variable that holds them with token_env, reviewer_token_env or token_envs)"
	}
	return errors.New(msg)
}

// Default is the zero-setup configuration: the local sandbox forge, a SQLite
// store in dataDir, and one demo account whose scope is explicitly every
// repository of that forge.
func Default(dataDir string) *Config {
	return &Config{
		Store:     filepath.Join(dataDir, "forgetools.db"),
		SocketDir: filepath.Join(dataDir, "sockets"),
		Forges:    []Forge{{Provider: "local", Default: true}},
		Accounts: []Account{{
			Name:        "demo",
			AgentHandle: "demo-agent",
			OwnerHandle: "demo-owner",
			Scope:       []string{"*"},
			Sessions:    []string{"demo"},
		}},
	}
}

// DataDir is where the default store lives: $FORGETOOLS_DATA_DIR, else
// $XDG_DATA_HOME/forgetools, else ~/.local/share/forgetools.
func DataDir() (string, error) {
	if d := os.Getenv("FORGETOOLS_DATA_DIR"); d != "" {
		return d, nil
	}
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "forgetools"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no data directory: set FORGETOOLS_DATA_DIR (%w)", err)
	}
	return filepath.Join(home, ".local", "share", "forgetools"), nil
}
