package e2e_test

import (
	"context"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/forgetools/forgetools/gateway/store/storetest"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1tools"
	"github.com/forgetools/forgetools/internal/testkit"
	"github.com/forgetools/forgetools/runtime"
)

// mcpSession starts `forgetools mcp args...` and connects the official Go
// SDK client to it over stdio.
func (e *env) mcpSession(args ...string) *mcp.ClientSession {
	e.t.Helper()
	return e.mcpClient(nil, args...)
}

// mcpClient is mcpSession with client options (notification handlers).
func (e *env) mcpClient(opts *mcp.ClientOptions, args ...string) *mcp.ClientSession {
	e.t.Helper()
	cmd := e.command(context.Background(), append([]string{"mcp"}, args...)...)
	stderr := &testkit.Buffer{}
	cmd.Stderr = stderr
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "forgetools-e2e", Version: "0"}, opts)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		e.t.Fatalf("connect to forgetools mcp %q: %v\nstderr:\n%s", args, err, stderr.String())
	}
	e.t.Cleanup(func() {
		if err := cs.Close(); err != nil {
			e.t.Errorf("closing the MCP session: %v\nstderr:\n%s", err, stderr.String())
		}
	})
	return cs
}

// callText calls a tool and returns its one text content and IsError.
func callText(t *testing.T, cs *mcp.ClientSession, tool, args string) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("tools/call %s: %v", tool, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("tools/call %s: %d content items, want one text", tool, len(res.Content))
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("tools/call %s: content is %T, want text", tool, res.Content[0])
	}
	return text.Text, res.IsError
}

// wantCall checks a tool result's text (anchored regexp) and IsError.
func wantCall(t *testing.T, cs *mcp.ClientSession, tool, args string, isError bool, pattern string) string {
	t.Helper()
	text, gotErr := callText(t, cs, tool, args)
	r := result{args: []string{"mcp", tool, args}, stdout: text + "\n"}
	if gotErr != isError {
		t.Fatalf("tools/call %s: isError = %v, want %v; text:\n%s", tool, gotErr, isError, text)
	}
	r.want(t, 0, pattern)
	return text
}

// localOnly is what a gateway on the embedded local forge serves: the
// default configuration, aliceConfig and accessConfig.
var localOnly = runtime.WithForges(runtime.Forge{Provider: "local", Host: "local"})

// wantTools checks tools/list against the generated table, restricted by
// opts the way the server was (runtime.WithForges for the forges an
// in-process gateway serves), and the initialize instructions against the
// same toolset's.
func wantTools(t *testing.T, cs *mcp.ClientSession, opts ...runtime.Option) {
	t.Helper()
	ts, err := runtime.NewToolset(gatewayv1tools.ForgeTools, runtime.NewBroker(nil), opts...)
	if err != nil {
		t.Fatal(err)
	}
	init := cs.InitializeResult()
	if init.ServerInfo.Name != "forgetools" || init.Instructions != ts.Instructions() {
		t.Errorf("initialize: server %q, instructions:\n%s\nwant forgetools and:\n%s", init.ServerInfo.Name, init.Instructions, ts.Instructions())
	}
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	var got, want []string
	for _, tool := range list.Tools {
		got = append(got, tool.Name)
		def, ok := ts.Lookup(tool.Name)
		if !ok {
			continue
		}
		if tool.Description != def.Description {
			t.Errorf("%s: description %q, want %q", tool.Name, tool.Description, def.Description)
		}
		if !sameJSON(t, tool.InputSchema, def.InputSchema().String()) {
			t.Errorf("%s: input schema differs from the generated one", tool.Name)
		}
		if tool.Title != def.Title || tool.Annotations == nil || tool.Annotations.Title != def.Title || def.Title == "" {
			t.Errorf("%s: title %q, annotations %+v, want %q", tool.Name, tool.Title, tool.Annotations, def.Title)
		}
		a, h := tool.Annotations, def.Hints
		if a == nil || a.ReadOnlyHint != h.ReadOnly || a.IdempotentHint != h.Idempotent ||
			a.DestructiveHint == nil || *a.DestructiveHint != h.Destructive || a.OpenWorldHint == nil || *a.OpenWorldHint != h.OpenWorld {
			t.Errorf("%s: annotations %+v, want hints %+v", tool.Name, a, h)
		}
	}
	for _, def := range ts.Tools() {
		want = append(want, def.Name)
	}
	// In the table's order, not the SDK's alphabetical one.
	if !slices.Equal(got, want) {
		t.Errorf("tools/list names %v, want %v", got, want)
	}
}

