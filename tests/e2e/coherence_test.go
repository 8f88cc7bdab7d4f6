package e2e_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1tools"
)

// readOnlySentence is what every surface says when a write tool is asked of
// a read-only toolset.
const readOnlySentence = "forge_create_issue is a write tool and the toolset is read-only"

// TestCLICoherence: the same refusal sentence from call and tools, a tool
// both allowed and excluded is an error, and demo takes only its own flags.
func TestCLICoherence(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, args := range [][]string{
		{"call", "forge_create_issue", `{"repo":"demo/app","title":"x"}`, "--read-only"},
		{"call", "forge_get_issue", `{}`, "--read-only", "--tools", "forge_create_issue"},
		{"tools", "--read-only", "--tools", "forge_create_issue"},
	} {
		r := e.run(args...)
		if r.code != 2 || !strings.Contains(r.stderr, "forgetools: "+readOnlySentence+"\n") {
			t.Errorf("want exit 2 and %q; got %v", readOnlySentence, r)
		}
	}
	for _, args := range [][]string{
		{"tools", "--tools", "forge_get_issue", "--exclude-tools", "forge_get_issue"},
		{"call", "forge_get_issue", `{}`, "--tools", "forge_get_issue", "--exclude-tools", "forge_get_issue"},
	} {
		if r := e.run(args...); r.code != 2 || !strings.Contains(r.stderr, "forge_get_issue is both allowed and excluded") {
			t.Errorf("want exit 2 and a both-allowed-and-excluded error; got %v", r)
		}
	}
	if r := e.run("call", "forge_nope", `{}`); r.code != 2 || !strings.Contains(r.stderr, `"forge_nope": unknown tool; available tools: forge_get_issue,`) {
		t.Errorf("unknown tool: %v", r)
	}
	for _, flag := range []string{"--gateway", "--config", "--read-only", "--tools", "--session", "--token-env"} {
		if r := e.run("demo", flag, "x"); r.code != 2 || !strings.Contains(r.stderr, "unknown flag: "+flag) {
			t.Errorf("demo %s: want an unknown flag usage error; got %v", flag, r)
		}
	}
}

// TestOpenAIResponsesExport: `tools --format openai-responses` is the
// Responses API shape: top-level instructions, flat strict function tools.
func TestOpenAIResponsesExport(t *testing.T) {
	t.Parallel()
	r := newEnv(t).run("tools", "--format", "openai-responses")
	var req struct {
		Instructions string `json:"instructions"`
		Tools        []struct {
			Type       string         `json:"type"`
			Name       string         `json:"name"`
			Strict     *bool          `json:"strict"`
			Parameters map[string]any `json:"parameters"`
			Function   any            `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &req); r.code != 0 || err != nil {
		t.Fatalf("%v; %v", err, r)
	}
	if !strings.HasPrefix(req.Instructions, "# forge tools\n\n") || len(req.Tools) != len(gatewayv1tools.ForgeTools.Tools) {
		t.Fatalf("instructions %q, %d tools", req.Instructions, len(req.Tools))
	}
	for _, tool := range req.Tools {
		if tool.Type != "function" || tool.Strict == nil || !*tool.Strict || tool.Function != nil ||
			tool.Parameters["additionalProperties"] != false || tool.Name == "" {
			t.Errorf("tool %q is not a flat strict Responses function tool: %+v", tool.Name, tool)
		}
	}
}
