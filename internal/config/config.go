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
	"regexp"
	"strconv"
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
	Listen string `yaml:"listen"`
	// TLSCert and TLSKey are PEM files; with them the TCP listener (and
	// an MCP HTTP listener) serve TLS.
	TLSCert string `yaml:"tls_cert"`
	TLSKey  string `yaml:"tls_key"`
	// DedupWindow is how long a create sent without a client_request_id
	// (MCP, call without --id) is replayed to an identical repeat from the
	// same session; empty = 10m, "-1s" (any negative) = off.
	DedupWindow Duration `yaml:"dedup_window"`
	// ApprovalExpiry is how long a call an account's policy parked for an
	// operator waits for a decision (after it, approving is refused and the
	// call parks anew), and how long a decision answers the same call
	// repeated; empty = 24h.
	ApprovalExpiry Duration `yaml:"approval_expiry"`
	// ApprovalWait holds a parked call open this long (a few seconds, say)
	// so a quick decision returns the real result in the same call; empty
	// = answer pending_approval at once.
	ApprovalWait Duration  `yaml:"approval_wait"`
	Forges       []Forge   `yaml:"forges"`
	Accounts     []Account `yaml:"accounts"`
	// Events tunes change notifications.
	Events Events `yaml:"events"`
	// Console is the operator's web console (serve --console).
	Console Console `yaml:"console"`
}

