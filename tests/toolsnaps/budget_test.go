package toolsnaps_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1tools"
)

// surfaceBudget is issue 2 section 6: what the model reads on every turn
// (each tool's name, description and minified input schema, plus the
// toolset instructions every export carries once) stays within 9,000 bytes
// for the ten original tools; github-mcp-server's equivalent tools measure
// about 15,000. Issue 15 adds forge_get_events (about 800 bytes, half of it
// the selector and bounds every tool carries) and 500 bytes with it.
const surfaceBudget = 9500

// TestToolSurfaceBudget prints the figure per tool and in total (go test -v)
// and fails above the budget.
func TestToolSurfaceBudget(t *testing.T) {
	table := gatewayv1tools.ForgeTools
	total := 0
	for _, tool := range table.Tools {
		var schema bytes.Buffer
		if err := json.Compact(&schema, []byte(tool.InputSchema)); err != nil {
			t.Fatalf("%s: input schema is not JSON: %v", tool.Name, err)
		}
		n := len(tool.Name) + len(tool.Description) + schema.Len()
		t.Logf("%-30s %5d bytes (name %d, description %d, schema %d)", tool.Name, n, len(tool.Name), len(tool.Description), schema.Len())
		total += n
	}
	t.Logf("%-30s %5d bytes", "toolset instructions", len(table.Instructions))
	total += len(table.Instructions)
	t.Logf("%-30s %5d bytes of %d", "total", total, surfaceBudget)
	if total > surfaceBudget {
		t.Errorf("the tool surface is %d bytes, over the %d-byte budget by %d: move guidance shared by all tools into the toolset instructions, or tighten descriptions",
			total, surfaceBudget, total-surfaceBudget)
	}
}
