// Package schema_test checks that the two places a tool call is judged
// agree: the JSON Schema the model (and any client-side validator) reads,
// and the runtime that decides whether the call reaches the gateway (the
// generated strict decoder, then protovalidate with the same buf.validate
// rules the schema was derived from).
//
// Every generated input schema (the forge table and the probe table of
// every field kind and rule, tests/probe) must compile as JSON Schema
// draft 2020-12 in two independent validators: santhosh-tekuri/jsonschema,
// whose patterns are Go's RE2 as the runtime's are, and ajv through node,
// whose patterns are ECMA-262 RegExps with the u flag, as JavaScript MCP
// clients and many model providers read them. Then, for each argument case
// of the corpus (corpus_*_test.go), each validator's verdict and the
// runtime's verdict must equal the case's expected verdict, except where
// they legitimately disagree: those cases are listed in disagreements
// below with the reason (and the validator, when only one disagrees), and
// the list must be exact, so a fixed gap or a new one both fail until the
// list is edited.
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
	"github.com/forgetools/forgetools/tests/probe/probev1/probev1tools"
)

// argCase is one tool call's arguments and whether the runtime accepts them
// (decodes, validates and sends them to the gateway). The runtime's verdict
// is the reference: it is the same rule set the gateway enforces.
type argCase struct {
	tool, name string
	args       string
	valid      bool
}

// disagreement is a corpus case where a schema validator's verdict is the
// opposite of the runtime's, and why that is right (or a known, reported
// gap). only names the one validator that disagrees; "" is both.
type disagreement struct {
	tools  []string
	name   string
	only   string
	reason string
}

// The two validators.
const (
	re2  = "RE2"
	ecma = "ECMA-262"
)

