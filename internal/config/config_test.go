package config

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	"github.com/forgetools/forgetools/vocab"
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
	if time.Duration(cfg.Forges[0].Timeout) != 30*time.Second {
		t.Fatalf("timeout = %v", cfg.Forges[0].Timeout)
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
		{"unreachable account", "forges:\n  - provider: local\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o}\n", "nothing can connect"},
		{"bad duration", "forges:\n  - {provider: local, timeout: soon}\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n", "not a duration"},
		{"empty", "", "empty configuration"},
		{"reviewer on linear", "forges:\n  - {provider: linear, token_env: K, reviewer_token_env: R}\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n", "only github, gitlab, gitea and forgejo forges take a reviewer credential"},
		{"base_url off the local forge", "forges:\n  - {provider: gitlab, token_env: T, base_url: https://x}\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n", "only the local forge takes base_url"},
		{"gitea without a credential", "forges:\n  - {provider: gitea, host: git.example.com}\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n", "gitea needs a credential"},
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
		names = append(names, vocab.Name(p))
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
