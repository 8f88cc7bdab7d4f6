package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/forgetools/forgetools/enumname"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
)

func TestExampleConfigParses(t *testing.T) {
	cfg, err := Load(filepath.Join("..", "..", "examples", "forgetools.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Forges) != 9 || !cfg.Forges[0].Default || cfg.Forges[0].ReviewerTokenEnv != "GITHUB_REVIEWER_TOKEN" {
		t.Fatalf("forges = %+v", cfg.Forges)
	}
	if got := cfg.Accounts[0].Scope; len(got) != 5 || got[1] != "acme-docs/*" || got[3] != "platform/tools/**" {
		t.Fatalf("scope = %v", got)
	}
	if s := cfg.Accounts[0].Sessions; len(s) != 2 || s[0].UID != nil || s[1].Name != "release-bot-2" || *s[1].UID != 1001 || *s[1].GID != 1001 {
		t.Fatalf("sessions = %+v", s)
	}
	if time.Duration(cfg.Forges[0].Timeout) != 30*time.Second {
		t.Fatalf("timeout = %v", cfg.Forges[0].Timeout)
	}
	i := slices.IndexFunc(cfg.Forges, func(f Forge) bool { return f.Provider == "local" })
	if i < 0 {
		t.Fatal("the example configures no local forge")
	}
	if l := cfg.Forges[i]; l.GitDir == "" || l.CICommand != "make test" || time.Duration(l.CITimeout) != 10*time.Minute || len(l.CIEnv) != 1 {
		t.Fatalf("local forge = %+v", l)
	}
	if cfg.Forges[0].WebhookSecretEnv != "GITHUB_WEBHOOK_SECRET" || time.Duration(cfg.Events.Retention) != 7*24*time.Hour ||
		time.Duration(cfg.Events.PollInterval) != time.Minute {
		t.Fatalf("webhooks and events = %q %+v", cfg.Forges[0].WebhookSecretEnv, cfg.Events)
	}
}

func TestDefaultIsValidAndScopesEverything(t *testing.T) {
	cfg := Default(t.TempDir())
	if err := cfg.Check(); err != nil {
		t.Fatal(err)
	}
	if cfg.Forges[0].Provider != "local" || cfg.Accounts[0].Scope[0] != "*" {
		t.Fatalf("default = %+v", cfg)
	}
}

func TestParseRejects(t *testing.T) {
	base := "forges:\n  - provider: local\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n"
	cases := []struct {
		name, yaml, want string
	}{
		{"literal secret", "forges:\n  - provider: github\n    token: ghp_secret\n", "token_env"},
		{"unknown key", base + "stroe: x\n", "field stroe not found"},
		{"unknown provider", "forges:\n  - provider: gitlub\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n", `"gitlub" is not one of`},
		{"missing credential", "forges:\n  - provider: github\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n", "needs a credential"},
		{"two defaults", "forges:\n  - {provider: local, default: true}\n  - {provider: github, token_env: T, default: true}\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n", "exactly one forge"},
		{"bad session", "forges:\n  - provider: local\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [../x]}\n", "names a socket file"},
		{"shared session", "forges:\n  - provider: local\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n  - {name: b, agent_handle: h, owner_handle: o, sessions: [s]}\n", `already belongs to account "a"`},
		{"negative limit", "forges:\n  - provider: local\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s], limits: {in_flight: -1}}\n", "limits.in_flight: -1 is negative"},
		{"unknown limit", "forges:\n  - provider: local\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s], limits: {writes: 3}}\n", "field writes not found"},
		{"unreachable account", "forges:\n  - provider: local\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o}\n", "nothing can connect"},
		{"bad duration", "forges:\n  - {provider: local, timeout: soon}\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n", "not a duration"},
		{"ci on github", "forges:\n  - {provider: github, token_env: T, ci_command: make}\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n", "settings of the local forge, not of github"},
		{"ci_network on gitea", "forges:\n  - {provider: gitea, token_env: T, ci_network: true}\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n", "settings of the local forge, not of gitea"},
		{"ci_sandbox unknown", "forges:\n  - {provider: local, ci_command: make, ci_sandbox: docker}\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n", `ci_sandbox: "docker" is neither bubblewrap nor none`},
		{"git_dir on linear", "forges:\n  - {provider: linear, token_env: T, git_dir: /x}\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n", "settings of the local forge, not of linear"},
		{"negative ci_timeout", "forges:\n  - {provider: local, ci_timeout: -1s}\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n", "ci_timeout: -1s is negative"},
		{"bad ci_env", "forges:\n  - {provider: local, ci_env: [\"A=B\"]}\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n", `"A=B" is not an environment variable name`},
		{"empty", "", "empty configuration"},
		{"reviewer on linear", "forges:\n  - {provider: linear, token_env: K, reviewer_token_env: R}\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n", "only github, gitlab, gitea and forgejo forges take a reviewer credential"},
		{"base_url off the local forge", "forges:\n  - {provider: gitlab, token_env: T, base_url: https://x}\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n", "only the local forge takes base_url"},
		{"gitea without a credential", "forges:\n  - {provider: gitea, host: git.example.com}\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n", "gitea needs a credential"},
		{"webhooks without a listener", "forges:\n  - {provider: github, token_env: T, webhook_secret_env: W}\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n", "set listen"},
		{"webhooks on linear", "listen: 127.0.0.1:0\nforges:\n  - {provider: linear, token_env: T, webhook_secret_env: W}\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n", "only a github forge"},
		{"bad webhook variable", "listen: 127.0.0.1:0\nforges:\n  - {provider: github, token_env: T, webhook_secret_env: 'w-1'}\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n", "not an environment variable name"},
		{"polling too often", base + "events: {poll_interval: 1s}\n", "below 10s"},
		{"negative retention", base + "events: {retention: -1h}\n", "must not be negative"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.yaml))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want it to contain %q", err, c.want)
			}
		})
	}
}

