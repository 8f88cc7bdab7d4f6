package toolsnaps_test

import (
	"testing"

	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1tools"
	"github.com/forgetools/forgetools/runtime"
)

// groupedShare is issue 14's goal: the grouped full set costs at most 55%
// of the flat full set's bytes, measured the same way (name, description
// and minified schema of each tool, plus the instructions both carry once).
const groupedShare = 0.55

// shapeBytes is what the model reads on every turn from a full toolset of
// the given shape.
func shapeBytes(t *testing.T, shape runtime.Shape) (total, tools int) {
	t.Helper()
	ts, err := runtime.NewToolset(gatewayv1tools.ForgeTools, runtime.NewBroker(nil), runtime.WithShape(shape))
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range ts.Tools() {
		n, schema := surface(t, tool)
		t.Logf("%-8s %-30s %5d bytes (description %d, schema %d)", shape, tool.Name, n, len(tool.Description), len(schema))
		total += n
	}
	return total + len(ts.Instructions()), len(ts.Tools())
}

// TestGroupedSurface prints both figures (go test -v) and fails when the
// grouped shape stops paying for itself.
func TestGroupedSurface(t *testing.T) {
	flat, nFlat := shapeBytes(t, runtime.ShapeFlat)
	grouped, nGrouped := shapeBytes(t, runtime.ShapeGrouped)
	ratio := float64(grouped) / float64(flat)
	t.Logf("flat:    %5d bytes, %d tools", flat, nFlat)
	t.Logf("grouped: %5d bytes, %d tools (%.1f%% of flat; goal at most %.0f%%)", grouped, nGrouped, 100*ratio, 100*groupedShare)
	if nGrouped >= nFlat {
		t.Errorf("the grouped shape has %d tools, the flat %d: the table's groups did not apply", nGrouped, nFlat)
	}
	if ratio > groupedShare {
		t.Errorf("the grouped set is %d bytes, %.1f%% of the flat set's %d: over the %.0f%% goal; shorten group descriptions or share more parameters",
			grouped, 100*ratio, flat, 100*groupedShare)
	}
}
