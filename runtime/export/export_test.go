package export_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/forgetools/forgetools/runtime"
	"github.com/forgetools/forgetools/runtime/export"
	"github.com/forgetools/forgetools/runtime/schema/schematest"
)

// Schemas in the shape protoc-gen-forgetools emits for the real protos.
const (
	getIssueSchema = `{
  "type": "object",
  "properties": {
    "repo": {"type": "string", "description": "Repository (owner/name) or Linear team key.", "minLength": 1, "maxLength": 200, "pattern": "\\S"},
    "issue_number": {"type": "integer", "description": "Issue number.", "minimum": 1},
    "forge_provider": {"type": "string", "description": "Forge to act on; omit for the default forge.", "enum": ["github", "gitlab", "linear"]},
    "forge_host": {"type": "string", "description": "Forge instance host.", "maxLength": 253, "pattern": "^[a-z.]*$"}
  },
  "required": ["repo", "issue_number"],
  "additionalProperties": false
}`
	submitReviewSchema = `{
  "type": "object",
  "properties": {
    "repo": {"type": "string", "description": "Repository (owner/name).", "minLength": 1, "maxLength": 200, "pattern": "\\S"},
    "verdict": {"type": "string", "description": "Review verdict.", "enum": ["approve", "request_changes", "comment"]},
    "body": {"type": "string", "description": "Review summary; required unless verdict is approve.", "maxLength": 60000},
    "comments": {
      "type": "array",
      "description": "Inline comments | on the diff.",
      "maxItems": 50,
      "items": {
        "type": "object",
        "properties": {
          "path": {"type": "string", "description": "File path in the diff.", "minLength": 1, "pattern": "\\S"},
          "line": {"type": "integer", "description": "Line number in the file.", "minimum": 1},
          "side": {"type": "string", "description": "Diff side; omitted = RIGHT.", "enum": ["LEFT", "RIGHT"]}
        },
        "required": ["path", "line"],
        "additionalProperties": false
      }
    },
    "labels": {"type": "array", "uniqueItems": true, "items": {"type": "string", "minLength": 1, "maxLength": 100}},
    "title": {"type": "string", "not": {"enum": ["root"]}, "format": "uri", "default": "x"},
    "dry_run": {"type": "boolean", "const": true}
  },
  "required": ["repo", "verdict"],
  "additionalProperties": false
}`
)

func tool(name string, approval runtime.Approval, hints runtime.Hints, schema string) *runtime.Tool {
	return &runtime.Tool{
		Name: name, Description: "Does " + name + ". Second sentence.", Approval: approval, Hints: hints, InputSchema: schematest.Func(schema),
		Decode: func([]byte) (runtime.Args, error) { return runtime.Args{}, nil },
		Build:  func(runtime.Args, runtime.Envelope) proto.Message { return nil },
	}
}

