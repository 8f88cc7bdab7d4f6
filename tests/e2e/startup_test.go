package e2e_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFailedStartLeavesNothing: a configuration whose credentials or
// accounts are wrong is refused before the store exists, with every
// missing variable named at once, and the data directory stays empty.
func TestFailedStartLeavesNothing(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, yaml string
		vars       []string
		want       []string
	}{
		{"missing and short variables", `
forges:
  - {provider: local, default: true}
  - {provider: github, token_env: E2E_MISSING_GITHUB_TOKEN, reviewer_token_env: E2E_MISSING_REVIEWER}
accounts:
  - {name: bot, agent_handle: bot, owner_handle: alice, scope: ["*"], sessions: [bot-1], token_envs: [RELEASE_BOT_GATEWAY_TOKEN]}
`, []string{"RELEASE_BOT_GATEWAY_TOKEN=too-short"}, []string{
			"environment variable E2E_MISSING_GITHUB_TOKEN is not set",
			"environment variable E2E_MISSING_REVIEWER is not set",
			"RELEASE_BOT_GATEWAY_TOKEN is shorter than 16 bytes",
		}},
		{"bad scope", `
forges:
  - provider: local
accounts:
  - {name: bot, agent_handle: bot, owner_handle: alice, scope: ["a/*/c"], sessions: [bot-1]}
`, nil, []string{`scope entry "a/*/c" is not`}},
		{"bad github host", `
forges:
  - {provider: github, host: "https://github.example.com", token_env: E2E_GH}
accounts:
  - {name: bot, agent_handle: bot, owner_handle: alice, scope: ["*"], sessions: [bot-1]}
`, []string{"E2E_GH=ghp_whatever"}, []string{"is not a host name"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, c.vars...)
			cfg := writeConfig(t, c.yaml)
			store := filepath.Join(e.dataDir(), "state", "forgetools.db")
			for _, args := range [][]string{
				{"call", "forge_get_issue", `{"repo":"a/b","issue_number":1}`, "--config", cfg, "--store", store},
				{"serve", "--config", cfg, "--store", store, "--socket-dir", filepath.Join(e.dataDir(), "sockets")},
				{"mcp", "--config", cfg, "--store", store},
			} {
				r := e.run(args...)
				if r.code == 0 {
					t.Fatalf("want a failed start; got %v", r)
				}
				for _, w := range c.want {
					if !strings.Contains(r.stderr, w) {
						t.Errorf("%s: stderr lacks %q:\n%s", args[0], w, r.stderr)
					}
				}
				if strings.Contains(r.stderr, "too-short") || strings.Contains(r.stderr, "ghp_whatever") {
					t.Errorf("%s: stderr echoes a credential:\n%s", args[0], r.stderr)
				}
				left, err := os.ReadDir(e.dataDir())
				if err != nil {
					t.Fatal(err)
				}
				if len(left) != 0 {
					t.Errorf("%s: a failed start left %v in the data directory", args[0], names(left))
				}
			}
		})
	}
}

func names(entries []os.DirEntry) []string {
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}
