package schema_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"google.golang.org/protobuf/proto"

	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1tools"
	"github.com/forgetools/forgetools/runtime"
)

// servedSets are gateways serving different forges: one, two providers,
// and one provider on two hosts.
var servedSets = map[string][]runtime.Forge{
	"github only":       {{Provider: "github", Host: "github.com"}},
	"linear only":       {{Provider: "linear", Host: "linear.app"}},
	"github and linear": {{Provider: "linear", Host: "linear.app"}, {Provider: "github", Host: "github.com", Default: true}},
	"two githubs and local": {
		{Provider: "github", Host: "github.com", Default: true},
		{Provider: "github", Host: "ghe.example.com"},
		{Provider: "local", Host: "local"},
	},
}

// selectorCases vary only the selector; the verdicts are the schema's and
// the runtime's, which must agree on every one.
var selectorCases = map[string][]string{
	"none":              nil,
	"provider github":   {"forge_provider", `"github"`},
	"provider linear":   {"forge_provider", `"linear"`},
	"provider local":    {"forge_provider", `"local"`},
	"provider gitlab":   {"forge_provider", `"gitlab"`},
	"host github.com":   {"forge_provider", `"github"`, "forge_host", `"github.com"`},
	"host ghe":          {"forge_provider", `"github"`, "forge_host", `"ghe.example.com"`},
	"host elsewhere":    {"forge_provider", `"github"`, "forge_host", `"other.example.com"`},
	"host empty string": {"forge_host", `""`},
}

// TestNarrowedSchemaAndRuntimeAgree: for a toolset narrowed to the forges
// a gateway serves, every schema still compiles, and the schema and the
// runtime give the same verdict on every selector the model could send.
func TestNarrowedSchemaAndRuntimeAgree(t *testing.T) {
	for set, forges := range servedSets {
		reached := false
		ts, err := runtime.NewToolset(gatewayv1tools.ForgeTools, runtime.NewBroker(runtime.TransportFunc(
			func(context.Context, proto.Message) (proto.Message, error) {
				reached = true
				return nil, errors.New("recorded")
			})), runtime.WithForges(forges...))
		if err != nil {
			t.Fatal(err)
		}
		accepted := 0
		for _, tc := range tools {
			tool, ok := ts.Lookup(tc.tool)
			if !ok {
				t.Fatalf("%s: no %s", set, tc.tool)
			}
			s := compile(t, tool)
			for name, kv := range selectorCases {
				c := argCase{tool: tc.tool, name: set + "/" + name, args: tc.base.set(kv...).String()}
				byRuntime, why := runtimeVerdict(t, ts, &reached, c)
				if bySchema := schemaAccepts(s, c.args); bySchema != byRuntime {
					t.Errorf("%s/%s: schema accepts=%v, runtime accepts=%v (%s)\n  args %s", tc.tool, c.name, bySchema, byRuntime, why, c.args)
				}
				if byRuntime {
					accepted++
				}
			}
		}
		if accepted == 0 {
			t.Errorf("%s: no selector case was accepted: the test would prove little", set)
		}
	}
}

func compile(t *testing.T, tool *runtime.Tool) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(tool.InputSchema().String()))
	if err != nil {
		t.Fatalf("%s: %v", tool.Name, err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	url := "urn:forgetools:narrowed:" + tool.Name
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(url)
	if err != nil {
		t.Fatalf("%s: the narrowed schema does not compile: %v", tool.Name, err)
	}
	return s
}