func TestSecretNamesVariableNeverValue(t *testing.T) {
	t.Setenv("FORGETOOLS_TEST_SECRET", "s3cr3t")
	if v, err := Secret("FORGETOOLS_TEST_SECRET"); err != nil || v != "s3cr3t" {
		t.Fatalf("Secret = %q, %v", v, err)
	}
	os.Unsetenv("FORGETOOLS_TEST_MISSING")
	_, err := Secret("FORGETOOLS_TEST_MISSING")
	if err == nil || !strings.Contains(err.Error(), "FORGETOOLS_TEST_MISSING is not set") {
		t.Fatalf("err = %v", err)
	}
}

// A credential pasted where a variable name belongs is reported without
// its value, and so is any value the YAML decoder would quote.
func TestConfigErrorsNeverEchoSecrets(t *testing.T) {
	const secret = "ghp_16C7e42F292c6912E7710c838347Ae178B4a"
	account := "accounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n"
	cases := []struct{ name, yaml, want string }{
		{"token in token_env", "forges:\n  - {provider: github, token_env: " + secret + "}\n" + account,
			"forges[0].token_env looks like a credential, not a variable name"},
		{"token in reviewer_token_env", "forges:\n  - {provider: github, token_env: GITHUB_TOKEN, reviewer_token_env: " + secret + "}\n" + account,
			"forges[0].reviewer_token_env looks like a credential, not a variable name"},
		{"token in token_envs", "forges:\n  - provider: local\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, token_envs: [OK_NAME, " + secret + "]}\n",
			"accounts[0].token_envs[1] looks like a credential, not a variable name"},
		{"unprefixed high-entropy value", "forges:\n  - {provider: linear, token_env: 3f9a8c7d6e5b4a39281706f5e4d3c2b1}\n" + account,
			"looks like a credential"},
		{"not a name", "forges:\n  - {provider: github, token_env: \"my token\"}\n" + account,
			"forges[0].token_env is not an environment variable name"},
		{"secret where a list belongs", "forges:\n  - provider: local\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, token_envs: " + secret + "}\n",
			"cannot unmarshal !!str a value"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.yaml))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want it to contain %q", err, c.want)
			}
			for _, v := range []string{secret, "3f9a8c7d6e5b4a39281706f5e4d3c2b1", "my token"} {
				if strings.Contains(err.Error(), v) {
					t.Errorf("the error echoes the value %q: %v", v, err)
				}
			}
		})
	}
}

