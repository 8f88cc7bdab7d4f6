package export_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1tools"
	"github.com/forgetools/forgetools/runtime"
	"github.com/forgetools/forgetools/runtime/export"
)

// TestForgeToolsetExports runs every export over the generated forge
// toolset, in both shapes: the strict variant must meet strict mode
// everywhere and still compile as JSON Schema, and the docs must cover
// every parameter.
func TestForgeToolsetExports(t *testing.T) {
	for _, shape := range []runtime.Shape{runtime.ShapeFlat, runtime.ShapeGrouped} {
		t.Run(shape.String(), func(t *testing.T) { testExports(t, shape) })
	}
}

func testExports(t *testing.T, shape runtime.Shape) {
	ts, err := runtime.NewToolset(gatewayv1tools.ForgeTools, runtime.NewBroker(nil), runtime.WithShape(shape))
	if err != nil {
		t.Fatal(err)
	}
	want := len(gatewayv1tools.ForgeTools.Tools)
	if shape == runtime.ShapeGrouped {
		want = len(gatewayv1tools.ForgeTools.Groups)
	}
	if got := len(export.MCP(ts).Tools); got != want || want < 6 {
		t.Errorf("MCP export has %d tools, want %d", got, want)
	}
	req, err := export.OpenAIStrict(ts)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := export.Markdown(ts)
	if err != nil {
		t.Fatal(err)
	}
	for i, tool := range req.Tools {
		name := tool.Function.Name
		var node map[string]any
		if err := json.Unmarshal(tool.Function.Parameters, &node); err != nil {
			t.Fatal(err)
		}
		checkStrict(t, name, node)

		c := jsonschema.NewCompiler()
		parsed, err := jsonschema.UnmarshalJSON(strings.NewReader(string(tool.Function.Parameters)))
		if err == nil {
			err = c.AddResource(name+".json", parsed)
		}
		if err == nil {
			_, err = c.Compile(name + ".json")
		}
		if err != nil {
			t.Errorf("%s: strict schema does not compile: %v", name, err)
		}

		if !strings.Contains(doc, "\n## "+name+"\n") {
			t.Errorf("markdown has no section for %s", name)
		}
		var orig struct {
			Properties map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(ts.Tools()[i].InputSchema().JSON(), &orig); err != nil {
			t.Fatal(err)
		}
		for p := range orig.Properties {
			if !strings.Contains(doc, "| `"+p+"` |") {
				t.Errorf("markdown for %s lacks parameter %s", name, p)
			}
		}
	}
	if shape == runtime.ShapeGrouped {
		if !strings.Contains(doc, "| `action` | string | yes |") {
			t.Error("markdown lacks the grouped tools' action")
		}
		return
	}
	if !strings.Contains(doc, "| `comments[].body` | string | yes |") {
		t.Error("markdown lacks the nested review comment body")
	}
}