var allTools = []string{
	"forge_get_issue", "forge_get_pull_request", "forge_get_pull_request_diff", "forge_compare", "forge_list_issues", "forge_list_comments",
	"forge_comment_on_issue", "forge_comment_on_pull_request", "forge_submit_review",
	"forge_list_review_threads", "forge_reply_to_review_thread", "forge_resolve_review_thread",
	"forge_create_issue", "forge_create_pull_request", "forge_update_pull_request", "forge_subscribe", "forge_unsubscribe",
	"forge_get_repo", "forge_search_code", "forge_search_issues",
	"forge_read_file", "forge_list_commits", "forge_list_dir", "forge_list_pull_requests", "forge_list_ci_runs", "forge_get_ci_run",
	"forge_update_issue", "forge_create_branch", "forge_write_file", "forge_commit_files", "forge_merge_pull_request", "forge_trigger_ci", "forge_rerun_ci",
	"forge_get_events",
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
		tools:  []string{"forge_list_issues", "forge_list_pull_requests"},
		name:   "state null",
		reason: "null as absent, as for forge_provider",
	},
	{
		tools:  []string{"forge_list_ci_runs"},
		name:   "status null",
		reason: "null as absent, as for forge_provider",
	},
	{
		tools:  []string{"forge_merge_pull_request"},
		name:   "method null",
		reason: "null as absent, as for forge_provider",
	},
	{
		tools: []string{"forge_commit_files"},
		name:  "a path twice",
		reason: "CEL rule commit_files.distinct_paths (no path twice) is not expressible in the " +
			"generated schema; the description states it",
	},
	{
		tools:  []string{"forge_commit_files"},
		name:   "a delete without expected_sha",
		reason: "CEL rule file_change.delete (a delete needs expected_sha, no content); the description states it",
	},
	{
		tools:  []string{"forge_commit_files"},
		name:   "a delete with content",
		reason: "same CEL rule",
	},
	{
		tools:  []string{"forge_commit_files"},
		name:   "five files over the total",
		reason: "CEL rule commit_files.total_bytes (at most 4000000 content bytes in all); the description states it",
	},
	{
		tools: []string{"forge_update_issue"},
		name:  "nothing to change",
		reason: "CEL rule update_issue.some_change (give at least one field to change) is not " +
			"expressible in the generated schema; the description states it",
	},
	{
		tools:  []string{"forge_update_issue"},
		name:   "only a state reason",
		reason: "same CEL rule: a reason without a state changes nothing",
	},
	{
		tools:  []string{"forge_update_issue"},
		name:   "empty lists change nothing",
		reason: "same CEL rule: empty labels and assignees are no change",
	},
	{
		tools: []string{"forge_update_pull_request"},
		name:  "nothing to change",
		reason: "CEL rule update_pull_request.some_change (give at least one field to change) is not " +
			"expressible in the generated schema; the description states it",
	},
	{
		tools:  []string{"forge_update_pull_request"},
		name:   "ready false changes nothing",
		reason: "same CEL rule: ready false is no change",
	},
	{
		tools:  []string{"forge_read_file"},
		name:   "end_line before start_line",
		reason: "CEL rule read_file.line_order is not expressible in the generated schema; the description states it",
	},
	{
		tools:  []string{"forge_submit_review"},
		name:   "comment side null",
		reason: "null as absent, inside a review comment item",
	},
	{
		tools:  []string{"forge_submit_review"},
		name:   "request_changes with a no-break space body",
		reason: "the review's CEL rule again: its non-blank test is Unicode-aware like the pattern",
	},
	{
		tools:  []string{"forge_get_events"},
		name:   "after null",
		reason: "null as absent, as for forge_provider",
	},

	// The probe table.
	{
		tools: []string{"probe_numbers"},
		name:  "int64 above its range", only: ecma,
		reason: "JavaScript reads JSON numbers as doubles: 2^63 and the maximum 2^63-1 are the same double, " +
			"so ajv cannot see the excess; RE2-side validators compare exactly",
	},
	{
		tools: []string{"probe_numbers"},
		name:  "uint64 above its range", only: ecma,
		reason: "as for int64: 2^64 and 2^64-1 are one double",
	},
	{
		tools: []string{"probe_strings"},
		name:  "note over max bytes in fewer characters",
		reason: "max_bytes is a maxLength over characters, an over-approximation (a character is 1 to 4 bytes); " +
			"the byte bound is stated in the description",
	},
	{
		tools: []string{"probe_strings"},
		name:  "memo under min bytes",
		reason: "min_bytes is a minLength over characters, an under-approximation (4 bytes may be 1 character); " +
			"the byte bound is stated in the description",
	},
	{
		tools:  []string{"probe_strings"},
		name:   "wide with the wrong byte length",
		reason: "len_bytes is a range of character lengths in the schema, the exact byte count in the description",
	},
	{
		tools:  []string{"probe_strings"},
		name:   "hostport without a port",
		reason: "host_and_port has no JSON Schema form; the description states it",
	},
	{
		tools: []string{"probe_times"},
		name:  "at a leap second",
		reason: "RFC 3339 (format date-time) allows second 60 at the end of a UTC day; " +
			"a protobuf Timestamp cannot hold it, so the runtime refuses it",
	},
	{
		tools:  []string{"probe_times"},
		name:   "wait below its minimum",
		reason: "duration bounds compare values, which a pattern over their text cannot; the description states them",
	},
	{
		tools:  []string{"probe_times"},
		name:   "wait above its maximum",
		reason: "as below its minimum",
	},
	{
		tools:  []string{"probe_times"},
		name:   "wait beyond a Duration",
		reason: "the Duration range (about 10,000 years) is not in the pattern, which bounds the spelling only",
	},
	{
		tools:  []string{"probe_maps"},
		name:   "entries key beyond int32",
		reason: "a property name is text: its pattern says decimal, and no JSON Schema keyword bounds the number it spells",
	},
	{
		tools:  []string{"probe_choices"},
		name:   "target null beside another",
		reason: "null as absent: the runtime sees one member; the schema's at-most-one counts a key given as null",
	},
}