// Every key a credential is commonly written under gets the same hint.
func TestInlineSecretKeysGetTheHint(t *testing.T) {
	for _, key := range []string{"token", "api_key", "password", "secret"} {
		_, err := Parse([]byte("forges:\n  - provider: linear\n    " + key + ": lin_api_abcdefghijklmnop\n"))
		if err == nil || !strings.Contains(err.Error(), "field "+key+" not found") ||
			!strings.Contains(err.Error(), "name the environment variable that holds them") {
			t.Errorf("%s: err = %v, want the token_env hint", key, err)
		}
		if err != nil && strings.Contains(err.Error(), "lin_api_abcdefghijklmnop") {
			t.Errorf("%s: the error echoes the secret: %v", key, err)
		}
	}
}

// Resolve reports every missing and every too-short variable at once, by
// name, and never a value.
func TestResolveReportsEveryVariable(t *testing.T) {
	t.Setenv("FT_TEST_GH", "gh-secret-value")
	t.Setenv("FT_TEST_SHORT", "short-secret")
	t.Setenv("FT_TEST_LONG", "a-long-enough-token")
	os.Unsetenv("FT_TEST_MISSING_A")
	os.Unsetenv("FT_TEST_MISSING_B")
	cfg, err := Parse([]byte(`forges:
  - {provider: github, token_env: FT_TEST_GH, reviewer_token_env: FT_TEST_MISSING_A, default: true}
  - {provider: linear, token_env: FT_TEST_MISSING_B}
  - {provider: gitea, host: a.example.com, token_env: FT_TEST_MISSING_A, reviewer_token_env: FT_TEST_MISSING_A}
accounts:
  - {name: a, agent_handle: h, owner_handle: o, token_envs: [FT_TEST_SHORT, FT_TEST_LONG]}
`))
	if err != nil {
		t.Fatal(err)
	}
	creds, err := cfg.Resolve()
	if err == nil {
		t.Fatalf("Resolve = %v, want errors", creds)
	}
	msg := err.Error()
	for _, want := range []string{
		"environment variable FT_TEST_MISSING_A is not set",
		"environment variable FT_TEST_MISSING_B is not set",
		"FT_TEST_SHORT is shorter than 16 bytes",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("Resolve error lacks %q:\n%s", want, msg)
		}
	}
	if n := strings.Count(msg, "FT_TEST_MISSING_A"); n != 1 {
		t.Errorf("a variable three settings share is reported %d times:\n%s", n, msg)
	}
	for _, secret := range []string{"gh-secret-value", "short-secret", "a-long-enough-token"} {
		if strings.Contains(msg, secret) {
			t.Errorf("Resolve error echoes %q", secret)
		}
	}

	t.Setenv("FT_TEST_MISSING_A", "reviewer")
	t.Setenv("FT_TEST_MISSING_B", "linear-key")
	t.Setenv("FT_TEST_SHORT", "sixteen-bytes-ok")
	creds, err = cfg.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if creds["FT_TEST_GH"] != "gh-secret-value" || creds["FT_TEST_SHORT"] != "sixteen-bytes-ok" || len(creds) != 5 {
		t.Errorf("creds = %v", creds)
	}
}

