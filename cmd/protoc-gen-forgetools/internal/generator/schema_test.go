package generator

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// schemas returns the compiled argument schema of every tool in src.
func schemas(t *testing.T, src sources) map[string]*jsonschema.Schema {
	t.Helper()
	plugin := newPlugin(t, src, "paths=source_relative")
	r, err := newReader(plugin)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*jsonschema.Schema{}
	for _, f := range plugin.Files {
		if !f.Generate {
			continue
		}
		for _, ts := range r.toolsets(f) {
			for _, tool := range ts.tools {
				v, err := jsonschema.UnmarshalJSON(bytes.NewReader(tool.schema.JSON()))
				if err != nil {
					t.Fatal(err)
				}
				c := jsonschema.NewCompiler()
				c.DefaultDraft(jsonschema.Draft2020)
				c.AssertFormat()
				if err := c.AddResource(tool.name+".json", v); err != nil {
					t.Fatal(err)
				}
				s, err := c.Compile(tool.name + ".json")
				if err != nil {
					t.Fatalf("%s: the schema does not compile as draft 2020-12: %v", tool.name, err)
				}
				out[tool.name] = s
			}
		}
	}
	if err := r.problems.err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// The schemas say what the rules say: each case is an argument object and
// whether the rules accept it.
func TestSchemasEnforceTheRules(t *testing.T) {
	kinds := schemas(t, sources{"kinds.proto": {disk: "testdata/kinds/kinds.proto", generate: true}})
	forge := schemas(t, sources{"forgetools/gateway/v1/agent_gateway.proto": {
		disk: "../../../../proto/forgetools/gateway/v1/agent_gateway.proto", generate: true}})
	valid := `"tilt": 3, "gamma": 0.5, "dry_run": true, "seed": 2, "email": "a@b.example", "mode": "fast", "name": "n-abc"`
	for _, tc := range []struct {
		schema *jsonschema.Schema
		args   string
		ok     bool
	}{
		{kinds["kinds_paint"], `{` + valid + `}`, true},
		{kinds["kinds_paint"], `{` + valid + `, "offset": -9000000001}`, false},
		{kinds["kinds_paint"], `{` + valid + `, "offset": -9000000000}`, true},
		{kinds["kinds_paint"], `{` + strings.Replace(valid, `"tilt": 3`, `"tilt": 4`, 1) + `}`, false},
		{kinds["kinds_paint"], `{` + strings.Replace(valid, `"gamma": 0.5`, `"gamma": 0`, 1) + `}`, false},
		{kinds["kinds_paint"], `{` + strings.Replace(valid, `"seed": 2`, `"seed": 4`, 1) + `}`, false},
		{kinds["kinds_paint"], `{` + strings.Replace(valid, `"email": "a@b.example"`, `"email": "nope"`, 1) + `}`, false},
		{kinds["kinds_paint"], `{` + strings.Replace(valid, `"n-abc"`, `"root"`, 1) + `}`, false},
		{kinds["kinds_paint"], `{` + valid + `, "color": "blue"}`, false}, // not_in
		{kinds["kinds_paint"], `{` + valid + `, "color": "secret"}`, false},
		{kinds["kinds_paint"], `{` + valid + `, "palette": ["red", "red"]}`, false},
		{kinds["kinds_paint"], `{` + valid + `, "labels": ["0123456789x"]}`, false},
		{kinds["kinds_paint"], `{` + valid + `, "layer": {"caption": "c", "strokes": []}}`, false},
		{kinds["kinds_paint"], `{` + valid + `, "layer": {"caption": "c", "strokes": [{"width": -5}]}}`, false},
		{kinds["kinds_paint"], `{` + valid + `, "layer": {"caption": "c", "strokes": [{"width": 4, "x": 1}]}}`, false},
		{kinds["kinds_paint"], `{` + valid + `, "layers": [{"caption": "c", "strokes": [{"width": 99}]}]}`, true},
		{kinds["kinds_paint"], `{` + valid + `, "title": ""}`, false},
		{kinds["kinds_paint"], `{` + valid + `, "deltas": [-2]}`, false},
		{kinds["kinds_paint"], `{` + valid + `, "unknown": 1}`, false},
		{forge["forge_get_issue"], `{"repo": "acme/widgets", "issue_number": 1}`, true},
		{forge["forge_get_issue"], `{"repo": " ", "issue_number": 1}`, false},
		{forge["forge_get_issue"], `{"repo": "acme/widgets", "issue_number": 0}`, false},
		{forge["forge_get_issue"], `{"repo": "acme/widgets"}`, false},
		{forge["forge_list_issues"], `{"repo": "r", "limit": 100, "state": "all", "labels": ["bug"]}`, true},
		{forge["forge_list_issues"], `{"repo": "r", "limit": 101}`, false},
		{forge["forge_list_issues"], `{"repo": "r", "labels": [" "]}`, false},
		{forge["forge_submit_review"], `{"repo": "r", "pull_number": 1, "verdict": "approve", "comments": [{"path": "a.go", "line": 3, "side": "LEFT", "body": "x"}]}`, true},
		{forge["forge_submit_review"], `{"repo": "r", "pull_number": 1, "verdict": "changes_requested"}`, false},
		{forge["forge_submit_review"], `{"repo": "r", "pull_number": 1, "verdict": "approve", "comments": [{"path": "a.go", "line": 3}]}`, false},
		{forge["forge_create_issue"], `{"repo": "r", "title": "t", "forge_provider": "linear", "forge_host": "linear.example:8443"}`, true},
		{forge["forge_create_issue"], `{"repo": "r", "title": "t", "forge_host": "https://x"}`, false},
		{forge["forge_create_issue"], `{"repo": "r", "title": "t", "forge_provider": "bitbucket"}`, false},
	} {
		var v any
		if err := json.Unmarshal([]byte(tc.args), &v); err != nil {
			t.Fatal(err)
		}
		err := tc.schema.Validate(v)
		if (err == nil) != tc.ok {
			t.Errorf("%s: valid=%v, want %v (%v)", tc.args, err == nil, tc.ok, err)
		}
	}
}
