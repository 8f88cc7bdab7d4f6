// Package schema_test checks that the two places a tool call is judged
// agree: the JSON Schema the model (and any client-side validator) reads,
// and the runtime that decides whether the call reaches the gateway (the
// generated strict decoder, then protovalidate with the same buf.validate
// rules the schema was derived from).
//
// Every generated input schema must compile as JSON Schema draft 2020-12 in
// a real validator (santhosh-tekuri/jsonschema). Then, for each argument
// case of the corpus (corpus_*_test.go), the schema's verdict and the
// runtime's verdict must both equal the case's expected verdict, except
// where the two legitimately disagree: those cases are listed in
// disagreements below with the reason, and the list must be exact, so a
// fixed gap or a new one both fail until the list is edited.
//
// Both sides use Go's RE2 for "pattern" (santhosh-tekuri compiles patterns
// with regexp; protovalidate's CEL matches() is RE2 too), so \S means the
// same on both: any rune but ASCII space, \t, \n, \f, \r.
package schema_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"google.golang.org/protobuf/proto"

	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1tools"
	"github.com/forgetools/forgetools/runtime"
)

// argCase is one tool call's arguments and whether the runtime accepts them
// (decodes, validates and sends them to the gateway). The runtime's verdict
// is the reference: it is the same rule set the gateway enforces.
type argCase struct {
	tool, name string
	args       string
	valid      bool
}

// disagreement is a corpus case where the schema's verdict is the opposite
// of the runtime's, and why that is right (or a known, reported gap).
type disagreement struct {
	tools  []string
	name   string
	reason string
}

var allTools = []string{
	"forge_get_issue", "forge_get_pull_request", "forge_list_issues",
	"forge_comment_on_issue", "forge_comment_on_pull_request", "forge_submit_review",
	"forge_create_issue", "forge_create_pull_request", "forge_subscribe", "forge_unsubscribe",
	"forge_get_events",
}

var numberedTools = []string{
	"forge_get_issue", "forge_get_pull_request", "forge_comment_on_issue",
	"forge_comment_on_pull_request", "forge_submit_review", "forge_subscribe",
}

var disagreements = []disagreement{
	{
		tools: []string{"forge_submit_review"},
		name:  "request_changes without body",
		reason: "CEL rule review.body_required (body required unless verdict is approve) " +
			"is not expressible in the generated schema; the description states it",
	},
	{
		tools:  []string{"forge_submit_review"},
		name:   "comment with blank body",
		reason: "same CEL rule: a blank body counts as none",
	},
	{
		tools:  []string{"forge_submit_review"},
		name:   "request_changes with empty body",
		reason: "same CEL rule",
	},
	{
		tools: allTools,
		name:  "repeated key",
		reason: "JSON Schema validates the parsed instance, where the last value wins; " +
			"the runtime's decoder refuses an ambiguous object (RFC 8259: names SHOULD be unique)",
	},
	{
		tools: allTools,
		name:  "forge_provider null",
		reason: "the decoder treats null as absent (clients send null for omitted optional " +
			"parameters); the schema keeps the plain type the model should write",
	},
	{
		tools:  []string{"forge_list_issues"},
		name:   "state null",
		reason: "null as absent, as for forge_provider",
	},
	{
		tools:  []string{"forge_submit_review"},
		name:   "comment side null",
		reason: "null as absent, inside a review comment item",
	},
	{
		tools:  []string{"forge_get_events"},
		name:   "after null",
		reason: "null as absent, as for forge_provider",
	},
	{
		tools: []string{"forge_get_events"},
		name:  "subscription_id empty",
		reason: "the rules ignore an empty subscription_id (buf.validate IGNORE_IF_ZERO_VALUE: empty is every " +
			"subscription); the schema keeps the non-blank pattern so the model omits it instead of sending \"\"",
	},
}

// schemas compiles every generated input schema as draft 2020-12.
func schemas(t *testing.T) map[string]*jsonschema.Schema {
	t.Helper()
	out := map[string]*jsonschema.Schema{}
	for _, tool := range gatewayv1tools.ForgeTools.Tools {
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(tool.InputSchema))
		if err != nil {
			t.Fatalf("%s: input schema is not JSON: %v", tool.Name, err)
		}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		c.AssertFormat()
		url := "urn:forgetools:" + tool.Name
		if err := c.AddResource(url, doc); err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		s, err := c.Compile(url)
		if err != nil {
			t.Fatalf("%s: the input schema does not compile as JSON Schema draft 2020-12: %v", tool.Name, err)
		}
		out[tool.Name] = s
	}
	return out
}

func TestSchemasCompile(t *testing.T) {
	if got := len(schemas(t)); got != len(allTools) {
		t.Errorf("compiled %d schemas, want %d", got, len(allTools))
	}
}

