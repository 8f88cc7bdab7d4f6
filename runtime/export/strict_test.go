package export_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/forgetools/forgetools/runtime/export"
	"github.com/forgetools/forgetools/runtime/schema/schematest"
)

// strictAllowed is OpenAI's strict-mode keyword list, written out again
// here so the test does not trust the code it checks.
var strictAllowed = []string{
	"type", "description", "properties", "required", "additionalProperties", "items", "enum", "const", "anyOf",
	"$ref", "$defs", "pattern", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
	"minItems", "maxItems",
}

// checkStrict walks a schema node and fails on anything strict mode rejects.
func checkStrict(t *testing.T, path string, node map[string]any) {
	t.Helper()
	for k := range node {
		if !slices.Contains(strictAllowed, k) {
			t.Errorf("%s: keyword %q is not allowed in strict mode", path, k)
		}
	}
	if props, ok := node["properties"].(map[string]any); ok || node["type"] == "object" {
		if node["additionalProperties"] != false {
			t.Errorf("%s: additionalProperties is %v, want false", path, node["additionalProperties"])
		}
		var req []string
		for _, r := range node["required"].([]any) {
			req = append(req, r.(string))
		}
		for k, p := range props {
			if !slices.Contains(req, k) {
				t.Errorf("%s: property %q is not required", path, k)
			}
			checkStrict(t, path+"."+k, p.(map[string]any))
		}
	}
	if items, ok := node["items"].(map[string]any); ok {
		checkStrict(t, path+"[]", items)
	}
}

func TestStrictShape(t *testing.T) {
	for _, schema := range []string{getIssueSchema, submitReviewSchema} {
		out, err := export.Strict(schematest.Must(schema))
		if err != nil {
			t.Fatal(err)
		}
		var node map[string]any
		if err := json.Unmarshal(out, &node); err != nil {
			t.Fatal(err)
		}
		checkStrict(t, "$", node)
	}
}

func TestStrictExact(t *testing.T) {
	out, err := export.Strict(schematest.Must(submitReviewSchema))
	if err != nil {
		t.Fatal(err)
	}
	// Property order is kept; optional properties become nullable; dropped
	// keywords are stated in the description.
	want := `{"type":"object","properties":{` +
		`"repo":{"type":"string","description":"Repository (owner/name). (1-200 characters)","pattern":"\\S"},` +
		`"verdict":{"type":"string","description":"Review verdict.","enum":["approve","request_changes","comment"]},` +
		`"body":{"type":["string","null"],"description":"Review summary; required unless verdict is approve. (at most 60000 characters)"},` +
		`"comments":{"type":["array","null"],"description":"Inline comments | on the diff.","maxItems":50,"items":{"type":"object","properties":{` +
		`"path":{"type":"string","description":"File path in the diff. (at least 1 character)","pattern":"\\S"},` +
		`"line":{"type":"integer","description":"Line number in the file.","minimum":1},` +
		`"side":{"type":["string","null"],"description":"Diff side; omitted = RIGHT.","enum":["LEFT","RIGHT",null]}},` +
		`"required":["path","line","side"],"additionalProperties":false}},` +
		`"labels":{"type":["array","null"],"items":{"type":"string","description":"(1-100 characters)"},"description":"(items must be unique)"},` +
		`"title":{"type":["string","null"],"description":"(must not be \"root\"; format: \"uri\"; default \"x\")"},` +
		`"dry_run":{"type":["boolean","null"],"enum":[true,null]}},` +
		`"required":["repo","verdict","body","comments","labels","title","dry_run"],"additionalProperties":false}`
	if string(out) != want {
		t.Errorf("strict schema\n got %s\nwant %s", out, want)
	}
}

// TestStrictAcceptsWhatTheModelSends compiles the strict schema in a real
// JSON Schema validator and checks the instances strict mode makes a model
// send: every key present, null for "omitted".
func TestStrictAcceptsWhatTheModelSends(t *testing.T) {
	out, err := export.Strict(schematest.Must(getIssueSchema))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(out)))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("strict.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("strict.json")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		instance string
		valid    bool
	}{
		{`{"repo":"acme/widgets","issue_number":1,"forge_provider":null,"forge_host":null}`, true},
		{`{"repo":"ENG","issue_number":7,"forge_provider":"linear","forge_host":"linear.app"}`, true},
		{`{"repo":"acme/widgets","issue_number":1}`, false},
		{`{"repo":"acme/widgets","issue_number":1,"forge_provider":null,"forge_host":null,"extra":1}`, false},
		{`{"repo":null,"issue_number":1,"forge_provider":null,"forge_host":null}`, false},
		{`{"repo":"a/b","issue_number":0,"forge_provider":null,"forge_host":null}`, false},
		{`{"repo":"a/b","issue_number":1,"forge_provider":"bitbucket","forge_host":null}`, false},
	}
	for _, tc := range tests {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(tc.instance))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(inst); (err == nil) != tc.valid {
			t.Errorf("%s: valid=%v, want %v (%v)", tc.instance, err == nil, tc.valid, err)
		}
	}
}

func TestStrictRejects(t *testing.T) {
	for _, schema := range []string{`{"type":"string"}`, `{"anyOf":[{"type":"object"}]}`} {
		if _, err := export.Strict(schematest.Must(schema)); err == nil {
			t.Errorf("Strict(%s) accepted", schema)
		}
	}
	if _, err := export.Strict(nil); err == nil {
		t.Error("Strict(nil) accepted")
	}
	_, err := export.Strict(schematest.Must(`{"type":"object","properties":{"labels":{"type":"object","additionalProperties":{"type":"string"}}}}`))
	if !errors.Is(err, export.ErrNotStrict) {
		t.Errorf("Strict of a map: %v, want ErrNotStrict", err)
	}
}

func TestOpenAIStrict(t *testing.T) {
	req, err := export.OpenAIStrict(toolset(t, "Use forges."))
	if err != nil {
		t.Fatal(err)
	}
	if len(req.Tools) != 2 || len(req.Messages) != 1 {
		t.Fatalf("export %+v", req)
	}
	for _, tool := range req.Tools {
		if !tool.Function.Strict || tool.Type != "function" {
			t.Errorf("%s: strict %v type %q", tool.Function.Name, tool.Function.Strict, tool.Type)
		}
		var node map[string]any
		if err := json.Unmarshal(tool.Function.Parameters, &node); err != nil {
			t.Fatal(err)
		}
		checkStrict(t, tool.Function.Name, node)
	}
	b, _ := json.Marshal(req.Tools[0])
	if !strings.Contains(string(b), `"strict":true`) {
		t.Errorf("strict flag not serialised: %s", b)
	}
}