// A session is a name, or a name with the peer credentials allowed to
// connect to its socket.
func TestSessionPeers(t *testing.T) {
	cfg, err := Parse([]byte(`forges:
  - provider: local
accounts:
  - name: a
    agent_handle: h
    owner_handle: o
    sessions:
      - plain
      - {name: by-uid, uid: 1001}
      - {name: by-both, uid: 0, gid: 20}
      - name: by-gid
        gid: 4242
`))
	if err != nil {
		t.Fatal(err)
	}
	u := func(v uint32) *uint32 { return &v }
	want := []Session{{Name: "plain"}, {Name: "by-uid", UID: u(1001)}, {Name: "by-both", UID: u(0), GID: u(20)}, {Name: "by-gid", GID: u(4242)}}
	got := cfg.Accounts[0].Sessions
	if len(got) != len(want) {
		t.Fatalf("sessions = %+v", got)
	}
	for i := range want {
		if got[i].Name != want[i].Name || !sameID(got[i].UID, want[i].UID) || !sameID(got[i].GID, want[i].GID) {
			t.Errorf("sessions[%d] = %+v, want %+v", i, got[i], want[i])
		}
	}
	for yaml, problem := range map[string]string{
		"{name: s, uid: -1}":          "line 6: uid -1 is not a user id",
		"{name: s, uid: x}":           "line 6: uid \"x\" is not a user id",
		"{name: s, pid: 7}":           "line 6: session key \"pid\" is not one of name, uid, gid",
		"{uid: 7}":                    "line 6: a session needs a name",
		"[s]":                         "line 6: a session is a name or {name, uid, gid}",
		"{name: s, gid: 99999999999}": "line 6: gid 99999999999 is not a group id",
	} {
		_, err := Parse([]byte("forges:\n  - provider: local\naccounts:\n  - name: a\n    sessions:\n      - " + yaml + "\n"))
		if err == nil || !strings.Contains(err.Error(), problem) {
			t.Errorf("session %s: err = %v, want %q", yaml, err, problem)
		}
	}
}