// Console configures the operator's web console: where it listens and the
// operator tokens that sign in to it. Operator tokens are their own
// secrets, never an account's: Resolve refuses one that is also an agent's
// bearer token.
type Console struct {
	// Listen is the console's TCP address; empty = no console unless
	// serve --console names one. A non-loopback address needs tls_cert
	// and tls_key.
	Listen string `yaml:"listen"`
	// OperatorTokenEnvs name environment variables holding the tokens an
	// operator signs in with.
	OperatorTokenEnvs []string `yaml:"operator_token_envs"`
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
	// Provider is github, gitlab, gitea, forgejo, linear or local.
	Provider string `yaml:"provider"`
	// Host distinguishes instances of one provider (a GitHub Enterprise
	// host, a self-managed GitLab, a Gitea or Forgejo instance); empty =
	// the provider's default host (github.com, gitlab.com, gitea.com,
	// codeberg.org, linear.app).
	Host string `yaml:"host"`
	// Default marks the forge used when a call names none.
	Default bool `yaml:"default"`
	// APIURL overrides the API endpoint derived from the host
	// (https://HOST/api/v3/ on GitHub Enterprise, /api/v4/ on GitLab,
	// /api/v1/ on Gitea and Forgejo).
	APIURL string `yaml:"api_url"`
	// TokenEnv names the environment variable holding the API credential.
	TokenEnv string `yaml:"token_env"`
	// ReviewerTokenEnv names the variable holding a second credential used
	// for reviews (GitHub, GitLab, Gitea, Forgejo), so pull requests the
	// author credential opened can be approved.
	ReviewerTokenEnv string `yaml:"reviewer_token_env"`
	// Auth is how the Linear credential is sent: api_key (default) or
	// oauth (a Bearer access token).
	Auth string `yaml:"auth"`
	// BaseURL is where the local forge's artifact URLs point.
	BaseURL string `yaml:"base_url"`
	// GitDir is where the local forge keeps each repository as a bare git
	// repository (<git_dir>/<owner>/<name>.git). Empty: "repos" beside a
	// SQLite store file, or <data directory>/repos with a PostgreSQL store.
	GitDir string `yaml:"git_dir"`
	// CICommand is the local forge's CI: a shell command (sh -c) that
	// forge_trigger_ci runs in a fresh checkout of the ref. Empty: the CI
	// tools answer unimplemented.
	CICommand string `yaml:"ci_command"`
	// CITimeout bounds one CI run; zero = the local forge's default (10m).
	CITimeout Duration `yaml:"ci_timeout"`
	// CIEnv names further environment variables the CI command may see;
	// it sees only PATH, HOME and a few locale variables otherwise, never
	// the gateway's credentials.
	CIEnv []string `yaml:"ci_env"`
	// CISandbox is how a CI run is confined: bubblewrap (the default:
	// its own uid, namespaces and limits; CI refuses to run where that
	// cannot be made) or none (the gateway's own user, warned at every
	// run). SECURITY.md describes the sandbox.
	CISandbox string `yaml:"ci_sandbox"`
	// CINetwork lets a sandboxed CI run reach the network.
	CINetwork bool `yaml:"ci_network"`
	// CIUID and CIGID are who a sandboxed run is when the gateway runs
	// as root; zero = 65534 (nobody).
	CIUID int `yaml:"ci_uid"`
	CIGID int `yaml:"ci_gid"`
	// CIMemoryMB bounds the address space of each process of a
	// sandboxed CI run; zero = 4096 (raise it for go test -race).
	CIMemoryMB int64 `yaml:"ci_memory_mb"`
	// PublicRepos are the local forge's repositories it reports public
	// (forge_get_repo, and so the gateway's private-to-public rule); every
	// other one is private.
	PublicRepos []string `yaml:"public_repos"`
	// Orgs are the local forge's organisations and their member accounts,
	// and Writers its repositories' writers: what the flow rules'
	// "org:NAME" and "collaborators:write" trusted authors read there
	// (the local forge lets every account write, so only this says whom
	// to trust).
	Orgs    map[string][]string `yaml:"orgs"`
	Writers map[string][]string `yaml:"writers"`
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
	// Scope lists the repositories the account may touch: "owner/name"
	// (GitLab: "group/sub/project"), "owner/*" (one level below),
	// "group/**" (every depth below, for GitLab's nested groups), a Linear
	// team key, or "*" for every repository. Empty denies everything.
	// `forgetools repos --scope-yaml` prints one from what the credential
	// reaches.
	Scope []string `yaml:"scope"`
	// Sessions each get a Unix socket <socket_dir>/<session>.sock bound to
	// this account.
	Sessions []Session `yaml:"sessions"`
	// TokenEnvs name environment variables holding bearer tokens that
	// authenticate this account over TCP.
	TokenEnvs []string `yaml:"token_envs"`
	// PushToDefaultBranch lets the account commit straight to a
	// repository's default branch (forge_write_file); off, the agent must
	// work on a branch and open a pull request.
	PushToDefaultBranch bool `yaml:"push_to_default_branch"`
	// Approvers name where, besides the console and forgetools approvals
	// (which always work), a person may decide this account's parked
	// calls: "mcp_client" lets the person at the MCP client decide through
	// MCP elicitation. Off by default, because a client may answer an
	// elicitation on its own.
	Approvers []string `yaml:"approvers"`
	// Policy decides, in the gateway, which of the account's calls run,
	// wait for an operator (`forgetools approvals`) or are refused. Empty
	// is the default: read allow, write allow, push operator, risk high
	// operator, unreviewed_merge operator.
	Policy Policy `yaml:"policy"`
	// Limits bounds what the account's calls may make the gateway hold
	// and write; omitted fields take the gateway's defaults
	// (docs/limits.md).
	Limits Limits `yaml:"limits"`
	// Flow configures the information-flow rules; both are on unless
	// turned off here.
	Flow Flow `yaml:"flow"`
}

// Limits is gateway.Limits in YAML: calls in flight, a read result's
// bytes, and the write and push arms' calls and request bytes a minute.
// Kept per gateway process, in memory.
type Limits struct {
	InFlight            int `yaml:"in_flight"`
	ResultBytes         int `yaml:"result_bytes"`
	WriteCallsPerMinute int `yaml:"write_calls_per_minute"`
	WriteBytesPerMinute int `yaml:"write_bytes_per_minute"`
	PushCallsPerMinute  int `yaml:"push_calls_per_minute"`
	PushBytesPerMinute  int `yaml:"push_bytes_per_minute"`
	PendingApprovals    int `yaml:"pending_approvals"`
}

// Flow is an account's information-flow rules.
type Flow struct {
	// PrivateToPublic: after a session read a private or internal
	// repository, its writes to a public one need an operator. Default on.
	PrivateToPublic *bool `yaml:"private_to_public"`
	// UntrustedContent: after a session read text by an author outside
	// TrustedAuthors, its pushes and merges need an operator. Default on.
	UntrustedContent *bool `yaml:"untrusted_content"`
	// TrustedAuthors are forge logins whose text does not taint a
	// session, "org:NAME" (the organisation's members) and
	// "collaborators:write" (the repository's writers), as the forge
	// says. Unset: the account's name, agent handle and owner handle.
	TrustedAuthors []string `yaml:"trusted_authors"`
}

