package generator

import (
	"os"
	"strings"
	"testing"
)

// Each refusal rule, as an edit to the minimal table that breaks exactly
// that rule. The generator must emit nothing and point at the proto line
// (1-based) that causes the problem: the option field itself where the
// compiler records it (buf does), else the option or the field.
func TestRefusals(t *testing.T) {
	base, err := os.ReadFile("testdata/minimal/minimal.proto")
	if err != nil {
		t.Fatal(err)
	}
	const anotherArm = `      capability: "pings" action_class: "net:ping" risk: RISK_HIGH
    }];
`
	for _, tc := range []struct {
		name  string
		edits []string // old, new, old, new, ...
		want  string
	}{{
		name: "duplicate tool name",
		edits: []string{anotherArm, anotherArm + `    PingRequest ping_again = 4 [(forgetools.options.v1.tool) = {
      name: "mini_ping"
      approval: APPROVAL_READ
      description: "Ping again."
      result: "pong"
      capability: "pings"
    }];
`},
		want: `minimal.proto:35: duplicate tool name "mini_ping" (also on ping)`,
	}, {
		name:  "ack placeholder naming no field",
		edits: []string{`{host} {count} times`, `{hostname} {count} times`},
		want:  `minimal.proto:31: mini_ping: ack placeholder {hostname} names no field of minimal.v1.Pong`,
	}, {
		name:  "unbalanced ack",
		edits: []string{`{host} {count} times`, `{host} {count times`},
		want:  `minimal.proto:31: mini_ping: ack "Pinged {host} {count times" has an unbalanced brace`,
	}, {
		name:  "result arm that does not exist",
		edits: []string{`result: "pong"`, `result: "pongs"`},
		want:  `minimal.proto:30: mini_ping: result arm "pongs" does not exist in minimal.v1.Outcome.result`,
	}, {
		name:  "result arm that is the error arm",
		edits: []string{`result: "pong"`, `result: "failure"`},
		want:  `minimal.proto:30: mini_ping: result arm "failure" is the error arm`,
	}, {
		name:  "missing description",
		edits: []string{`      description: "Ping a host."` + "\n", ``},
		want:  `minimal.proto:25: mini_ping: missing description`,
	}, {
		name:  "parameter colliding with the selector",
		edits: []string{`(forgetools.options.v1.param).description = "Host to ping.",`, `(forgetools.options.v1.param) = {name: "forge_provider"},`},
		want:  `minimal.proto:42: mini_ping: parameter "forge_provider" collides with the selector parameter of Call.forge`,
	}, {
		name:  "arm without tool options",
		edits: []string{anotherArm, anotherArm + "    PingRequest bare = 4;\n"},
		want:  `minimal.proto:34: arm bare has no (forgetools.options.v1.tool) options`,
	}, {
		name:  "missing approval",
		edits: []string{"      approval: APPROVAL_PUSH\n", ""},
		want:  `minimal.proto:25: mini_ping: missing approval (APPROVAL_READ, APPROVAL_WRITE or APPROVAL_PUSH)`,
	}, {
		name:  "unknown risk",
		edits: []string{"risk: RISK_HIGH", "risk: 7"},
		want:  `minimal.proto:32: mini_ping: unknown risk 7 (RISK_LOW, RISK_MEDIUM or RISK_HIGH)`,
	}, {
		name:  "unknown snippet",
		edits: []string{`snippets: ["care"]`, `snippets: ["careful"]`},
		want:  `minimal.proto:29: snippet "careful" is not defined by the toolset`,
	}, {
		name:  "unknown instruction snippet",
		edits: []string{`instructions: "Ping hosts."`, `instruction_snippets: ["gentle"]`},
		want:  `minimal.proto:22: snippet "gentle" is not defined by the toolset`,
	}, {
		name:  "conditional snippet in a description",
		edits: []string{`{id: "care" text: "Ping gently."}`, `{id: "care" text: "Ping gently." providers: ["github"]}`},
		want:  `minimal.proto:29: snippet "care" has conditions (providers, params): only the toolset instructions can include it`,
	}, {
		name:  "instruction snippet conditional on no selector parameter",
		edits: []string{`snippets: [{id: "care" text: "Ping gently."}]`, `snippets: [{id: "care" text: "Ping gently."}, {id: "host" text: "Hosts." params: ["forge_host"]}] instruction_snippets: ["host"]`},
		want:  `minimal.proto:23: snippet "host": "forge_host" is not a selector parameter`,
	}, {
		name:  "instruction snippet conditional on an unknown provider",
		edits: []string{`snippets: [{id: "care" text: "Ping gently."}]`, `snippets: [{id: "care" text: "Ping gently."}, {id: "bb" text: "Bitbucket." providers: ["bitbucket"]}] instruction_snippets: ["bb"]`},
		want:  `minimal.proto:23: snippet "bb": provider "bitbucket" is not a value of the selector`,
	}, {
		name:  "replay_ack without ack",
		edits: []string{`ack: "Pinged {host} {count} times"`, `replay_ack: "Already pinged {host}"`, "  uint32 count = 2;\n}", "  uint32 count = 2;\n  string url = 3;\n}"},
		want:  `minimal.proto:31: mini_ping: replay_ack without an ack`,
	}, {
		name:  "replay_ack without a url",
		edits: []string{`ack: "Pinged {host} {count} times"`, `ack: "Pinged {host}" replay_ack: "Already pinged {host}"`},
		want:  `minimal.proto:31: mini_ping: replay_ack needs a string url field in minimal.v1.Pong (an empty url marks the replay)`,
	}, {
		name:  "selector without params",
		edits: []string{`    params: [{key: "provider" value: "forge_provider"}]` + "\n", ""},
		want:  `minimal.proto:35: FORGE_SELECTOR field forge names no params (selector field -> flat parameter name)`,
	}, {
		name:  "selector param naming no field",
		edits: []string{`{key: "provider" value: "forge_provider"}`, `{key: "provider" value: "forge_provider"}, {key: "port" value: "forge_port"}`},
		want:  `minimal.proto:35: params key "port" is not a field of forgetools.forge.v1.ForgeRef`,
	}, {
		name:  "idempotency key without an envelope field",
		edits: []string{`      result: "pong"` + "\n", `      result: "pong"` + "\n      idempotency_key: true\n"},
		want: "minimal.proto:31: mini_ping: idempotency_key is set but Call has no IDEMPOTENCY_KEY envelope field\n" +
			"minimal.proto:31: mini_ping: the gateway records its result as an artifact, but minimal.v1.Pong has no field marked (forgetools.options.v1.artifact) = ARTIFACT_ROLE_REPO\n" +
			"minimal.proto:31: mini_ping: the gateway records its result as an artifact, but minimal.v1.Pong has no field marked (forgetools.options.v1.artifact) = ARTIFACT_ROLE_NUMBER",
	}, {
		name:  "enum without model names",
		edits: []string{`params: [{key: "provider" value: "forge_provider"}]`, `params: [{key: "host" value: "forge_host"}]`, "  optional uint32 count = 2", "  Mood mood = 3;\n  optional uint32 count = 2", "message Pong {", "enum Mood {\n  MOOD_UNSPECIFIED = 0;\n  MOOD_CALM = 1;\n}\n\nmessage Pong {"},
		want:  `minimal.proto:46: enum minimal.v1.Mood offers the model no value: give values a (forgetools.options.v1.value).name`,
	}, {
		name:  "two enum values with one model name",
		edits: []string{"  optional uint32 count = 2", "  Mood mood = 3;\n  optional uint32 count = 2", "message Pong {", "enum Mood {\n  MOOD_UNSPECIFIED = 0;\n  MOOD_CALM = 1 [(forgetools.options.v1.value).name = \"calm\"];\n  MOOD_SERENE = 2 [(forgetools.options.v1.value).name = \"calm\"];\n}\n\nmessage Pong {"},
		want:  `minimal.proto:53: MOOD_SERENE has the model name "calm" of MOOD_CALM too; each value needs its own`,
	}, {
		name:  "a pattern that does not compile",
		edits: []string{"  optional uint32 count = 2", "  string zone = 3 [(buf.validate.field).string.pattern = \"a(\"];\n  optional uint32 count = 2"},
		want:  `minimal.proto:46: minimal.v1.PingRequest.zone: pattern "a(" does not compile: error parsing regexp: missing closing ): ` + "`a(`",
	}, {
		name:  "a pattern with no portable form",
		edits: []string{"  optional uint32 count = 2", "  string zone = 3 [(buf.validate.field).string.pattern = \"(?m)^a\"];\n  optional uint32 count = 2"},
		want:  `minimal.proto:46: minimal.v1.PingRequest.zone: pattern "(?m)^a" has no form that RE2 and ECMA-262 read alike: ^ under (?m) matches at line breaks, which ECMA-262 cannot say without a flag`,
	}, {
		name:  "rules for another type",
		edits: []string{"  optional uint32 count = 2", "  uint32 zone = 3 [(buf.validate.field).string.min_len = 1];\n  optional uint32 count = 2"},
		want:  `minimal.proto:46: minimal.v1.PingRequest.zone: (buf.validate.field).string rules on a uint32 field`,
	}, {
		name:  "item rules for another type",
		edits: []string{"  optional uint32 count = 2", "  repeated string zones = 3 [(buf.validate.field).repeated.items.int32.gte = 1];\n  optional uint32 count = 2"},
		want:  `minimal.proto:46: minimal.v1.PingRequest.zones: items: (buf.validate.field).int32 rules on a string field`,
	}, {
		name:  "every problem of a message, each at its field",
		edits: []string{"  optional uint32 count = 2", "  uint32 zone = 3 [(buf.validate.field).string.min_len = 1];\n  string area = 4 [(buf.validate.field).string.pattern = \"(\"];\n  optional uint32 count = 2"},
		want: "minimal.proto:46: minimal.v1.PingRequest.zone: (buf.validate.field).string rules on a uint32 field\n" +
			`minimal.proto:47: minimal.v1.PingRequest.area: pattern "(" does not compile: error parsing regexp: missing closing ): ` + "`(`",
	}, {
		name:  "a CEL rule that does not compile",
		edits: []string{"  optional uint32 count = 2", "  string zone = 3 [(buf.validate.field).cel = {id: \"z\" expression: \"this.nope()\"}];\n  optional uint32 count = 2"},
		want:  `minimal.proto:46: minimal.v1.PingRequest.zone: the buf.validate rules do not compile: failed to compile expression z: ERROR: <input>:1:10: undeclared reference to 'nope' (in container '')`,
	}, {
		name:  "two CEL rules that do not compile, each at its field",
		edits: []string{"  optional uint32 count = 2", "  string zone = 3 [(buf.validate.field).cel = {id: \"z\" expression: \"this.nope()\"}];\n  string area = 4 [(buf.validate.field).cel = {id: \"a\" expression: \"1 +\"}];\n  optional uint32 count = 2"},
		want: "minimal.proto:46: minimal.v1.PingRequest.zone: the buf.validate rules do not compile: failed to compile expression z: ERROR: <input>:1:10: undeclared reference to 'nope' (in container '')\n" +
			"minimal.proto:47: minimal.v1.PingRequest.area: the buf.validate rules do not compile: failed to compile expression a: ERROR: <input>:1:4: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}",
	}, {
		name:  "a message CEL rule that does not compile",
		edits: []string{"message PingRequest {", "message PingRequest {\n  option (buf.validate.message).cel = {id: \"m\" expression: \"this.nope\"};"},
		want:  `minimal.proto:42: the buf.validate rules of minimal.v1.PingRequest do not compile: failed to compile expression m: ERROR: <input>:1:5: undefined field 'nope'`,
	}, {
		name:  "a Struct",
		edits: []string{`import "buf/validate/validate.proto";`, "import \"buf/validate/validate.proto\";\nimport \"google/protobuf/struct.proto\";", "  optional uint32 count = 2", "  google.protobuf.Struct meta = 3;\n  optional uint32 count = 2"},
		want:  `minimal.proto:47: minimal.v1.PingRequest.meta is a google.protobuf.Struct, which has no fixed shape, and a tool parameter needs a schema the model can follow and the runtime can check; use a message, or a map<string, string>`,
	}, {
		name:  "a recursive message",
		edits: []string{"  optional uint32 count = 2", "  Node node = 3;\n  optional uint32 count = 2", "message Pong {", "message Node {\n  repeated Node children = 1;\n}\n\nmessage Pong {"},
		want:  `minimal.proto:50: minimal.v1.Node is recursive: a tool parameter cannot nest it in itself, since the model needs a schema of finite depth; break the cycle`,
	}, {
		name:  "a deprecated field the rules require",
		edits: []string{"  optional uint32 count = 2", "  string zone = 3 [deprecated = true, (buf.validate.field).string.min_len = 1];\n  optional uint32 count = 2"},
		want:  `minimal.proto:46: minimal.v1.PingRequest.zone is deprecated and left out of the tool, but its rules require it; set (forgetools.options.v1.param).expose_deprecated or drop the rule`,
	}, {
		name:  "agent text in a map",
		edits: []string{"  optional uint32 count = 2", "  map<string, string> notes = 3 [(forgetools.options.v1.param).agent_text = true];\n  optional uint32 count = 2"},
		want:  `minimal.proto:46: agent_text is set on minimal.v1.PingRequest.notes, which is not a string (or a list, oneof member or StringValue of strings)`,
	}, {
		name:  "capability not in snake case",
		edits: []string{`capability: "pings"`, `capability: "Pings"`},
		want:  `minimal.proto:32: mini_ping: capability "Pings" must be lower snake case, e.g. "issues" (the provider capability the arm belongs to)`,
	}, {
		name:  "owned result without artifact roles",
		edits: []string{`      result: "pong"` + "\n", `      result: "pong"` + "\n      owns_result: true\n"},
		want: "minimal.proto:31: mini_ping: the gateway records its result as an artifact, but minimal.v1.Pong has no field marked (forgetools.options.v1.artifact) = ARTIFACT_ROLE_REPO\n" +
			"minimal.proto:31: mini_ping: the gateway records its result as an artifact, but minimal.v1.Pong has no field marked (forgetools.options.v1.artifact) = ARTIFACT_ROLE_NUMBER",
	}, {
		name:  "artifact role on a field of the wrong type",
		edits: []string{`      result: "pong"` + "\n", `      result: "pong"` + "\n      owns_result: true\n", "  string host = 1;\n  uint32 count = 2;\n}", "  string host = 1 [(forgetools.options.v1.artifact) = ARTIFACT_ROLE_REPO];\n  uint32 count = 2 [(forgetools.options.v1.artifact) = ARTIFACT_ROLE_ID];\n}"},
		want: "minimal.proto:52: ARTIFACT_ROLE_ID field minimal.v1.Pong.count must be a singular string\n" +
			"minimal.proto:31: mini_ping: the gateway records its result as an artifact, but minimal.v1.Pong has no field marked (forgetools.options.v1.artifact) = ARTIFACT_ROLE_NUMBER",
	}, {
		name:  "scope on a number",
		edits: []string{`  optional uint32 count = 2 [`, `  optional uint32 count = 2 [(forgetools.options.v1.param).scope = SCOPE_REPOSITORY, `},
		want:  `minimal.proto:46: mini_ping: scope field count must be a plain string`,
	}, {
		name:  "two scope fields",
		edits: []string{`(forgetools.options.v1.param).description = "Host to ping.",`, `(forgetools.options.v1.param) = {description: "Host to ping." scope: SCOPE_REPOSITORY},`, "  optional uint32 count = 2", "  string zone = 3 [(forgetools.options.v1.param).scope = SCOPE_REPOSITORY];\n  optional uint32 count = 2"},
		want:  `minimal.proto:46: mini_ping: zone is a second scope field (first: host)`,
	}, {
		name:  "scope in a nested message",
		edits: []string{"  optional uint32 count = 2", "  Via via = 3;\n  optional uint32 count = 2", "message Pong {", "message Via {\n  string hop = 1 [(forgetools.options.v1.param).scope = SCOPE_REPOSITORY];\n}\n\nmessage Pong {"},
		want:  `minimal.proto:51: scope is set on minimal.v1.Via.hop, a field of a nested message; only a top-level field of an arm request scopes the call`,
	}, {
		name:  "a repository scope on a tool",
		edits: []string{`      capability: "pings" `, `      capability: "pings" scope: SCOPE_REPOSITORY `},
		want:  `minimal.proto:32: mini_ping: (tool).scope is SCOPE_REPOSITORY; only SCOPE_OWN_STATE or SCOPE_ACCOUNT_REPOSITORIES goes on a tool (a repository or a subscription is named by a field with (param).scope)`,
	}, {
		name: "own state for a scope field that is never empty",
		edits: []string{`      capability: "pings" `, `      capability: "pings" scope: SCOPE_OWN_STATE `,
			`(forgetools.options.v1.param).description = "Host to ping.",`, `(forgetools.options.v1.param) = {description: "Host to ping." scope: SCOPE_SUBSCRIPTION},`},
		want: `minimal.proto:32: mini_ping: (tool).scope SCOPE_OWN_STATE applies when host is empty, but host is required`,
	}, {
		name: "the account's repositories for a call scoped by a subscription",
		edits: []string{`      capability: "pings" `, `      capability: "pings" scope: SCOPE_ACCOUNT_REPOSITORIES `,
			`(forgetools.options.v1.param).description = "Host to ping.",`, `(forgetools.options.v1.param) = {description: "Host to ping." scope: SCOPE_SUBSCRIPTION},`},
		want: "minimal.proto:32: mini_ping: (tool).scope SCOPE_ACCOUNT_REPOSITORIES needs a read arm with a SCOPE_REPOSITORY field\n" +
			"minimal.proto:32: mini_ping: (tool).scope SCOPE_ACCOUNT_REPOSITORIES applies when host is empty, but host is required",
	}, {
		name:  "own state on a field",
		edits: []string{`(forgetools.options.v1.param).description = "Host to ping.",`, `(forgetools.options.v1.param) = {description: "Host to ping." scope: SCOPE_OWN_STATE},`},
		want:  `minimal.proto:42: mini_ping: host has (param).scope SCOPE_OWN_STATE, which names no field: set it as (tool).scope`,
	}, {
		name:  "attribution on text the agent did not write",
		edits: []string{`(forgetools.options.v1.param).description = "Host to ping.",`, `(forgetools.options.v1.param) = {description: "Host to ping." attribution: ATTRIBUTION_STAMP},`},
		want:  `minimal.proto:42: attribution is set on minimal.v1.PingRequest.host, which is not a singular agent_text string`,
	}, {
		name:  "repo_path on a number",
		edits: []string{"optional uint32 count = 2 [", "optional uint32 count = 2 [(forgetools.options.v1.param).repo_path = true, "},
		want:  `minimal.proto:46: repo_path is set on minimal.v1.PingRequest.count, which is not a plain string (or list of strings)`,
	}, {
		name:  "git_ref on a number",
		edits: []string{"optional uint32 count = 2 [", "optional uint32 count = 2 [(forgetools.options.v1.param).git_ref = true, "},
		want:  `minimal.proto:46: git_ref is set on minimal.v1.PingRequest.count, which is not a string (or optional string, or list of strings)`,
	}, {
		name:  "result without an error arm",
		edits: []string{`    Failure failure = 2 [(forgetools.options.v1.result).error = true];`, `    Failure failure = 2;`},
		want:  `minimal.proto:60: result oneof minimal.v1.Outcome.result has no error arm: the gateway answers failures in-band, so mark one arm (forgetools.options.v1.result).error`,
	}, {
		name:  "claim parsed from no string field",
		edits: []string{"  string host = 1;\n  uint32 count = 2;\n}", "  string host = 1;\n  uint32 count = 2;\n  forgetools.forge.v1.Attribution by = 3 [(forgetools.options.v1.render) = {as: RENDER_CLAIM claim_from: \"count\"}];\n}"},
		want:  `minimal.proto:52: claim_from "count" of minimal.v1.Pong.by must name a singular string field of minimal.v1.Pong`,
	}, {
		name:  "claim into a field that is not an attribution",
		edits: []string{"  string host = 1;\n  uint32 count = 2;\n}", "  string host = 1;\n  uint32 count = 2;\n  string by = 3 [(forgetools.options.v1.render) = {as: RENDER_CLAIM claim_from: \"host\"}];\n}"},
		want:  `minimal.proto:52: claim field minimal.v1.Pong.by must be a singular forgetools.forge.v1.Attribution`,
	}, {
		name:  "group name not in snake case",
		edits: []string{`instructions: "Ping hosts."`, `instructions: "Ping hosts." groups: [{name: "Net"}]`},
		want:  `minimal.proto:22: group name "Net" must be lower snake case, e.g. "issue"`,
	}, {
		name:  "group defined twice",
		edits: []string{`instructions: "Ping hosts."`, `instructions: "Ping hosts." groups: [{name: "net"}, {name: "net"}]`, `risk: RISK_HIGH`, `risk: RISK_HIGH group: "net" action: "ping"`},
		want:  `minimal.proto:22: group "net" is defined twice`,
	}, {
		name:  "group tool name too long",
		edits: []string{`instructions: "Ping hosts."`, `instructions: "Ping hosts." groups: [{name: "` + strings.Repeat("n", 60) + `"}]`},
		want:  `minimal.proto:22: group "` + strings.Repeat("n", 60) + `": tool name "mini_` + strings.Repeat("n", 60) + `" must be 1-64 of [a-zA-Z0-9_-]`,
	}, {
		name:  "group without actions",
		edits: []string{`instructions: "Ping hosts."`, `instructions: "Ping hosts." groups: [{name: "net"}]`},
		want:  `minimal.proto:22: group "net" has no actions: no arm names it in (tool).group`,
	}, {
		name:  "group without action",
		edits: []string{`instructions: "Ping hosts."`, `instructions: "Ping hosts." groups: [{name: "net"}]`, `risk: RISK_HIGH`, `risk: RISK_HIGH group: "net"`},
		want: `minimal.proto:32: mini_ping: group "net" and action "" go together: set both or neither` + "\n" +
			`minimal.proto:22: group "net" has no actions: no arm names it in (tool).group`,
	}, {
		name:  "undefined group",
		edits: []string{`risk: RISK_HIGH`, `risk: RISK_HIGH group: "net" action: "ping"`},
		want:  `minimal.proto:32: mini_ping: group "net" is not defined by the toolset (ToolsetOptions.groups)`,
	}, {
		name:  "action named like the action parameter",
		edits: []string{`instructions: "Ping hosts."`, `instructions: "Ping hosts." groups: [{name: "net"}]`, `risk: RISK_HIGH`, `risk: RISK_HIGH group: "net" action: "action"`},
		want: `minimal.proto:32: mini_ping: action "action" must be lower snake case, e.g. "get", and not "action"` + "\n" +
			`minimal.proto:22: group "net" has no actions: no arm names it in (tool).group`,
	}, {
		name: "action taken twice in a group",
		edits: []string{`instructions: "Ping hosts."`, `instructions: "Ping hosts." groups: [{name: "net"}]`,
			anotherArm, anotherArm + `    PingRequest ping_again = 4 [(forgetools.options.v1.tool) = {
      name: "mini_ping_again" approval: APPROVAL_READ description: "Ping again." result: "pong" capability: "pings"
      group: "net" action: "ping"
    }];
`, `risk: RISK_HIGH`, `risk: RISK_HIGH group: "net" action: "ping"`},
		want: `minimal.proto:36: mini_ping_again: group "net" has the action "ping" already (on mini_ping)`,
	}, {
		name:  "request parameter named action",
		edits: []string{`instructions: "Ping hosts."`, `instructions: "Ping hosts." groups: [{name: "net"}]`, `risk: RISK_HIGH`, `risk: RISK_HIGH group: "net" action: "ping"`, `(forgetools.options.v1.param).description = "Host to ping.",`, `(forgetools.options.v1.param) = {name: "action"},`},
		want:  `minimal.proto:42: mini_ping: parameter "action" collides with the grouped tool's action parameter`,
	}, {
		name:  "tool named like a grouped tool",
		edits: []string{`instructions: "Ping hosts."`, `instructions: "Ping hosts." groups: [{name: "ping"}]`, `risk: RISK_HIGH`, `risk: RISK_HIGH group: "ping" action: "run"`},
		want:  `minimal.proto:26: mini_ping: tool name is also the grouped tool of group "ping"`,
	}, {
		name:  "alias with a bad shape",
		edits: []string{`risk: RISK_HIGH`, `risk: RISK_HIGH aliases: ["mini ping"]`},
		want:  `minimal.proto:32: mini_ping: alias "mini ping" must be 1-64 of [a-zA-Z0-9_-]`,
	}, {
		name:  "alias taken by a tool",
		edits: []string{`risk: RISK_HIGH`, `risk: RISK_HIGH aliases: ["mini_pong", "mini_ping"]`},
		want:  `minimal.proto:32: mini_ping: alias "mini_ping" is taken by tool mini_ping`,
	}, {
		name:  "alias given twice",
		edits: []string{`risk: RISK_HIGH`, `risk: RISK_HIGH aliases: ["mini_pong", "mini_pong"]`},
		want:  `minimal.proto:32: mini_ping: alias "mini_pong" is taken by an alias of mini_ping`,
	}, {
		name: "every problem at once",
		edits: []string{
			`result: "pong"`, `result: "pongs"`,
			`      description: "Ping a host."` + "\n", ``,
			`snippets: ["care"]`, `snippets: ["careful"]`,
		},
		want: "minimal.proto:25: mini_ping: missing description\n" +
			`minimal.proto:29: mini_ping: result arm "pongs" does not exist in minimal.v1.Outcome.result` + "\n" +
			`minimal.proto:28: snippet "careful" is not defined by the toolset`,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			text := string(base)
			for i := 0; i < len(tc.edits); i += 2 {
				if !strings.Contains(text, tc.edits[i]) {
					t.Fatalf("edit %d: %q is not in minimal.proto", i/2, tc.edits[i])
				}
				text = strings.Replace(text, tc.edits[i], tc.edits[i+1], 1)
			}
			resp := generate(t, sources{"minimal.proto": {text: text, generate: true}})
			if resp.GetError() != tc.want {
				t.Errorf("refusal:\n%s\nwant:\n%s", resp.GetError(), tc.want)
			}
			if len(resp.GetFile()) != 0 {
				t.Errorf("a refused table must generate nothing, got %d files", len(resp.GetFile()))
			}
		})
	}
}

