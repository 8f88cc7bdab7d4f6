package config

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"
)

// Providers the gateway can build.
var providers = map[string]bool{"github": true, "linear": true, "local": true}

var (
	sessionName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)
	envName     = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// Check reports every problem in the configuration at once.
func (c *Config) Check() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }

	if len(c.Forges) == 0 {
		bad("forges: at least one forge is required")
	}
	defaults := 0
	coords := map[string]bool{}
	for i, f := range c.Forges {
		where := fmt.Sprintf("forges[%d]", i)
		if !providers[f.Provider] {
			bad("%s.provider: %q is not one of github, linear, local", where, f.Provider)
		}
		key := f.Provider + "@" + strings.ToLower(f.Host)
		if coords[key] {
			bad("%s: a second %s forge with host %q", where, f.Provider, f.Host)
		}
		coords[key] = true
		if f.Default {
			defaults++
		}
		for field, env := range map[string]string{"token_env": f.TokenEnv, "reviewer_token_env": f.ReviewerTokenEnv, "webhook_secret_env": f.WebhookSecretEnv} {
			if env != "" && !envName.MatchString(env) {
				bad("%s.%s: %q is not an environment variable name", where, field, env)
			}
		}
		if f.Auth != "" && (f.Provider != "linear" || (f.Auth != "api_key" && f.Auth != "oauth")) {
			bad("%s.auth: %q: only a linear forge takes auth, and it is api_key or oauth", where, f.Auth)
		}
		if f.WebhookSecretEnv != "" && f.Provider != "github" {
			bad("%s.webhook_secret_env: only a github forge sends webhooks the gateway can verify", where)
		}
		if f.WebhookSecretEnv != "" && c.Listen == "" {
			bad("%s.webhook_secret_env: webhooks arrive on the TCP listener: set listen", where)
		}
		if f.Provider != "local" && f.TokenEnv == "" {
			bad("%s.token_env: %s needs a credential: name the environment variable that holds it", where, f.Provider)
		}
	}
	if len(c.Forges) > 1 && defaults != 1 {
		bad("forges: exactly one forge must be marked default: true (found %d)", defaults)
	}

	sessions := map[string]string{}
	names := map[string]bool{}
	for i, a := range c.Accounts {
		where := fmt.Sprintf("accounts[%d]", i)
		if a.Name == "" {
			bad("%s.name: required", where)
		} else if names[a.Name] {
			bad("%s.name: duplicate account %q", where, a.Name)
		}
		names[a.Name] = true
		if a.AgentHandle == "" || a.OwnerHandle == "" {
			bad("%s: agent_handle and owner_handle are required (they are stamped into every body the agent writes)", where)
		}
		for _, s := range a.Sessions {
			if !sessionName.MatchString(s) {
				bad("%s.sessions: %q must be 1-64 of letters, digits, '_', '.', '-' (it names a socket file)", where, s)
			} else if other, dup := sessions[s]; dup {
				bad("%s.sessions: %q already belongs to account %q", where, s, other)
			}
			sessions[s] = a.Name
		}
		for _, env := range a.TokenEnvs {
			if !envName.MatchString(env) {
				bad("%s.token_envs: %q is not an environment variable name", where, env)
			}
		}
		if len(a.Sessions) == 0 && len(a.TokenEnvs) == 0 {
			bad("%s: no sessions and no token_envs: nothing can connect as this account", where)
		}
	}
	if len(c.Accounts) == 0 {
		bad("accounts: at least one account is required")
	}
	if c.Events.Retention < 0 || c.Events.PollInterval < 0 {
		bad("events: retention and poll_interval must not be negative")
	}
	if d := time.Duration(c.Events.PollInterval); d > 0 && d < 10*time.Second {
		bad("events.poll_interval: %s is below 10s, which would spend a forge's rate limit on polling", d)
	}
	return errors.Join(errs...)
}

// Secret reads the credential an environment variable name points at. An
// unset or empty variable is an error naming the variable, never the value.
func Secret(env string) (string, error) {
	if env == "" {
		return "", nil
	}
	v, ok := os.LookupEnv(env)
	if !ok || v == "" {
		return "", fmt.Errorf("environment variable %s is not set", env)
	}
	return v, nil
}