// schemaAccepts is the schema's verdict on raw arguments; raw that is not
// one JSON value is refused, as a client-side validator would.
func schemaAccepts(s *jsonschema.Schema, raw string) bool {
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(raw))
	if err != nil {
		return false
	}
	return s.Validate(v) == nil
}

// runtimeVerdict executes the call through a Toolset whose transport only
// records that it was reached: reached means the runtime accepted the
// arguments. A refusal must be the runtime's invalid_argument, not some
// other failure that would make "not reached" mean something else.
func runtimeVerdict(t *testing.T, ts *runtime.Toolset, reached *bool, c argCase) (bool, string) {
	t.Helper()
	*reached = false
	res := ts.Execute(context.Background(), runtime.Call{ID: "call_1", Name: c.tool, Args: []byte(c.args)})
	if *reached {
		return true, ""
	}
	if !res.IsError || !strings.HasPrefix(res.Text, c.tool+" failed: invalid_argument: ") {
		t.Errorf("%s/%s: refused without an invalid_argument failure: %+v", c.tool, c.name, res)
	}
	return false, res.Text
}

func TestSchemaAndRuntimeAgree(t *testing.T) {
	compiled := schemas(t)
	reached := false
	ts, err := runtime.NewToolset(gatewayv1tools.ForgeTools, runtime.NewBroker(runtime.TransportFunc(
		func(context.Context, proto.Message) (proto.Message, error) {
			reached = true
			return nil, errors.New("the agreement test only records that the call was sent")
		})))
	if err != nil {
		t.Fatal(err)
	}

	cases := corpus()
	listed := map[string]string{}
	for _, d := range disagreements {
		for _, tool := range d.tools {
			listed[tool+"/"+d.name] = d.reason
		}
	}
	seen := map[string]bool{}
	for _, c := range cases {
		id := c.tool + "/" + c.name
		if seen[id] {
			t.Fatalf("corpus: case %s appears twice", id)
		}
		seen[id] = true
		s := compiled[c.tool]
		if s == nil {
			t.Fatalf("corpus: %s names no generated tool", id)
		}
		bySchema := schemaAccepts(s, c.args)
		byRuntime, why := runtimeVerdict(t, ts, &reached, c)
		if byRuntime != c.valid {
			t.Errorf("%s: runtime accepts=%v, corpus says %v (%s)\n  args %s", id, byRuntime, c.valid, why, clip(c.args))
		}
		_, disagree := listed[id]
		if wantSchema := c.valid != disagree; bySchema != wantSchema {
			t.Errorf("%s: schema accepts=%v, runtime accepts=%v, listed disagreement=%v\n  args %s",
				id, bySchema, byRuntime, disagree, clip(c.args))
		}
	}
	for _, id := range slices.Sorted(maps.Keys(listed)) {
		if !seen[id] {
			t.Errorf("listed disagreement %s has no corpus case; remove it from the list or add the case", id)
		}
	}

	perTool := map[string]int{}
	for _, c := range cases {
		perTool[c.tool]++
	}
	for _, tool := range allTools {
		t.Logf("%-30s %3d cases", tool, perTool[tool])
		if perTool[tool] < 8 {
			t.Errorf("%s: %d corpus cases, want at least 8", tool, perTool[tool])
		}
	}
	t.Logf("%d cases over %d tools, %d listed disagreements (%d tool/case pairs)",
		len(cases), len(perTool), len(disagreements), len(listed))
}

func clip(s string) string {
	if len(s) > 160 {
		return fmt.Sprintf("%s…(%d bytes)", s[:160], len(s))
	}
	return s
}

// obj is a tool call's arguments as ordered parameter/raw-JSON pairs, so a
// case reads as "the valid call, with this one thing changed".
type obj [][2]string

// set returns o with each key set to its raw JSON value (replaced in place,
// or appended).
func (o obj) set(kv ...string) obj {
	out := slices.Clone(o)
	for i := 0; i+1 < len(kv); i += 2 {
		j := slices.IndexFunc(out, func(p [2]string) bool { return p[0] == kv[i] })
		if j < 0 {
			out = append(out, [2]string{kv[i], kv[i+1]})
		} else {
			out[j][1] = kv[i+1]
		}
	}
	return out
}

// without returns o without the named keys.
func (o obj) without(keys ...string) obj {
	return slices.DeleteFunc(slices.Clone(o), func(p [2]string) bool { return slices.Contains(keys, p[0]) })
}

func (o obj) String() string {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(str(p[0]) + ":" + p[1])
	}
	b.WriteByte('}')
	return b.String()
}

// str is s as a JSON string literal.
func str(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err) // a string always marshals
	}
	return string(b)
}

// repeat is a JSON string of n copies of unit.
func repeat(unit string, n int) string { return str(strings.Repeat(unit, n)) }