// sameJSON reports whether v marshals to the same JSON value as doc.
func sameJSON(t *testing.T, v any, doc string) bool {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	if err := json.Unmarshal(raw, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(doc), &b); err != nil {
		t.Fatal(err)
	}
	return reflect.DeepEqual(a, b)
}

// TestMCPInProcess: `forgetools mcp` with no flags serves the tools on
// the embedded default, in the same store `forgetools call` uses.
func TestMCPInProcess(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cs := e.mcpSession()
	wantTools(t, cs, localOnly)

	wantCall(t, cs, "forge_create_issue", `{"repo":"demo/app","title":"Filed over MCP","labels":["bug"]}`, false,
		`Created issue #1 in demo/app: http://localhost/forge/demo/app/issues/1`)
	text, isErr := callText(t, cs, "forge_get_issue", `{"repo":"demo/app","issue_number":1}`)
	wantText(t, result{stdout: text + "\n"}.record(t), header+
		"# issue\nrepo: demo/app\nnumber: 1\nstate: open\nurl: http://localhost/forge/demo/app/issues/1\nlabels: bug\nauthor: demo\n"+
		"claim (unverified): agent=demo-agent owner=demo-owner session=demo\n"+
		"<<<title-NONCE\nFiled over MCP\n>>>NONCE\ncreated_at: TIME\nupdated_at: TIME\ncomments: none\n")
	if isErr {
		t.Error("a successful read came back isError")
	}
	wantCall(t, cs, "forge_get_issue", `{"repo":"demo/app","issue_number":99}`, true,
		`forge_get_issue failed: not_found: issue #99 not found in demo/app`)
	wantCall(t, cs, "forge_get_issue", `{"repo":"demo/app"}`, true,
		`forge_get_issue failed: invalid_argument: .*issue_number.*`)
	wantCall(t, cs, "forge_submit_review", `{"repo":"demo/app","pull_number":1,"verdict":"maybe","body":"x"}`, true,
		`forge_submit_review failed: invalid_argument: .*verdict.*`)

	// The default configuration, written out: the embedded local forge.
	wantExportMatches(t, e, cs, "--config", writeConfig(t, "forges:\n  - provider: local\naccounts:\n  - {name: demo, agent_handle: demo-agent, owner_handle: demo-owner, scope: [\"*\"], sessions: [demo]}\n"))

	// The CLI, in-process on the same data directory, sees the MCP write.
	if rec := e.call("forge_get_issue", `{"repo":"demo/app","issue_number":1}`).record(t); !strings.Contains(rec, "\nFiled over MCP\n") {
		t.Errorf("forgetools call did not read back the MCP session's issue:\n%s", rec)
	}
}

// TestMCPThroughGateway: `forgetools mcp --gateway unix://...` calls a
// running serve as the socket's session.
func TestMCPThroughGateway(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	srv := e.serve(2, "--config", writeConfig(t, aliceConfig), "--store", storetest.SQLite(t), "--socket-dir", socketDir(t))
	cs := e.mcpSession("--gateway", srv.Sockets[1])
	wantTools(t, cs)

	wantCall(t, cs, "forge_create_issue", `{"repo":"demo/app","title":"Through the socket"}`, false,
		`Created issue #1 in demo/app: http://forge\.test/f/demo/app/issues/1`)
	wantCall(t, cs, "forge_create_branch", `{"repo":"demo/app","branch":"fix"}`, false,
		`Created branch fix in demo/app at [0-9a-f]{40}`)
	wantCall(t, cs, "forge_create_pull_request", `{"repo":"demo/app","title":"A fix","head_ref":"fix","base_ref":"main"}`, false,
		`Opened PR #2 in demo/app: http://forge\.test/f/demo/app/pull/2`)
	text, _ := callText(t, cs, "forge_get_issue", `{"repo":"demo/app","issue_number":1}`)
	if rec := (result{stdout: text + "\n"}).record(t); !strings.Contains(rec, "agent=alice-bot owner=alice session=alice-2\n<<<title-NONCE\nThrough the socket\n") {
		t.Errorf("read through alice-2's socket:\n%s", rec)
	}
	wantCall(t, cs, "forge_list_issues", `{"repo":"other/app"}`, true,
		`forge_list_issues failed: permission_denied: repository "other/app" is outside the scope of account "alice"`)
}