// The files of one Go package share its names: a second table or tool of
// the same name in another file is refused at its own line, and a file of
// the package left out of the run is refused rather than half generated.
func TestRefusalsAcrossFiles(t *testing.T) {
	notes, err := os.ReadFile("testdata/twofiles/notes.proto")
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := os.ReadFile("testdata/twofiles/tasks.proto")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		old, new string // an edit to tasks.proto
		skip     bool   // notes.proto is not generated in the run
		want     string
	}{{
		name: "two tables of one name",
		old:  `{name: "tasks"}`, new: `{name: "notes"}`,
		want: "tasks.proto:16: the generated Go name NotesTools of toolset \"notes\" (tasks.proto) is also the name of toolset \"notes\" (notes.proto) in the same package; rename one of them",
	}, {
		name: "a tool name of another table",
		old:  `name: "tasks_add"`, new: `name: "notes_add"`,
		want: "tasks.proto:18: the generated Go name NotesAddTool of tool \"notes_add\" of toolset \"tasks\" is also the name of tool \"notes_add\" of toolset \"notes\" in the same package; rename one of them",
	}, {
		name: "a file of the package left out",
		skip: true,
		want: "tasks.proto:16: notes.proto has a toolset in the same Go package (example.com/two/v1) but is not generated in this run; generate all the files of a Go package together, as buf does by default",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			text := string(tasks)
			if tc.old != "" {
				if !strings.Contains(text, tc.old) {
					t.Fatalf("%q is not in tasks.proto", tc.old)
				}
				text = strings.Replace(text, tc.old, tc.new, 1)
			}
			resp := generate(t, sources{
				"notes.proto": {text: string(notes), generate: !tc.skip},
				"tasks.proto": {text: text, generate: true},
			})
			if resp.GetError() != tc.want {
				t.Errorf("refusal:\n%s\nwant:\n%s", resp.GetError(), tc.want)
			}
			if len(resp.GetFile()) != 0 {
				t.Errorf("a refused table must generate nothing, got %d files", len(resp.GetFile()))
			}
		})
	}
}
