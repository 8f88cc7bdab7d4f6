package gateway

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/forgetools/forgetools/gateway/attribution"
	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/internal/redact"
	"github.com/forgetools/forgetools/toolserver"
)

// Config is everything a Service needs. Secrets arrive already resolved
// (the CLI reads them from the environment); nothing here logs them.
type Config struct {
	// Accounts are the agents allowed to call, each with its scope and the
	// sessions and tokens that identify it.
	Accounts []Account
	// Forges are the configured forge instances, in priority order: the
	// first of each provider is that provider's default instance (what a
	// selector naming the provider but no host resolves to).
	Forges []Forge
	// Store keeps the dedup memo, ownership records and subscriptions.
	Store *store.Store
	// State serves the arms scoped by the caller's own state (their
	// (tool).scope is SCOPE_OWN_STATE), such as reading the events of every
	// subscription; nil answers them unimplemented. It is a provider that
	// reaches no forge: its Ref is not a configured forge.
	State Provider
	// Logger receives one line per call; nil means slog.Default().
	Logger *slog.Logger
	// DedupWindow is how long the gateway replays a create that came
	// without a client_request_id (MCP clients, `forgetools call` without
	// --id): it derives the key from the session, the tool and the
	// arguments, so the same create repeated within the window is answered
	// from the first. Zero means DefaultDedupWindow; negative turns the
	// derived key off. A create with a client_request_id replays for good.
	DedupWindow time.Duration
	// Tables are the tables the gateway serves, each on its own Connect
	// procedure; empty means the forge table (gatewayv1handler.ForgeTable).
	Tables []*toolserver.Table
	// ScopeRefresh is how long the gateway keeps an account's scope read
	// from the store before reading it again: how soon `forgetools scope`
	// changes reach it. Zero means DefaultScopeRefresh; negative reads the
	// store on every call.
	ScopeRefresh time.Duration
	// ApprovalExpiry is how long a parked call waits for a decision, and
	// how long a decision answers the same call repeated; zero means
	// DefaultApprovalExpiry.
	ApprovalExpiry time.Duration
	// ApprovalWait holds a parked call open this long for a decision, so
	// an operator who decides quickly gets the model the real result in
	// the same call; zero answers pending_approval at once.
	ApprovalWait time.Duration
	// Redact lists further secret values (forge credentials, say) that
	// must never reach a log line, an error message or a result, in any
	// encoding or in pieces (see internal/redact). Account tokens are
	// redacted without being listed.
	Redact []string
	// Wake, when set, wakes this process's event waiters (the feed's
	// WaitEvents and MCP resources) after the gateway records an event of
	// its own (an operator's decision on a parked call); without it they
	// see the event at their next periodic look at the store.
	Wake func()
}

// Account is one agent identity.
type Account struct {
	// Name identifies the account in the store and the logs.
	Name string
	// AgentHandle and OwnerHandle go into the attribution header: who
	// wrote a body, and on whose behalf.
	AgentHandle string
	OwnerHandle string
	// Scope lists the repositories the account may touch: "owner/name",
	// "owner/*" (every repository of one owner), a bare Linear team key
	// ("ENG"), or "*" (everything). Matching ignores case. Empty denies
	// every repository.
	Scope []string
	// Sessions are the agent sessions of this account; each gets its own
	// Unix socket, <socket dir>/<session>.sock.
	Sessions []string
	// Tokens authenticate TCP callers as this account.
	Tokens []Token
	// Peers optionally restrict who may connect to a session's socket, by
	// session name (each must be one of Sessions); see Peer.
	Peers map[string]Peer
	// PushToDefaultBranch lets the account's pushes write to a repository's
	// default branch; providers receive it in toolserver.Call. It governs
	// direct writes (a commit or branch on the default branch); merging a
	// pull request into it is the policy's unreviewed-merge rule.
	PushToDefaultBranch bool
	// Limits bounds the account's calls in flight, read results and write
	// quotas (limits.go); zero fields take the defaults.
	Limits Limits
	// Flow configures the account's information-flow rules (see
	// FlowRules); the zero value turns them all on.
	Flow FlowRules
	// Policy decides which calls run, wait for an operator or are refused
	// (policy.go); the zero value is the default: reads and writes run,
	// pushes and high-risk calls wait for an operator.
	Policy Policy
}