func toolset(t *testing.T, instructions string, opts ...runtime.Option) *runtime.Toolset {
	t.Helper()
	table := &runtime.Table{
		Name: "forge",
		Tools: []*runtime.Tool{
			tool("forge_get_issue", runtime.ApprovalRead, runtime.Hints{ReadOnly: true, Idempotent: true, OpenWorld: true}, getIssueSchema),
			tool("forge_submit_review", runtime.ApprovalWrite, runtime.Hints{Destructive: true, OpenWorld: true}, submitReviewSchema),
		},
	}
	if instructions != "" {
		table.Instructions = []runtime.Guidance{{Text: instructions}}
	}
	ts, err := runtime.NewToolset(table, runtime.NewBroker(nil), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// roundTrip marshals v and decodes it generically, as an API server would.
func roundTrip(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func keys(m map[string]any) []string {
	var k []string
	for key := range m {
		k = append(k, key)
	}
	slices.Sort(k)
	return k
}

func schemaOf(t *testing.T, s string) any {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestMCP(t *testing.T) {
	m := roundTrip(t, export.MCP(toolset(t, "Use forges.")))
	if m["instructions"] != "Use forges." {
		t.Errorf("instructions %v", m["instructions"])
	}
	tools := m["tools"].([]any)
	if len(tools) != 2 {
		t.Fatalf("%d tools", len(tools))
	}
	read := tools[0].(map[string]any)
	if got := keys(read); !slices.Equal(got, []string{"annotations", "description", "inputSchema", "name"}) {
		t.Errorf("tool keys %v", got)
	}
	want := map[string]any{"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": true}
	if !reflect.DeepEqual(read["annotations"], want) {
		t.Errorf("annotations %v, want %v", read["annotations"], want)
	}
	if !reflect.DeepEqual(read["inputSchema"], schemaOf(t, getIssueSchema)) {
		t.Error("inputSchema is not the tool's schema")
	}
	if w := tools[1].(map[string]any)["annotations"].(map[string]any); w["readOnlyHint"] != false || w["destructiveHint"] != true {
		t.Errorf("write annotations %v", w)
	}

	ro := roundTrip(t, export.MCP(toolset(t, "", runtime.WithReadOnly())))
	if _, ok := ro["instructions"]; ok || len(ro["tools"].([]any)) != 1 {
		t.Errorf("read-only export: %v", ro)
	}
}

func TestOpenAIAndAnthropic(t *testing.T) {
	ts := toolset(t, "Use forges.", runtime.WithDeny("forge_submit_review"))
	oa := roundTrip(t, export.OpenAI(ts))
	wantMsg := []any{map[string]any{"role": "system", "content": "# forge tools\n\nUse forges."}}
	if !reflect.DeepEqual(oa["messages"], wantMsg) {
		t.Errorf("openai messages %v", oa["messages"])
	}
	wantTool := map[string]any{"type": "function", "function": map[string]any{
		"name": "forge_get_issue", "description": "Does forge_get_issue. Second sentence.", "parameters": schemaOf(t, getIssueSchema),
	}}
	if tools := oa["tools"].([]any); len(tools) != 1 || !reflect.DeepEqual(tools[0], wantTool) {
		t.Errorf("openai tools %v", oa["tools"])
	}

	an := roundTrip(t, export.Anthropic(ts))
	if want := []any{map[string]any{"type": "text", "text": "# forge tools\n\nUse forges."}}; !reflect.DeepEqual(an["system"], want) {
		t.Errorf("anthropic system %v", an["system"])
	}
	wantAn := map[string]any{"name": "forge_get_issue", "description": "Does forge_get_issue. Second sentence.", "input_schema": schemaOf(t, getIssueSchema)}
	if tools := an["tools"].([]any); len(tools) != 1 || !reflect.DeepEqual(tools[0], wantAn) {
		t.Errorf("anthropic tools %v", an["tools"])
	}

	bare := toolset(t, "")
	if _, ok := roundTrip(t, export.OpenAI(bare))["messages"]; ok {
		t.Error("openai export has a system message without instructions")
	}
	if _, ok := roundTrip(t, export.Anthropic(bare))["system"]; ok {
		t.Error("anthropic export has a system block without instructions")
	}
}

// The Responses API takes flat function tools and top-level instructions;
// its tools are strict, so the schemas are the strict rewrite.
func TestOpenAIResponses(t *testing.T) {
	ts := toolset(t, "Use forges.", runtime.WithDeny("forge_submit_review"))
	req, err := export.OpenAIResponses(ts)
	if err != nil {
		t.Fatal(err)
	}
	got := roundTrip(t, req)
	if got["instructions"] != "# forge tools\n\nUse forges." {
		t.Errorf("instructions %v", got["instructions"])
	}
	strict, err := export.Strict(schematest.Must(getIssueSchema))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"type": "function", "name": "forge_get_issue", "description": "Does forge_get_issue. Second sentence.",
		"parameters": schemaOf(t, string(strict)), "strict": true,
	}
	if tools := got["tools"].([]any); len(tools) != 1 || !reflect.DeepEqual(tools[0], want) {
		t.Errorf("responses tools %v\nwant %v", got["tools"], want)
	}
	if _, ok := roundTrip(t, must(export.OpenAIResponses(toolset(t, ""))))["instructions"]; ok {
		t.Error("responses export has instructions without any")
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
