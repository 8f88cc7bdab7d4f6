package gateway

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/forgetools/forgetools/gateway/store"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/internal/testforge"
)

const secret = "tok_0123456789abcdef_secret"

func validConfig(t *testing.T) Config {
	t.Helper()
	st, err := store.Open(context.Background(), ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return Config{
		Accounts: []Account{{
			Name: "alice", AgentHandle: "claude", OwnerHandle: "alice",
			Scope: []string{"acme/*"}, Sessions: []string{"s1"}, Tokens: []Token{{Secret: secret}},
		}},
		Forges: []Forge{{Provider: testforge.New(forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, "github.com")}},
		Store:  st,
	}
}

func TestConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(*Config)
		want   string
	}{
		{"no store", func(c *Config) { c.Store = nil }, "no store"},
		{"no forges", func(c *Config) { c.Forges = nil }, "no forges"},
		{"nil provider", func(c *Config) { c.Forges = []Forge{{}} }, "forge 0 has no provider"},
		{"unspecified provider", func(c *Config) { c.Forges[0].Provider = testforge.New(0, "x") }, "no known provider"},
		{"duplicate forge", func(c *Config) {
			c.Forges = append(c.Forges, Forge{Provider: testforge.New(forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, "GitHub.com")})
		}, "github/GitHub.com is configured twice"},
		{"two defaults", func(c *Config) {
			c.Forges[0].Default = true
			c.Forges = append(c.Forges, Forge{Provider: testforge.New(forgev1.ForgeProvider_FORGE_PROVIDER_LINEAR, "linear.app"), Default: true})
		}, "both"},
		{"bad account name", func(c *Config) { c.Accounts[0].Name = "a b" }, `name "a b"`},
		{"duplicate account", func(c *Config) { c.Accounts = append(c.Accounts, c.Accounts[0]) }, "configured twice"},
		{"bad agent handle", func(c *Config) { c.Accounts[0].AgentHandle = "@claude" }, "agent handle"},
		{"empty owner handle", func(c *Config) { c.Accounts[0].OwnerHandle = "" }, "owner handle"},
		{"bad scope", func(c *Config) { c.Accounts[0].Scope = []string{"acme/*/web"} }, `scope entry "acme/*/web"`},
		{"wildcard owner", func(c *Config) { c.Accounts[0].Scope = []string{"*/web"} }, "scope entry"},
		{"scope on an unknown provider", func(c *Config) { c.Accounts[0].Scope = []string{"nosuch/x.com:a/b"} }, `names provider "nosuch"`},
		{"bad trusted author", func(c *Config) { c.Accounts[0].Flow.TrustedAuthors = []string{"a b"} }, `trusted author "a b"`},
		{"empty trusted org", func(c *Config) { c.Accounts[0].Flow.TrustedAuthors = []string{"org:"} }, `trusted author "org:": the organisation`},
		{"bad trusted org", func(c *Config) { c.Accounts[0].Flow.TrustedAuthors = []string{"org:../x"} }, `trusted author "org:../x": the organisation`},
		{"collaborators read", func(c *Config) { c.Accounts[0].Flow.TrustedAuthors = []string{"collaborators:read"} }, `the only collaborators entry is "collaborators:write"`},
		{"unknown trusted kind", func(c *Config) { c.Accounts[0].Flow.TrustedAuthors = []string{"team:core"} }, `an entry is a forge login, "org:NAME" or "collaborators:write"`},
		{"bad session", func(c *Config) { c.Accounts[0].Sessions = []string{"../s"} }, `session "../s"`},
		{"session twice", func(c *Config) { c.Accounts[0].Sessions = []string{"s1", "s1"} }, "twice"},
		{"session in two accounts", func(c *Config) {
			c.Accounts = append(c.Accounts, Account{Name: "bob", AgentHandle: "b", OwnerHandle: "b", Sessions: []string{"s1"}})
		}, "belongs to both"},
		{"short token", func(c *Config) { c.Accounts[0].Tokens = []Token{{Secret: "short-secret"}} }, "token 1 is shorter"},
		{"shared token", func(c *Config) {
			c.Accounts = append(c.Accounts, Account{Name: "bob", AgentHandle: "b", OwnerHandle: "b", Tokens: []Token{{Secret: secret}}})
		}, `also configured for account "alice"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := validConfig(t)
			tc.change(&cfg)
			_, err := New(cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("New error = %v, want it to mention %q", err, tc.want)
			}
			if strings.Contains(err.Error(), secret) || strings.Contains(err.Error(), "short-secret") {
				t.Fatalf("config error quotes a token: %v", err)
			}
		})
	}
}

func TestIdentities(t *testing.T) {
	cfg := validConfig(t)
	cfg.Accounts[0].Tokens = append(cfg.Accounts[0].Tokens, Token{Session: "ci", Secret: secret + "-2"})
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := Identity{Account: "alice", Session: "s1", AgentHandle: "claude", OwnerHandle: "alice"}
	if got := c.Sessions(); len(got) != 1 || got[0] != want {
		t.Fatalf("Sessions = %v", got)
	}
	if id, ok := c.Authenticate(secret); !ok || id.Session != "alice" || id.Account != "alice" {
		t.Fatalf("Authenticate(token 1) = %v, %v; want alice with the account name as session", id, ok)
	}
	if id, ok := c.Authenticate(secret + "-2"); !ok || id.Session != "ci" {
		t.Fatalf("Authenticate(token 2) = %v, %v", id, ok)
	}
	for _, bad := range []string{"", secret[:10], secret + "-3", strings.ToUpper(secret)} {
		if id, ok := c.Authenticate(bad); ok {
			t.Fatalf("Authenticate(%q) = %v", bad, id)
		}
	}
	ctx := WithIdentity(context.Background(), want)
	if got, ok := IdentityFrom(ctx); !ok || got != want {
		t.Fatalf("IdentityFrom = %v, %v", got, ok)
	}
	if _, ok := IdentityFrom(WithIdentity(context.Background(), Identity{})); ok {
		t.Fatal("an empty identity counts as bound")
	}
}

// The default forge of the scope tests, and the forges beside it.
var (
	testDef    = coordinate{forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, "github.com"}
	githubRef  = &forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, Host: "github.com"}
	gheRef     = &forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, Host: "ghe.example.com"}
	linearRef  = &forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_LINEAR, Host: "linear.app"}
	gitlabPort = &forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_GITLAB, Host: "git.corp:8443"}
)

func TestScope(t *testing.T) {
	s, err := parseScope([]string{"acme/web", "Tools/*", "ENG"}, testDef)
	if err != nil {
		t.Fatal(err)
	}
	for repo, want := range map[string]bool{
		"acme/web": true, "ACME/Web": true, "tools/cli": true, "TOOLS/x": true, "ENG": true, "eng": true,
		"acme/api": false, "tools": false, "tools/a/b": false, "toolsx/a": false, "ENG/x": false, "web": false,
	} {
		if got := s.allows(githubRef, repo); got != want {
			t.Errorf("allows(%q) = %v, want %v", repo, got, want)
		}
	}
	// GitLab's nested groups: an exact nested path, one level below a
	// subgroup, every depth below a group.
	nested, err := parseScope([]string{"platform/infra/deploy", "platform/tools/*", "corp/**", "platform/web/app-?"}, testDef)
	if err != nil {
		t.Fatal(err)
	}
	for repo, want := range map[string]bool{
		"platform/infra/deploy": true, "Platform/Infra/Deploy": true, "platform/tools/cli": true,
		"corp/app": true, "corp/a/b/c/d": true, "CORP/X/y": true,
		"platform/infra/other": false, "platform/infra": false, "platform/tools/cli/sub": false, "platform/tools": false,
		"platform/app": false, "corp": false, "corpx/app": false, "platform/infra/deploy/x": false,
		"platform/web/app-1": true, "platform/web/app-12": false, "platform/web/app-1/x": false,
	} {
		if got := nested.allows(githubRef, repo); got != want {
			t.Errorf("nested allows(%q) = %v, want %v", repo, got, want)
		}
	}
	for _, bad := range []string{"a/**/b", "**", "a/../b", "a//b", "/*", "a/b c", "a/*/b", "*/b", "a/b**", "a/[b",
		":acme/app", "github.com:", "git hub.com:acme/app", "nosuch/github.com:acme/app", "github.com:a/../b", "/github.com:acme/app"} {
		if _, err := parseScope([]string{bad}, testDef); err == nil {
			t.Errorf("parseScope(%q) accepted it", bad)
		}
	}
	if validRepo(strings.Repeat("a/", maxSegments) + "z") {
		t.Error("validRepo accepts a path deeper than GitLab nests")
	}
	empty, _ := parseScope(nil, testDef)
	if empty.allows(githubRef, "acme/web") || empty.allows(linearRef, "ENG") || empty.allows(gheRef, "acme/web") {
		t.Error("an empty scope allows something")
	}
	all, _ := parseScope([]string{"*"}, testDef)
	if !all.allows(githubRef, "any/thing") || !all.allows(linearRef, "KEY") || !all.allows(gheRef, "x/y") {
		t.Error(`"*" does not allow everything`)
	}
}

// An entry covers its name on the forge it names, and one that names none
// covers it on the default forge only: never the same name on another
// instance.
func TestScopePerForge(t *testing.T) {
	s, err := parseScope([]string{"acme/app", "GHE.example.com:acme/*", "linear/linear.app:ENG", "git.corp:8443:group/**", "github.com:solo/x"}, testDef)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		ref  *forgev1.ForgeRef
		repo string
		want bool
	}{
		{githubRef, "acme/app", true},
		{gheRef, "acme/app", true}, // by its own entry, acme/*
		{gheRef, "acme/other", true},
		{githubRef, "acme/other", false}, // acme/* is GHE's only
		{githubRef, "solo/x", true},
		{gheRef, "solo/x", false},
		{linearRef, "ENG", true},
		{githubRef, "ENG", false},
		{gitlabPort, "group/a/b", true},
		{&forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_GITLAB, Host: "git.corp"}, "group/a/b", false},
		{&forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_GITEA, Host: "linear.app"}, "ENG", false}, // provider named
	} {
		if got := s.allows(c.ref, c.repo); got != c.want {
			t.Errorf("allows(%s, %q) = %v, want %v", describe(c.ref), c.repo, got, c.want)
		}
	}
	only, _ := parseScope([]string{"acme/app"}, testDef)
	if only.allows(gheRef, "acme/app") {
		t.Error(`"acme/app" covers acme/app on a GitHub Enterprise forge beside github.com`)
	}
	onHost, _ := parseScope([]string{"ghe.example.com:*"}, testDef)
	if !onHost.allows(gheRef, "any/thing") || onHost.allows(githubRef, "any/thing") {
		t.Error(`"ghe.example.com:*" is not every repository of that forge and only those`)
	}
}

func TestRetryAfterRoundsUp(t *testing.T) {
	for d, want := range map[time.Duration]uint64{0: 0, -time.Second: 0, time.Nanosecond: 1, time.Millisecond: 1,
		1500*time.Microsecond + 1: 2, 2 * time.Second: 2000} {
		if got := retryAfterMillis(d); got != want {
			t.Errorf("retryAfterMillis(%v) = %d, want %d", d, got, want)
		}
	}
}