// TestMCPToolFilters: --read-only, --tools and --exclude-tools decide what
// tools/list offers, and a tool not offered cannot be called.
func TestMCPToolFilters(t *testing.T) {
	t.Parallel()
	e := newEnv(t)

	ro := e.mcpSession("--read-only")
	wantTools(t, ro, localOnly, runtime.WithReadOnly())
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	res, err := ro.CallTool(ctx, &mcp.CallToolParams{Name: "forge_create_issue", Arguments: map[string]any{"repo": "demo/app", "title": "x"}})
	if err == nil || !strings.Contains(err.Error(), readOnlySentence) {
		t.Errorf("forge_create_issue on a read-only session: %v, %+v; want %q", err, res, readOnlySentence)
	}

	wantTools(t, e.mcpSession("--tools", "forge_get_issue,forge_create_issue"),
		localOnly, runtime.WithAllow("forge_get_issue", "forge_create_issue"))
	wantTools(t, e.mcpSession("--exclude-tools", "forge_submit_review", "--exclude-tools", "forge_subscribe,forge_unsubscribe"),
		localOnly, runtime.WithDeny("forge_submit_review", "forge_subscribe", "forge_unsubscribe"))

	// The read-only session's refused create wrote nothing.
	e.call("forge_get_issue", `{"repo":"demo/app","issue_number":1}`).
		want(t, 1, `forge_get_issue failed: not_found: issue #1 not found in demo/app`)
}

// wantExportMatches: `forgetools tools --format mcp` for the server's
// configuration, what a client would be configured with offline, is
// exactly what the live server lists.
func wantExportMatches(t *testing.T, e *env, cs *mcp.ClientSession, config ...string) {
	t.Helper()
	r := e.run(append([]string{"tools", "--format", "mcp"}, config...)...)
	var export struct {
		Instructions string            `json:"instructions"`
		Tools        []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &export); r.code != 0 || err != nil {
		t.Fatalf("tools --format mcp: %v; %v", err, r)
	}
	if export.Instructions != cs.InitializeResult().Instructions {
		t.Error("exported instructions differ from the server's")
	}
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	live := map[string]*mcp.Tool{}
	for _, tool := range list.Tools {
		live[tool.Name] = tool
	}
	for _, raw := range export.Tools {
		var named struct{ Name string }
		json.Unmarshal(raw, &named)
		if tool, ok := live[named.Name]; !ok || !sameJSON(t, tool, string(raw)) {
			got, _ := json.Marshal(tool)
			t.Errorf("tool %q: exported\n%s\nlive\n%s", named.Name, raw, got)
		}
		delete(live, named.Name)
	}
	if len(live) > 0 {
		t.Errorf("the server lists tools the export lacks: %v", live)
	}
}

// TestMCPGroupedShape: `forgetools mcp --shape grouped` lists the grouped
// tools, runs an action as the flat tool would, and, read-only, keeps the
// read actions and refuses the rest with the sentence every surface gives.
func TestMCPGroupedShape(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cs := e.mcpSession("--shape", "grouped")
	wantTools(t, cs, localOnly, runtime.WithShape(runtime.ShapeGrouped))
	wantCall(t, cs, "forge_issue", `{"action":"open","repo":"demo/app","title":"Filed grouped"}`, false,
		`Created issue #1 in demo/app: http://localhost/forge/demo/app/issues/1`)
	text, _ := callText(t, cs, "forge_issue", `{"action":"get","repo":"demo/app","issue_number":1}`)
	if rec := (result{stdout: text + "\n"}).record(t); !strings.Contains(rec, "\n<<<title-NONCE\nFiled grouped\n") {
		t.Errorf("forge_issue get:\n%s", rec)
	}
	wantCall(t, cs, "forge_issue", `{"action":"get","repo":"demo/app"}`, true,
		`forge_issue get failed: invalid_argument: issue_number: missing required parameter`)

	ro := e.mcpSession("--shape", "grouped", "--read-only")
	wantTools(t, ro, localOnly, runtime.WithShape(runtime.ShapeGrouped), runtime.WithReadOnly())
	wantCall(t, ro, "forge_issue", `{"action":"open","repo":"demo/app","title":"x"}`, true,
		`forge_issue failed: invalid_argument: action open is a write action and the toolset is read-only`)
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	_, err := ro.CallTool(ctx, &mcp.CallToolParams{Name: "forge_push", Arguments: map[string]any{"action": "create_branch", "repo": "demo/app", "branch": "b"}})
	if want := "forge_push has only push actions and the toolset is read-only"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("forge_push on a read-only grouped session: %v; want %q", err, want)
	}
}