// ApproverMCPClient is the approver that asks the person at the MCP client.
const ApproverMCPClient = "mcp_client"

// Approves reports whether the account lets approver decide its parked
// calls.
func (a Account) Approves(approver string) bool {
	for _, x := range a.Approvers {
		if x == approver {
			return true
		}
	}
	return false
}

// Policy is an account's approval policy. Each rule is allow (run),
// operator (park the call until a person approves or denies it with
// `forgetools approvals`) or deny (refuse it, naming the rule). Every rule
// that matches a call applies and the strictest decides, so no rule
// loosens another: pushes run unattended only with push: allow and
// risk: {high: allow} (every push tool's risk is high). Scope is checked
// first: an out-of-scope call is refused, never parked.
type Policy struct {
	// Read, Write and Push decide by the tool's approval level: read
	// (default allow), write (comments, issues, reviews, CI; default
	// allow), push (branches, commits, merges; default operator).
	Read  string `yaml:"read"`
	Write string `yaml:"write"`
	Push  string `yaml:"push"`
	// ActionClasses decide by the tool's action class ("vcs:push",
	// "comms:external", "ci:trigger", "repo:read"); none by default.
	ActionClasses map[string]string `yaml:"action_classes"`
	// Risk decides by the call's risk (low, medium, high), which the
	// call's own text raises to high when it names a force push or a
	// history rewrite. Absent = {high: operator}; {} = no risk rule.
	Risk map[string]string `yaml:"risk"`
	// UnreviewedMerge decides a merge into the repository's default branch
	// whose pull request has no approving review by anyone but this
	// account (asked of the forge: local and github say; other forges are
	// held by the push rule alone); default operator.
	UnreviewedMerge string `yaml:"unreviewed_merge"`
}

// Session is one agent session: its name, and optionally the peer
// credentials a process must have to connect to its socket. In YAML it is
// the name alone, or {name, uid, gid}.
type Session struct {
	Name string
	// UID and GID, when set, are the user and group ids a connecting
	// process must run as (both, when both are set), checked with
	// SO_PEERCRED on every connection. Unset: any process that can open
	// the socket file, which is 0600 in a 0700 directory, so processes of
	// the gateway's own user.
	UID, GID *uint32
}

func (s *Session) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		s.Name = n.Value
		return nil
	case yaml.MappingNode:
	default:
		return fmt.Errorf("line %d: a session is a name or {name, uid, gid}", n.Line)
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "name":
			s.Name = v.Value
		case "uid", "gid":
			id, err := strconv.ParseUint(v.Value, 10, 32)
			if err != nil || v.Kind != yaml.ScalarNode {
				what := map[string]string{"uid": "user", "gid": "group"}[k.Value]
				return fmt.Errorf("line %d: %s %s is not a %s id", v.Line, k.Value, quoteIfText(v.Value), what)
			}
			u := uint32(id)
			if k.Value == "uid" {
				s.UID = &u
			} else {
				s.GID = &u
			}
		default:
			return fmt.Errorf("line %d: session key %q is not one of name, uid, gid", k.Line, k.Value)
		}
	}
	if s.Name == "" {
		return fmt.Errorf("line %d: a session needs a name", n.Line)
	}
	return nil
}

// quoteIfText shows a number as it is and anything else quoted.
func quoteIfText(v string) string {
	if _, err := strconv.ParseInt(v, 10, 64); err == nil {
		return v
	}
	return strconv.Quote(v)
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

// secretKeys are keys people write a credential under; the file takes
// none of them, and the error says what to write instead.
var secretKeys = regexp.MustCompile(`field (token|tokens|api_key|apikey|key|password|secret|client_secret|reviewer_token) not found`)

// yamlValue is a value the YAML decoder quotes in a type error.
var yamlValue = regexp.MustCompile("`[^`]*`")

// explainYAML adds the hint a user needs when they wrote a secret inline,
// and drops the values the YAML decoder quotes in type errors: a value in
// the wrong place may be a credential.
func explainYAML(err error) error {
	msg := yamlValue.ReplaceAllString(err.Error(), "a value")
	if secretKeys.MatchString(msg) {
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
			Sessions:    []Session{{Name: "demo"}},
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
