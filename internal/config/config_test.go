package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestExampleConfigParses(t *testing.T) {
	cfg, err := Load(filepath.Join("..", "..", "examples", "forgetools.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Forges) != 4 || !cfg.Forges[0].Default || cfg.Forges[0].ReviewerTokenEnv != "GITHUB_REVIEWER_TOKEN" {
		t.Fatalf("forges = %+v", cfg.Forges)
	}
	if got := cfg.Accounts[0].Scope; len(got) != 3 || got[1] != "acme-docs/*" {
		t.Fatalf("scope = %v", got)
	}
	if time.Duration(cfg.Forges[0].Timeout) != 30*time.Second {
		t.Fatalf("timeout = %v", cfg.Forges[0].Timeout)
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
		{"unreachable account", "forges:\n  - provider: local\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o}\n", "nothing can connect"},
		{"bad duration", "forges:\n  - {provider: local, timeout: soon}\naccounts:\n  - {name: a, agent_handle: h, owner_handle: o, sessions: [s]}\n", "not a duration"},
		{"empty", "", "empty configuration"},
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
