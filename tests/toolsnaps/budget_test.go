package toolsnaps_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1tools"
	"github.com/forgetools/forgetools/runtime"
)

// surfaceBudget is issue 9's: what the model reads on every turn (each
// tool's name, description and minified input schema, plus the toolset
// instructions every export carries once) stays within 17,000 bytes for
// the whole flat set, issue 15's forge_get_events included; issue 19 raised
// it by 50 bytes for forge_list_dir's cursor (61 bytes with its bound).
// github-mcp-server's equivalent tools measure about 15,000 for the first
// ten alone.
// issue 21 (search): +1307 bytes for forge_search_code and forge_search_issues
// issue 21 (paging): +882 bytes for forge_list_comments and the cursor of forge_list_issues, forge_list_pull_requests and forge_list_ci_runs.
// issue 21 (change sets): +1330 bytes for forge_commit_files
// issue 21 (review threads): +1823 bytes for forge_list_review_threads, forge_reply_to_review_thread and forge_resolve_review_thread
// issue 21 (the diff): +1468 bytes for forge_get_pull_request_diff and forge_compare
// issue 21 (line ranges, update pull request, list commits): +2054 bytes for forge_update_pull_request (1105), forge_list_commits (746) and forge_read_file's start_line and end_line (203)
// issue 21 (reviews by page): +21 bytes for forge_list_comments' kind reviews and its description's "or reviews"
const surfaceBudget = 17050 + 1307 + 882 + 1330 + 1823 + 1468 + 2054 + 21

// beforeBytes is each of the ten original tools just before issue 9 added
// the agent-hands surface (name + description + minified schema; issue 2
// shipped them at 7,724 bytes, later issues made the non-blank pattern
// Unicode-aware and the create descriptions exact about dedup). Issue 9 lets
// them grow only by the definitions of the parameters it added (newParams);
// anything else they gained would be guidance that belongs in the
// instructions. They may shrink: the merge of issue 9 with the later
// issues trimmed descriptions that restated parameter names to stay in
// budget.
var (
	beforeBytes = map[string]int{
		"forge_get_issue": 541, "forge_get_pull_request": 577, "forge_list_issues": 838,
		"forge_comment_on_issue": 696, "forge_comment_on_pull_request": 742, "forge_submit_review": 1565,
		"forge_create_issue": 948, "forge_create_pull_request": 1172, "forge_subscribe": 709, "forge_unsubscribe": 466,
	}
	newParams = map[string][]string{
		"forge_list_issues":  {"assignee", "since", "cursor"},
		"forge_create_issue": {"assignees", "milestone"},
	}
)

// surface is one tool's bytes as the model reads them.
func surface(t *testing.T, tool *runtime.Tool) (total int, schema []byte) {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, tool.InputSchema().JSON()); err != nil {
		t.Fatalf("%s: input schema is not JSON: %v", tool.Name, err)
	}
	return len(tool.Name) + len(tool.Description) + b.Len(), b.Bytes()
}

// paramBytes is a parameter's own definition in a minified schema:
// `"name":{...},`.
func paramBytes(t *testing.T, tool string, schema []byte, name string) int {
	t.Helper()
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(schema, &s); err != nil || s.Properties[name] == nil {
		t.Fatalf("%s: no parameter %s in the schema (%v)", tool, name, err)
	}
	key, _ := json.Marshal(name)
	return len(key) + len(":") + len(s.Properties[name]) + len(",")
}

// TestToolSurfaceBudget prints the figure per tool, for the ten original
// tools and for the whole set (go test -v), and fails above the budget or
// when an original tool grew by more than its new parameters.
func TestToolSurfaceBudget(t *testing.T) {
	table := gatewayv1tools.ForgeTools
	whole, ten := 0, 0
	for _, tool := range table.Tools {
		n, schema := surface(t, tool)
		t.Logf("%-30s %5d bytes (name %d, description %d, schema %d)", tool.Name, n, len(tool.Name), len(tool.Description), len(schema))
		whole += n
		was, original := beforeBytes[tool.Name]
		if !original {
			continue
		}
		ten += n
		grown := n - was
		for _, p := range newParams[tool.Name] {
			grown -= paramBytes(t, tool.Name, schema, p)
		}
		if grown > 0 { // shrinking is always welcome
			t.Errorf("%s is %d bytes: %d more than the %d before issue 9 plus its new parameters %v; only new parameters may grow an original tool",
				tool.Name, n, grown, was, newParams[tool.Name])
		}
	}
	if got := len(beforeBytes); got != 10 || ten == 0 {
		t.Fatalf("%d original tools pinned, %d bytes found", got, ten)
	}
	instructions := fullInstructions(t)
	t.Logf("%-30s %5d bytes", "toolset instructions", len(instructions))
	whole += len(instructions)
	t.Logf("%-30s %5d bytes (before issue 9: %d, plus the new parameters)", "the ten original tools", ten, sum(beforeBytes))
	t.Logf("%-30s %5d bytes of %d (%d tools and the instructions)", "whole flat set", whole, surfaceBudget, len(table.Tools))
	if whole > surfaceBudget {
		t.Errorf("the tool surface is %d bytes, over the %d-byte budget by %d: move guidance shared by several tools into the toolset instructions, or tighten descriptions",
			whole, surfaceBudget, whole-surfaceBudget)
	}
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}