// tables are the generated tables under test.
var tables = []*runtime.Table{gatewayv1tools.ForgeTools, probev1tools.ProbeTools}

// schemas compiles every generated input schema as draft 2020-12 under
// RE2 patterns.
func schemas(t *testing.T) map[string]*jsonschema.Schema {
	t.Helper()
	out := map[string]*jsonschema.Schema{}
	for _, table := range tables {
		for _, tool := range table.Tools {
			doc, err := jsonschema.UnmarshalJSON(strings.NewReader(tool.InputSchema().String()))
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
	}
	return out
}

func TestSchemasCompile(t *testing.T) {
	want := 0
	for _, table := range tables {
		want += len(table.Tools)
	}
	if got := len(schemas(t)); got != want || want != len(allTools)+5 {
		t.Errorf("compiled %d schemas of %d tools, want %d", got, want, len(allTools)+5)
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
	toolsets := map[string]*runtime.Toolset{}
	for _, table := range tables {
		ts, err := runtime.NewToolset(table, runtime.NewBroker(runtime.TransportFunc(
			func(context.Context, proto.Message) (proto.Message, error) {
				reached = true
				return nil, errors.New("the agreement test only records that the call was sent")
			})))
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range table.Tools {
			toolsets[tool.Name] = ts
		}
	}

	cases := append(corpus(), probeCorpus()...)
	ecmaVerdicts := ecmaVerdicts(t, cases)
	listed := map[string]map[string]string{re2: {}, ecma: {}} // validator -> case id -> reason
	for _, d := range disagreements {
		for _, tool := range d.tools {
			for _, v := range []string{re2, ecma} {
				if d.only == "" || d.only == v {
					listed[v][tool+"/"+d.name] = d.reason
				}
			}
		}
	}
	seen := map[string]bool{}
	for i, c := range cases {
		id := c.tool + "/" + c.name
		if seen[id] {
			t.Fatalf("corpus: case %s appears twice", id)
		}
		seen[id] = true
		s := compiled[c.tool]
		if s == nil {
			t.Fatalf("corpus: %s names no generated tool", id)
		}
		byRuntime, why := runtimeVerdict(t, toolsets[c.tool], &reached, c)
		if byRuntime != c.valid {
			t.Errorf("%s: runtime accepts=%v, corpus says %v (%s)\n  args %s", id, byRuntime, c.valid, why, clip(c.args))
		}
		verdicts := map[string]bool{re2: schemaAccepts(s, c.args)}
		if ecmaVerdicts != nil {
			verdicts[ecma] = ecmaVerdicts[i]
		}
		for v, bySchema := range verdicts {
			_, disagree := listed[v][id]
			if wantSchema := c.valid != disagree; bySchema != wantSchema {
				t.Errorf("%s: %s schema accepts=%v, runtime accepts=%v, listed disagreement=%v\n  args %s",
					id, v, bySchema, byRuntime, disagree, clip(c.args))
			}
		}
	}
	for _, v := range []string{re2, ecma} {
		for _, id := range slices.Sorted(maps.Keys(listed[v])) {
			if !seen[id] {
				t.Errorf("listed disagreement %s (%s) has no corpus case; remove it from the list or add the case", id, v)
			}
		}
	}

	perTool := map[string]int{}
	for _, c := range cases {
		perTool[c.tool]++
	}
	for _, table := range tables {
		for _, tool := range table.Tools {
			t.Logf("%-30s %3d cases", tool.Name, perTool[tool.Name])
			if perTool[tool.Name] < 8 {
				t.Errorf("%s: %d corpus cases, want at least 8", tool.Name, perTool[tool.Name])
			}
		}
	}
	t.Logf("%d cases over %d tools; listed disagreements: %d tool/case pairs under %s, %d under %s",
		len(cases), len(perTool), len(listed[re2]), re2, len(listed[ecma]), ecma)
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
