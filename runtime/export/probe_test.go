package export_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/runtime"
	"github.com/forgetools/forgetools/runtime/export"
	"github.com/forgetools/forgetools/tests/probe/probev1/probev1tools"
)

// The probe table has every keyword the generator emits (tests/probe).

func probeToolset(t *testing.T) *runtime.Toolset {
	t.Helper()
	ts, err := runtime.NewToolset(probev1tools.ProbeTools, runtime.NewBroker(runtime.TransportFunc(nil)))
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// keywords lists every key of every object in a JSON document, with the
// property names of "properties" left out (they are parameters).
func keywords(v any, out map[string]bool) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if k == "properties" {
				for _, p := range x.(map[string]any) {
					keywords(p, out)
				}
				continue
			}
			out[k] = true
			keywords(x, out)
		}
	case []any:
		for _, x := range v {
			keywords(x, out)
		}
	}
}

// Strict mode keeps only what OpenAI accepts, says the rest in words, and
// sends a tool it cannot express (a map) as a plain function.
func TestStrictExportOfEveryKind(t *testing.T) {
	req, err := export.OpenAIStrict(probeToolset(t))
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{
		"type": true, "description": true, "properties": true, "required": true, "additionalProperties": true,
		"items": true, "enum": true, "const": true, "anyOf": true, "pattern": true, "format": true,
		"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true, "minItems": true, "maxItems": true,
	}
	for _, tool := range req.Tools {
		f := tool.Function
		if f.Name == "probe_maps" {
			if f.Strict {
				t.Errorf("probe_maps: a tool with maps cannot be strict")
			}
			continue
		}
		if !f.Strict {
			t.Errorf("%s: not strict", f.Name)
		}
		var v any
		if err := json.Unmarshal(f.Parameters, &v); err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		keywords(v, seen)
		for k := range seen {
			if !allowed[k] {
				t.Errorf("%s: strict schema keeps %q", f.Name, k)
			}
		}
	}
	params := func(name string) string {
		for _, tool := range req.Tools {
			if tool.Function.Name == name {
				return string(tool.Function.Parameters)
			}
		}
		return ""
	}
	for _, want := range []struct{ tool, text string }{
		{"probe_choices", "at most one of name, id, entry may be given"},
		{"probe_choices", "at most one of text, number may be given"},
		{"probe_numbers", "must not be from 10 to 20"},
		{"probe_numbers", "must not be 0"},
		{"probe_strings", `must match \"!$\"`},
		{"probe_strings", `must not match \"\\\\$\"`},
		{"probe_times", "base64"},
	} {
		if !strings.Contains(params(want.tool), want.text) {
			t.Errorf("%s: strict schema does not say %q:\n%s", want.tool, want.text, params(want.tool))
		}
	}
}

// Anthropic and OpenAI refuse combinators at the root of an input schema;
// the exports word them into the root's description instead.
func TestNoCombinatorsAtTheRoot(t *testing.T) {
	ts := probeToolset(t)
	for _, tool := range export.Anthropic(ts).Tools {
		var root map[string]any
		if err := json.Unmarshal(tool.InputSchema, &root); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"oneOf", "anyOf", "allOf", "not"} {
			if _, ok := root[k]; ok {
				t.Errorf("%s: %s at the root", tool.Name, k)
			}
		}
		if tool.Name == "probe_choices" {
			desc, _ := root["description"].(string)
			if !strings.Contains(desc, "at most one of name, id, entry may be given") || !strings.Contains(desc, "exactly one of fast, careful must be given") {
				t.Errorf("probe_choices: root description %q does not state the oneofs", desc)
			}
		}
	}
}
