package config

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
)

// Providers the gateway can build.
var providers = map[string]bool{"github": true, "gitlab": true, "gitea": true, "forgejo": true, "linear": true, "local": true}

// providerList names them for messages.
const providerList = "github, gitlab, gitea, forgejo, linear, local"

var (
	sessionName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)
	envName     = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// Check reports every problem in the configuration at once.
func (c *Config) Check() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }

	if (c.TLSCert == "") != (c.TLSKey == "") {
		bad("tls_cert and tls_key: give both, or neither")
	}
	if len(c.Forges) == 0 {
		bad("forges: at least one forge is required")
	}
	defaults := 0
	coords := map[string]bool{}
	for i, f := range c.Forges {
		where := fmt.Sprintf("forges[%d]", i)
		if !providers[f.Provider] {
			bad("%s.provider: %q is not one of %s", where, f.Provider, providerList)
		}
		key := f.Provider + "@" + strings.ToLower(f.Host)
		if coords[key] {
			bad("%s: a second %s forge with host %q", where, f.Provider, f.Host)
		}
		coords[key] = true
		if f.Default {
			defaults++
		}
		for _, e := range []struct{ field, env string }{{"token_env", f.TokenEnv}, {"reviewer_token_env", f.ReviewerTokenEnv}, {"webhook_secret_env", f.WebhookSecretEnv}} {
			if problem := checkEnvName(e.env); e.env != "" && problem != "" {
				bad("%s.%s %s", where, e.field, problem)
			}
		}
		if f.Auth != "" && (f.Provider != "linear" || (f.Auth != "api_key" && f.Auth != "oauth")) {
			bad("%s.auth: %q: only a linear forge takes auth, and it is api_key or oauth", where, f.Auth)
		}
		if f.Provider != "local" && (f.GitDir != "" || f.CICommand != "" || f.CITimeout != 0 || len(f.CIEnv) > 0 ||
			f.CISandbox != "" || f.CINetwork || f.CIUID != 0 || f.CIGID != 0 || f.CIMemoryMB != 0 || len(f.Orgs) > 0 || len(f.Writers) > 0) {
			bad("%s: git_dir, orgs, writers and the ci_ settings (ci_command, ci_timeout, ci_env, ci_sandbox, ci_network, ci_uid, ci_gid, ci_memory_mb) are settings of the local forge, not of %s", where, f.Provider)
		}
		if f.CISandbox != "" && f.CISandbox != "bubblewrap" && f.CISandbox != "none" {
			bad("%s.ci_sandbox: %q is neither bubblewrap nor none", where, f.CISandbox)
		}
		if f.CIUID < 0 || f.CIGID < 0 || f.CIMemoryMB < 0 {
			bad("%s: ci_uid, ci_gid and ci_memory_mb are not negative", where)
		}
		if f.CITimeout < 0 {
			bad("%s.ci_timeout: %s is negative", where, time.Duration(f.CITimeout))
		}
		for _, env := range f.CIEnv {
			if !envName.MatchString(env) {
				bad("%s.ci_env: %q is not an environment variable name", where, env)
			}
		}
		if f.ReviewerTokenEnv != "" && (f.Provider == "linear" || f.Provider == "local") {
			bad("%s.reviewer_token_env: %s has no reviews; only github, gitlab, gitea and forgejo forges take a reviewer credential", where, f.Provider)
		}
		if f.BaseURL != "" && f.Provider != "local" {
			bad("%s.base_url: only the local forge takes base_url (the others' URLs come from the forge; api_url points at an API)", where)
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
			if !sessionName.MatchString(s.Name) {
				bad("%s.sessions: %q must be 1-64 of letters, digits, '_', '.', '-' (it names a socket file)", where, s.Name)
			} else if other, dup := sessions[s.Name]; dup {
				bad("%s.sessions: %q already belongs to account %q", where, s.Name, other)
			}
			sessions[s.Name] = a.Name
		}
		for j, env := range a.TokenEnvs {
			if problem := checkEnvName(env); problem != "" {
				bad("%s.token_envs[%d] %s", where, j, problem)
			}
		}
		for name, v := range map[string]int{"in_flight": a.Limits.InFlight, "result_bytes": a.Limits.ResultBytes,
			"write_calls_per_minute": a.Limits.WriteCallsPerMinute, "write_bytes_per_minute": a.Limits.WriteBytesPerMinute,
			"push_calls_per_minute": a.Limits.PushCallsPerMinute, "push_bytes_per_minute": a.Limits.PushBytesPerMinute,
			"pending_approvals": a.Limits.PendingApprovals} {
			if v < 0 {
				bad("%s.limits.%s: %d is negative (omit it for the default)", where, name, v)
			}
		}
		for j, ap := range a.Approvers {
			if ap != ApproverMCPClient {
				bad("%s.approvers[%d]: %q is not an approver; the only approver is %s (the console and forgetools approvals always work)", where, j, ap, ApproverMCPClient)
			}
		}
		if len(a.Sessions) == 0 && len(a.TokenEnvs) == 0 {
			bad("%s: no sessions and no token_envs: nothing can connect as this account", where)
		}
	}
	if len(c.Accounts) == 0 {
		bad("accounts: at least one account is required")
	}
	for j, env := range c.Console.OperatorTokenEnvs {
		if problem := checkEnvName(env); problem != "" {
			bad("console.operator_token_envs[%d] %s", j, problem)
		}
	}
	if c.Console.Listen != "" && len(c.Console.OperatorTokenEnvs) == 0 {
		bad("console.listen: no operator can sign in: name the variables of the operator tokens in console.operator_token_envs")
	}
	if c.Events.Retention < 0 || c.Events.PollInterval < 0 {
		bad("events: retention and poll_interval must not be negative")
	}
	if d := time.Duration(c.Events.PollInterval); d > 0 && d < 10*time.Second {
		bad("events.poll_interval: %s is below 10s, which would spend a forge's rate limit on polling", d)
	}
	return errors.Join(errs...)
}
