package e2e_test

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// exported is the part of `tools --format mcp` the narrowing checks read.
type exported struct {
	Instructions string `json:"instructions"`
	Tools        []struct {
		Name        string `json:"name"`
		InputSchema struct {
			Properties map[string]struct {
				Enum    []string `json:"enum"`
				Default string   `json:"default"`
			} `json:"properties"`
		} `json:"inputSchema"`
	} `json:"tools"`
}

func exportFor(t *testing.T, e *env, args ...string) exported {
	t.Helper()
	r := e.run(append([]string{"tools", "--format", "mcp"}, args...)...)
	var out exported
	if err := json.Unmarshal([]byte(r.stdout), &out); r.code != 0 || err != nil {
		t.Fatalf("tools %v: %v; %v", args, err, r)
	}
	return out
}

// TestToolsNarrowedToServedForges: the tools a gateway exports offer only
// the forges it serves. One forge: no selector, instructions silent about
// other forges; several: the selector lists exactly them.
func TestToolsNarrowedToServedForges(t *testing.T) {
	t.Parallel()
	e := newEnv(t)

	for _, args := range [][]string{{"--github", "--repo", "acme/app"}, {"--config", writeConfig(t, aliceConfig)}} {
		out := exportFor(t, e, args...)
		for _, tool := range out.Tools {
			for _, p := range []string{"forge_provider", "forge_host"} {
				if _, ok := tool.InputSchema.Properties[p]; ok {
					t.Errorf("tools %v: %s still offers %s with a single forge", args, tool.Name, p)
				}
			}
		}
		for _, never := range []string{"Linear", "forge_provider", "forge_host", "GitLab"} {
			if strings.Contains(out.Instructions, never) {
				t.Errorf("tools %v: instructions mention %q:\n%s", args, never, out.Instructions)
			}
		}
		if !strings.Contains(out.Instructions, `repo is "owner/name".`) {
			t.Errorf("tools %v: instructions lack the repo shape:\n%s", args, out.Instructions)
		}
	}

	// The example: github.com (default) and a GitHub Enterprise host,
	// gitlab.com and a self-managed GitLab, a Gitea, Codeberg and another
	// Forgejo, Linear and the local forge. Hosts are offered for the
	// providers with several instances, each default one by its name.
	out := exportFor(t, e, "--config", filepath.Join("..", "..", "examples", "forgetools.yaml"))
	for _, tool := range out.Tools {
		p, h := tool.InputSchema.Properties["forge_provider"], tool.InputSchema.Properties["forge_host"]
		if !slices.Equal(p.Enum, []string{"github", "gitlab", "gitea", "forgejo", "linear", "local"}) || p.Default != "github" ||
			!slices.Equal(h.Enum, []string{"github.com", "github.example.com", "gitlab.com", "gitlab.example.com", "codeberg.org", "forge.example.org"}) {
			t.Errorf("%s: forge_provider %+v, forge_host %+v", tool.Name, p, h)
		}
	}
	for _, want := range []string{"On Linear, repo is the team key", "Omit forge_provider", "forge_host picks an instance"} {
		if !strings.Contains(out.Instructions, want) {
			t.Errorf("example config: instructions lack %q:\n%s", want, out.Instructions)
		}
	}

	// The full vocabulary without a configuration (docs/tools.md).
	full := exportFor(t, e)
	if got := full.Tools[0].InputSchema.Properties["forge_provider"].Enum; len(got) != 6 {
		t.Errorf("tools without a configuration narrowed the selector to %v", got)
	}

	// The in-process gateway's decoder agrees with its schema: a selector
	// the single-forge schema does not offer is an unknown parameter.
	e.call("forge_get_issue", `{"repo":"demo/app","issue_number":1,"forge_provider":"github"}`).
		want(t, 1, `forge_get_issue failed: invalid_argument: unknown parameter "forge_provider"; valid parameters: repo, issue_number`)
}