func sameID(a, b *uint32) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func TestPushToDefaultBranchIsPerAccount(t *testing.T) {
	cfg, err := Parse([]byte("forges:\n  - provider: local\naccounts:\n" +
		"  - {name: a, agent_handle: h, owner_handle: o, sessions: [s1], push_to_default_branch: true}\n" +
		"  - {name: b, agent_handle: h, owner_handle: o, sessions: [s2]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !cfg.Accounts[0].PushToDefaultBranch || cfg.Accounts[1].PushToDefaultBranch {
		t.Fatalf("push_to_default_branch: a %v, b %v; want true, false (off unless given)",
			cfg.Accounts[0].PushToDefaultBranch, cfg.Accounts[1].PushToDefaultBranch)
	}
}

// An account's limits are read per account; omitted ones stay zero (the
// gateway's defaults).
func TestLimitsArePerAccount(t *testing.T) {
	cfg, err := Parse([]byte("forges:\n  - provider: local\naccounts:\n" +
		"  - name: a\n    agent_handle: h\n    owner_handle: o\n    sessions: [s1]\n    limits:\n      in_flight: 4\n      result_bytes: 1000000\n" +
		"      write_calls_per_minute: 10\n      write_bytes_per_minute: 2000\n      push_calls_per_minute: 5\n      push_bytes_per_minute: 3000\n" +
		"      pending_approvals: 7\n" +
		"  - {name: b, agent_handle: h, owner_handle: o, sessions: [s2]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := Limits{InFlight: 4, ResultBytes: 1000000, WriteCallsPerMinute: 10, WriteBytesPerMinute: 2000, PushCallsPerMinute: 5, PushBytesPerMinute: 3000, PendingApprovals: 7}
	if cfg.Accounts[0].Limits != want || cfg.Accounts[1].Limits != (Limits{}) {
		t.Fatalf("limits: a %+v, b %+v; want %+v and none", cfg.Accounts[0].Limits, cfg.Accounts[1].Limits, want)
	}
}

// Every forge the gateway implements is a provider the file accepts, each
// with its host, API URL, credentials and timeout.
func TestParseAcceptsEveryForge(t *testing.T) {
	cfg, err := Parse([]byte(`forges:
  - {provider: github, default: true, token_env: GH}
  - {provider: gitlab, host: gitlab.example.com, token_env: GL, reviewer_token_env: GLR, timeout: 5s}
  - {provider: gitea, host: git.example.com, api_url: "https://git.example.com/sub/api/v1/", token_env: GT}
  - {provider: forgejo, token_env: FJ}
  - {provider: linear, token_env: LN}
  - {provider: local}
accounts:
  - {name: a, agent_handle: h, owner_handle: o, sessions: [s], scope: [platform/infra/deploy, platform/tools/**, acme/*]}
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Forges) != 6 || cfg.Forges[1].ReviewerTokenEnv != "GLR" || time.Duration(cfg.Forges[1].Timeout) != 5*time.Second {
		t.Fatalf("forges = %+v", cfg.Forges)
	}
}

// forge_provider in the tool schemas is the ForgeProvider enum: every
// value must be a provider this configuration accepts (and the CLI
// builds), so the schema never offers a forge the gateway cannot serve.
func TestEveryForgeProviderIsServed(t *testing.T) {
	values := forgev1.ForgeProvider(0).Descriptor().Values()
	var names []string
	for i := range values.Len() {
		p := forgev1.ForgeProvider(values.Get(i).Number())
		if p == forgev1.ForgeProvider_FORGE_PROVIDER_UNSPECIFIED {
			continue
		}
		names = append(names, enumname.Of(p))
	}
	slices.Sort(names)
	var served []string
	for p := range providers {
		served = append(served, p)
	}
	slices.Sort(served)
	if !slices.Equal(names, served) {
		t.Errorf("forge_provider offers %v; the configuration serves %v", names, served)
	}
}

// The flow rules are on unless an account turns one off; trusted authors
// are the account's own handles unless listed; the local forge names its
// public repositories.
func TestFlowRulesPerAccount(t *testing.T) {
	cfg, err := Parse([]byte("forges:\n  - {provider: local, public_repos: [acme/site]}\naccounts:\n" +
		"  - {name: a, agent_handle: h, owner_handle: o, sessions: [s1]}\n" +
		"  - {name: b, agent_handle: h, owner_handle: o, sessions: [s2], flow: {private_to_public: false, trusted_authors: [ann, acme-bot]}}\n" +
		"  - {name: c, agent_handle: h, owner_handle: o, sessions: [s3], flow: {untrusted_content: false, trusted_authors: []}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := cfg.Accounts[0].Flow, cfg.Accounts[1].Flow, cfg.Accounts[2].Flow
	if a.PrivateToPublic != nil || a.UntrustedContent != nil || a.TrustedAuthors != nil {
		t.Errorf("a sets nothing, got %+v", a)
	}
	if b.PrivateToPublic == nil || *b.PrivateToPublic || b.UntrustedContent != nil || len(b.TrustedAuthors) != 2 {
		t.Errorf("b = %+v", b)
	}
	if c.UntrustedContent == nil || *c.UntrustedContent || c.TrustedAuthors == nil || len(c.TrustedAuthors) != 0 {
		t.Errorf("c = %+v (an empty list trusts nobody, so it is not nil)", c)
	}
	if got := cfg.Forges[0].PublicRepos; len(got) != 1 || got[0] != "acme/site" {
		t.Errorf("public_repos = %v", got)
	}
	if _, err := Parse([]byte("forges:\n  - provider: local\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, flow: {private: false}}\n")); err == nil {
		t.Error("an unknown flow key was accepted")
	}
}

// The local forge names its organisations' members and its repositories'
// writers, for the "org:NAME" and "collaborators:write" trusted authors;
// another forge refuses them.
func TestLocalOrgsAndWriters(t *testing.T) {
	cfg, err := Parse([]byte("forges:\n  - {provider: local, orgs: {acme: [carol]}, writers: {acme/site: [carol, wes]}}\naccounts:\n" +
		"  - {name: a, agent_handle: h, owner_handle: o, sessions: [s1], flow: {trusted_authors: [a, \"org:acme\", \"collaborators:write\"]}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	f := cfg.Forges[0]
	if len(f.Orgs["acme"]) != 1 || len(f.Writers["acme/site"]) != 2 || len(cfg.Accounts[0].Flow.TrustedAuthors) != 3 {
		t.Errorf("forge = %+v, flow = %+v", f, cfg.Accounts[0].Flow)
	}
	_, err = Parse([]byte("forges:\n  - {provider: github, token_env: T, orgs: {acme: [carol]}}\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o}\n"))
	if err == nil || !strings.Contains(err.Error(), "orgs, writers") {
		t.Errorf("orgs on a github forge: %v", err)
	}
}