// Token is a bearer token for the TCP listener.
type Token struct {
	// Session is the session id written into the attribution of calls
	// made with this token; empty means the account name.
	Session string
	// Secret is the token value itself (at least 16 bytes).
	Secret string
}

// Forge is one configured forge instance.
type Forge struct {
	// Provider serves the arms whose generated handler interfaces it
	// implements.
	Provider Provider
	// Default makes this the forge a call without a selector goes to; with
	// none marked, the first forge is the default.
	Default bool
}

// DefaultDedupWindow is Config.DedupWindow's default.
const DefaultDedupWindow = 10 * time.Minute

// minTokenLen keeps guessable tokens out of the configuration.
const minTokenLen = 16

// validName reports whether s can be an account name or session id, which
// land in socket file names, log lines and the attribution header: 1-64
// letters, digits, '.', '_' or '-', starting with a letter or digit. A loop,
// not a regular expression: every call checks its session.
func validName(s string) bool {
	if s == "" || len(s) > 64 || !isAlnum(s[0]) {
		return false
	}
	return allIn(s, "._-")
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// allIn reports whether every byte of s is a letter, a digit or in extra.
func allIn(s, extra string) bool {
	for i := range len(s) {
		if !isAlnum(s[i]) && strings.IndexByte(extra, s[i]) < 0 {
			return false
		}
	}
	return true
}

// account is a validated Account.
type account struct {
	Account
	scope   scope
	policy  policy
	meter   *meter   // the account's limits and what it has spent of them
	trusted trustSet // the flow rules' trusted authors
}

// tokenEntry is a token as the gateway keeps it: a digest, so comparing a
// presented token takes the same time whichever entry it matches.
type tokenEntry struct {
	digest [sha256.Size]byte
	id     Identity
}

// checked is a validated Config, indexed for the lookups calls make.
type checked struct {
	accounts map[string]*account
	sessions []Identity // socket sessions, in configuration order
	peers    map[string]Peer
	tokens   []tokenEntry
	secrets  []string         // forge credentials and account tokens,
	redactor *redact.Redactor // redacted by this
	registry *registry
	// dedupWindow is the replay window of derived keys; <= 0 means none.
	dedupWindow time.Duration
	state       Provider
	// def is the default forge, which a scope entry naming none covers.
	def          coordinate
	scopeRefresh time.Duration
	// approvalExpiry is how long an approval waits and a decision holds;
	// approvalWait how long a parked call is held open for one.
	approvalExpiry, approvalWait time.Duration
	wake                         func()
}

func checkConfig(cfg Config) (*checked, error) {
	if cfg.Store == nil {
		return nil, errors.New("the gateway configuration has no store")
	}
	reg, err := newRegistry(cfg.Forges)
	if err != nil {
		return nil, err
	}
	c := &checked{accounts: map[string]*account{}, registry: reg, state: cfg.State, peers: map[string]Peer{},
		secrets: append([]string(nil), cfg.Redact...), dedupWindow: cfg.DedupWindow, scopeRefresh: cfg.ScopeRefresh}
	if c.scopeRefresh == 0 {
		c.scopeRefresh = DefaultScopeRefresh
	}
	c.def = coordinate{reg.def.Ref().GetProvider(), strings.ToLower(reg.def.Ref().GetHost())}
	if c.dedupWindow == 0 {
		c.dedupWindow = DefaultDedupWindow
	}
	c.approvalWait, c.wake = cfg.ApprovalWait, cfg.Wake
	if c.approvalExpiry = cfg.ApprovalExpiry; c.approvalExpiry <= 0 {
		c.approvalExpiry = DefaultApprovalExpiry
	}
	if err := c.addAccounts(cfg.Accounts); err != nil {
		return nil, err
	}
	c.redactor = redact.New(c.secrets...)
	return c, nil
}

// CheckAccounts reports the first problem New would find in accounts, with
// no store or forge needed, so a command can refuse a bad configuration
// before it creates anything.
func CheckAccounts(accounts []Account) error {
	return (&checked{accounts: map[string]*account{}, peers: map[string]Peer{}}).addAccounts(accounts)
}

// addAccounts validates and indexes accounts: names, handles, scopes,
// sessions and token digests.
func (c *checked) addAccounts(accounts []Account) error {
	sessionOwner := map[string]string{}
	claimSession := func(acct, session string) error {
		if !validName(session) {
			return fmt.Errorf("account %q: session %q must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit", acct, session)
		}
		if other, ok := sessionOwner[session]; ok && other != acct {
			return fmt.Errorf("session %q belongs to both account %q and account %q", session, other, acct)
		}
		sessionOwner[session] = acct
		return nil
	}
	for i, a := range accounts {
		if !validName(a.Name) {
			return fmt.Errorf("account %d: name %q must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit", i, a.Name)
		}
		if _, dup := c.accounts[a.Name]; dup {
			return fmt.Errorf("account %q is configured twice", a.Name)
		}
		for _, h := range []struct{ what, v string }{{"agent handle", a.AgentHandle}, {"owner handle", a.OwnerHandle}} {
			if !attribution.ValidValue(h.v) {
				return fmt.Errorf("account %q: %s %q must be 1-100 letters, digits, '.', '_', ':' or '-', starting with a letter or digit", a.Name, h.what, h.v)
			}
		}
		sc, err := parseScope(a.Scope, c.def)
		if err != nil {
			return fmt.Errorf("account %q: %w", a.Name, err)
		}
		trusted, err := parseTrusted(a)
		if err != nil {
			return fmt.Errorf("account %q: %w", a.Name, err)
		}
		pol, err := parsePolicy(a.Policy)
		if err != nil {
			return fmt.Errorf("account %q: %w", a.Name, err)
		}
		acct := &account{Account: a, scope: sc, policy: pol, meter: newMeter(a.Limits), trusted: trusted}
		c.accounts[a.Name] = acct
		seen := map[string]bool{}
		for _, s := range a.Sessions {
			if err := claimSession(a.Name, s); err != nil {
				return err
			}
			if seen[s] {
				return fmt.Errorf("account %q lists session %q twice", a.Name, s)
			}
			seen[s] = true
			c.sessions = append(c.sessions, acct.identity(s))
		}
		for s, p := range a.Peers {
			if !seen[s] {
				return fmt.Errorf("account %q: peer rule for session %q, which is not one of its sessions", a.Name, s)
			}
			if p.UID == nil && p.GID == nil {
				return fmt.Errorf("account %q: the peer rule for session %q names neither a uid nor a gid", a.Name, s)
			}
			c.peers[s] = p
		}
		for j, t := range a.Tokens {
			session := t.Session
			if session == "" {
				session = a.Name
			}
			if err := claimSession(a.Name, session); err != nil {
				return err
			}
			// Never quote a token in an error: say which one by position.
			if len(t.Secret) < minTokenLen {
				return fmt.Errorf("account %q: token %d is shorter than %d bytes", a.Name, j+1, minTokenLen)
			}
			d := sha256.Sum256([]byte(t.Secret))
			for _, e := range c.tokens {
				if e.digest == d {
					return fmt.Errorf("account %q: token %d is also configured for account %q", a.Name, j+1, e.id.Account)
				}
			}
			c.tokens = append(c.tokens, tokenEntry{digest: d, id: acct.identity(session)})
			c.secrets = append(c.secrets, t.Secret)
		}
	}
	return nil
}

func (a *account) identity(session string) Identity {
	return Identity{Account: a.Name, Session: session, AgentHandle: a.AgentHandle, OwnerHandle: a.OwnerHandle}
}
