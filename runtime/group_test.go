package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	"github.com/forgetools/forgetools/runtime"
	"github.com/forgetools/forgetools/runtime/schema/schematest"
)

// fenceNonce is the random part of a fence marker, minted per render.
var fenceNonce = regexp.MustCompile(`(<<<\S*?-|>>>)[0-9a-f]{8}`)

// unfenced is a result with its fence nonces fixed: what is left must be
// byte-identical between two renders of the same outcome.
func unfenced(r runtime.Result) runtime.Result {
	r.Text = fenceNonce.ReplaceAllString(r.Text, "${1}NONCE")
	return r
}

func grouped(t *testing.T, tr runtime.Transport, opts ...runtime.Option) *runtime.Toolset {
	t.Helper()
	ts, _ := newToolset(t, tr, append(opts, runtime.WithShape(runtime.ShapeGrouped))...)
	return ts
}

// toolNames is the tools' names, in order.
func toolNames(tools []*runtime.Tool) []string {
	var out []string
	for _, tool := range tools {
		out = append(out, tool.Name)
	}
	return out
}

// schemaOf decodes a tool's input schema far enough to read it.
type schemaOf struct {
	Properties map[string]struct {
		Description string `json:"description"`
		Enum        []string
	} `json:"properties"`
	Required []string `json:"required"`
}

func schema(t *testing.T, tool *runtime.Tool) schemaOf {
	t.Helper()
	var s schemaOf
	if err := json.Unmarshal(tool.InputSchema().JSON(), &s); err != nil {
		t.Fatalf("%s: %v", tool.Name, err)
	}
	return s
}

func TestGroupedTools(t *testing.T) {
	ts := grouped(t, nil)
	want := []string{"forge_repo", "forge_issue", "forge_pull_request", "forge_push", "forge_ci", "forge_subscription"}
	if got := toolNames(ts.Tools()); !slices.Equal(got, want) {
		t.Fatalf("grouped tools = %v, want %v", got, want)
	}
	issue, _ := ts.Lookup("forge_issue")
	s := schema(t, issue)
	if got := s.Properties["action"].Enum; !slices.Equal(got, []string{"get", "list", "list_comments", "comment", "open", "search", "update"}) {
		t.Errorf("forge_issue actions = %v", got)
	}
	// repo is required by every issue action but search (which, without
	// one, searches the scope), so each action says what it requires.
	if !slices.Equal(s.Required, []string{"action"}) {
		t.Errorf("forge_issue required = %v, want [action]", s.Required)
	}
	// state is open|closed|all to list, open|closed to update: the union
	// offers every value; the action's validator keeps each to its own.
	if got := s.Properties["state"].Enum; !slices.Equal(got, []string{"open", "closed", "all"}) {
		t.Errorf("state enum = %v", got)
	}
	for _, line := range []string{"\n- get (requires repo, issue_number): Read one issue", "\n- comment (requires repo, issue_number, body): ", "\n- search (requires query): "} {
		if !strings.Contains(issue.Description, line) {
			t.Errorf("forge_issue description lacks %q:\n%s", line, issue.Description)
		}
	}
	// A sentence several actions share is said once.
	if n := strings.Count(issue.Description, "Never write an attribution header"); n != 1 {
		t.Errorf("the attribution rule appears %d times:\n%s", n, issue.Description)
	}
	push, _ := ts.Lookup("forge_push")
	if push.Approval != runtime.ApprovalPush || push.Risk != runtime.RiskHigh || push.Hints.ReadOnly {
		t.Errorf("forge_push: approval %s risk %s hints %+v; want the strictest of its actions", push.Approval, push.Risk, push.Hints)
	}
	if issue.Approval != runtime.ApprovalWrite || issue.Hints.ReadOnly || issue.Hints.Idempotent {
		t.Errorf("forge_issue: approval %s hints %+v; want write, not read-only, not idempotent", issue.Approval, issue.Hints)
	}
	// The flat names the descriptions mention are renamed to what the
	// grouped shape offers.
	repo, _ := ts.Lookup("forge_repo")
	if strings.Contains(repo.Description, "forge_write_file") || !strings.Contains(repo.Description, "forge_push action write_file") {
		t.Errorf("forge_repo description names a flat tool:\n%s", repo.Description)
	}
	sub, _ := ts.Lookup("forge_subscription")
	if strings.Contains(sub.InputSchema().String(), "forge_subscribe ") || !strings.Contains(sub.InputSchema().String(), "action subscribe") {
		t.Errorf("forge_subscription schema names a flat tool:\n%s", sub.InputSchema())
	}
}

// Every grouped call sends exactly the request the flat call sends and
// reads back exactly the same text.
func TestGroupedCallIsTheFlatCall(t *testing.T) {
	for _, tc := range []struct{ flat, group, action, args string }{
		{"forge_get_issue", "forge_issue", "get", `{"repo":"acme/widgets","issue_number":12}`},
		{"forge_create_issue", "forge_issue", "open", `{"repo":"acme/widgets","title":"Crash","labels":["bug"]}`},
		{"forge_update_issue", "forge_issue", "update", `{"repo":"acme/widgets","issue_number":12,"state":"closed"}`},
	} {
		rec := &recorder{reply: answer(issueResult)}
		// One broker: the idempotency key is the broker's nonce and the
		// call id, and must match too.
		flat, b := newToolset(t, rec)
		group, err := runtime.NewToolset(testTable(), b, runtime.WithShape(runtime.ShapeGrouped))
		if err != nil {
			t.Fatal(err)
		}
		want := flat.Execute(context.Background(), runtime.Call{ID: "call_1", Name: tc.flat, Args: json.RawMessage(tc.args)})
		withAction := `{"action":"` + tc.action + `",` + tc.args[1:]
		got := group.Execute(context.Background(), runtime.Call{ID: "call_1", Name: tc.group, Args: json.RawMessage(withAction)})
		if got.IsError || unfenced(got) != unfenced(want) {
			t.Errorf("%s %s = %+v\nflat %s = %+v", tc.group, tc.action, got, tc.flat, want)
		}
		if len(rec.reqs) != 2 || !proto.Equal(rec.reqs[0], rec.reqs[1]) {
			t.Errorf("%s: the grouped call sent %v, the flat one %v", tc.flat, rec.reqs[1:], rec.reqs[:1])
		}
	}
}

func TestGroupedCallRefusals(t *testing.T) {
	rec := &recorder{reply: answer(issueResult)}
	ts := grouped(t, rec)
	for _, tc := range []struct{ name, tool, args, want string }{
		{"no action", "forge_issue", `{"repo":"a/b"}`, `forge_issue failed: invalid_argument: action: missing required parameter`},
		{"unknown action", "forge_issue", `{"action":"delete","repo":"a/b"}`, `forge_issue failed: invalid_argument: action: `},
		{"not a parameter of the group", "forge_issue", `{"action":"get","repo":"a/b","issue_number":1,"pull_number":2}`, `forge_issue failed: invalid_argument: `},
		{"another action's parameter", "forge_issue", `{"action":"get","repo":"a/b","issue_number":1,"title":"x"}`, `forge_issue get failed: invalid_argument: `},
		{"the action's required parameter", "forge_issue", `{"action":"get","repo":"a/b"}`, `forge_issue get failed: invalid_argument: issue_number: missing required parameter`},
		{"the action's bound", "forge_issue", `{"action":"list","repo":"a/b","limit":500}`, `forge_issue list failed: invalid_argument: limit: `},
	} {
		res := ts.Execute(context.Background(), runtime.Call{ID: "c", Name: tc.tool, Args: json.RawMessage(tc.args)})
		if !res.IsError || !strings.HasPrefix(res.Text, tc.want) {
			t.Errorf("%s: %+v, want an error starting %q", tc.name, res, tc.want)
		}
	}
	if len(rec.reqs) != 0 {
		t.Errorf("refused calls reached the gateway: %v", rec.reqs)
	}
	// The unknown action names the valid ones.
	res := ts.Execute(context.Background(), runtime.Call{Name: "forge_issue", Args: json.RawMessage(`{"action":"delete","repo":"a/b"}`)})
	for _, a := range []string{"get", "list", "list_comments", "comment", "open", "update"} {
		if !strings.Contains(res.Text, a) {
			t.Errorf("unknown action refusal does not name %s: %s", a, res.Text)
		}
	}
}

// The approver sees the action's own approval, class and risk, and the
// grouped tool the model called.
func TestGroupedApproval(t *testing.T) {
	var seen []runtime.ApprovalRequest
	approver := runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) error {
		seen = append(seen, req)
		return errors.New("no")
	})
	rec := &recorder{reply: answer(issueResult)}
	ts := grouped(t, rec, runtime.WithApprover(approver))
	res := ts.Execute(context.Background(), runtime.Call{ID: "c", Name: "forge_issue", Args: json.RawMessage(`{"action":"comment","repo":"a/b","issue_number":1,"body":"hi"}`)})
	if res.Text != "forge_issue comment failed: permission_denied: not approved: no" {
		t.Errorf("refused comment = %q", res.Text)
	}
	ts.Execute(context.Background(), runtime.Call{ID: "c", Name: "forge_issue", Args: json.RawMessage(`{"action":"get","repo":"a/b","issue_number":1}`)})
	if len(seen) != 1 {
		t.Fatalf("approver asked %d times, want once (a read is never asked)", len(seen))
	}
	req := seen[0]
	if req.Tool.Name != "forge_comment_on_issue" || req.Approval != runtime.ApprovalWrite || req.ActionClass != "comms:external" || req.Via != "forge_issue" {
		t.Errorf("approval request: tool %s approval %s class %q via %q", req.Tool.Name, req.Approval, req.ActionClass, req.Via)
	}
}

func TestGroupedReadOnly(t *testing.T) {
	ts := grouped(t, nil, runtime.WithReadOnly())
	if got, want := toolNames(ts.Tools()), []string{"forge_repo", "forge_issue", "forge_pull_request", "forge_ci", "forge_subscription"}; !slices.Equal(got, want) {
		t.Fatalf("read-only grouped tools = %v, want %v (forge_push has no read action)", got, want)
	}
	issue, _ := ts.Lookup("forge_issue")
	if got := schema(t, issue).Properties["action"].Enum; !slices.Equal(got, []string{"get", "list", "list_comments", "search"}) {
		t.Errorf("read-only forge_issue actions = %v, want [get list list_comments search]", got)
	}
	if issue.Approval != runtime.ApprovalRead || !issue.Hints.ReadOnly {
		t.Errorf("read-only forge_issue: approval %s hints %+v", issue.Approval, issue.Hints)
	}
	if _, ok := schema(t, issue).Properties["title"]; ok || strings.Contains(issue.Description, "- open") {
		t.Errorf("read-only forge_issue still offers open:\n%s", issue.Description)
	}
	if got, want := ts.Refusal("forge_push"), "forge_push has only push actions and the toolset is read-only"; got != want {
		t.Errorf("Refusal(forge_push) = %q, want %q", got, want)
	}
	res := ts.Execute(context.Background(), runtime.Call{Name: "forge_issue", Args: json.RawMessage(`{"action":"open","repo":"a/b","title":"x"}`)})
	if want := "forge_issue failed: invalid_argument: action open is a write action and the toolset is read-only"; res.Text != want {
		t.Errorf("a dropped action ran or was misreported: %+v", res)
	}
}

// A dropped action's reason is given for the action the call names, read
// as the decoders read keys: exactly, not case-folded nor the last of
// several spellings, so a call that names a kept action with a stray key
// learns of the stray key.
func TestGroupedDroppedActionIsReadExactly(t *testing.T) {
	ts := grouped(t, nil, runtime.WithReadOnly())
	res := ts.Execute(context.Background(), runtime.Call{Name: "forge_issue", Args: json.RawMessage(`{"action":"get","ACTION":"open","repo":"a/b","issue_number":1}`)})
	if !res.IsError || !strings.Contains(res.Text, `unknown parameter "ACTION"`) {
		t.Errorf("a stray ACTION key was read as the action: %+v", res)
	}
	res = ts.Execute(context.Background(), runtime.Call{Name: "forge_issue", Args: json.RawMessage(`{"action":"get","action":"open","repo":"a/b"}`)})
	if !res.IsError || !strings.Contains(res.Text, `repeat the key "action"`) {
		t.Errorf("a repeated action key was read as its last value: %+v", res)
	}
}

func TestGroupedFilters(t *testing.T) {
	ts := grouped(t, nil, runtime.WithAllow("forge_ci", "forge_get_issue"))
	if got, want := toolNames(ts.Tools()), []string{"forge_issue", "forge_ci"}; !slices.Equal(got, want) {
		t.Fatalf("allowed = %v, want %v", got, want)
	}
	issue, _ := ts.Lookup("forge_issue")
	if got := schema(t, issue).Properties["action"].Enum; !slices.Equal(got, []string{"get"}) {
		t.Errorf("forge_issue actions = %v, want [get]", got)
	}
	if got := ts.Refusal("forge_push"); got != "forge_push is not enabled in this toolset" {
		t.Errorf("Refusal(forge_push) = %q", got)
	}
	// A group's name filters the flat shape too: all its actions.
	flat, _ := newToolset(t, nil, runtime.WithDeny("forge_ci"))
	if got := toolNames(flat.Tools()); !slices.Equal(got, without("forge_list_ci_runs", "forge_get_ci_run", "forge_trigger_ci", "forge_rerun_ci")) {
		t.Errorf("deny forge_ci left %v", got)
	}
	if _, err := runtime.NewToolset(testTable(), runtime.NewBroker(nil), runtime.WithAllow("forge_issues")); err == nil || !strings.Contains(err.Error(), "forge_issue,") {
		t.Errorf("unknown name: %v, want an error listing the group names too", err)
	}
}

// A table without groups offers the same tools in both shapes.
func TestGroupedWithoutGroups(t *testing.T) {
	table := testTable()
	table.Groups = nil
	tools := make([]*runtime.Tool, len(table.Tools))
	for i, tool := range table.Tools {
		c := *tool
		c.Group, c.Action = "", ""
		tools[i] = &c
	}
	table.Tools = tools
	ts, err := runtime.NewToolset(table, runtime.NewBroker(nil), runtime.WithShape(runtime.ShapeGrouped))
	if err != nil {
		t.Fatal(err)
	}
	if got := toolNames(ts.Tools()); !slices.Equal(got, allTools) {
		t.Errorf("grouped shape of a table without groups = %v", got)
	}
	// A tool naming a group the table lacks is a table bug, refused.
	table.Tools[0] = &runtime.Tool{Name: "x", Group: "ghost", Action: "get", InputSchema: schematest.Func(`{"type":"object","properties":{}}`)}
	if _, err := runtime.NewToolset(table, runtime.NewBroker(nil), runtime.WithShape(runtime.ShapeGrouped)); err == nil || !strings.Contains(err.Error(), `group "ghost"`) {
		t.Errorf("undefined group: %v", err)
	}
}

func TestParseShape(t *testing.T) {
	for _, s := range []runtime.Shape{runtime.ShapeFlat, runtime.ShapeGrouped} {
		if got, err := runtime.ParseShape(s.String()); err != nil || got != s {
			t.Errorf("ParseShape(%q) = %v, %v", s, got, err)
		}
	}
	if _, err := runtime.ParseShape("nested"); err == nil || !strings.Contains(err.Error(), "flat or grouped") {
		t.Errorf("ParseShape(nested) = %v", err)
	}
}

// A renamed tool keeps answering to its old name; only WithAliases lists
// the old name.
func TestAliases(t *testing.T) {
	table := testTable()
	renamed := *table.Tools[0] // forge_get_issue
	renamed.Name, renamed.Aliases = "forge_read_issue", []string{"forge_get_issue"}
	table.Tools[0] = &renamed
	rec := &recorder{reply: answer(issueResult)}
	ts, err := runtime.NewToolset(table, runtime.NewBroker(rec))
	if err != nil {
		t.Fatal(err)
	}
	args := json.RawMessage(`{"repo":"acme/widgets","issue_number":12}`)
	old := ts.Execute(context.Background(), runtime.Call{ID: "c", Name: "forge_get_issue", Args: args})
	current := ts.Execute(context.Background(), runtime.Call{ID: "c", Name: "forge_read_issue", Args: args})
	if old.IsError || unfenced(old) != unfenced(current) {
		t.Errorf("old name: %+v\nnew name: %+v", old, current)
	}
	if slices.Contains(toolNames(ts.Tools()), "forge_get_issue") {
		t.Error("an alias is listed without WithAliases")
	}
	listed, err := runtime.NewToolset(table, runtime.NewBroker(rec), runtime.WithAliases())
	if err != nil {
		t.Fatal(err)
	}
	all := listed.Tools()
	i := slices.Index(toolNames(all), "forge_get_issue")
	if i < 0 || !strings.HasPrefix(all[i].Description, "Old name of forge_read_issue") || all[i].InputSchema().String() != renamed.InputSchema().String() {
		t.Errorf("WithAliases lists %v", toolNames(all))
	}
	// The grouped shape runs an action by its flat name and by its old
	// one, as the same tool: a client written for either keeps working.
	g, err := runtime.NewToolset(table, runtime.NewBroker(rec), runtime.WithShape(runtime.ShapeGrouped))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"forge_get_issue", "forge_read_issue"} {
		res := g.Execute(context.Background(), runtime.Call{ID: "c", Name: name, Args: args})
		if unfenced(res) != unfenced(current) {
			t.Errorf("grouped shape, %s: %+v", name, res)
		}
	}
	if slices.Contains(toolNames(g.Tools()), "forge_read_issue") {
		t.Error("the grouped shape lists a flat tool")
	}
}

// The grouped request carries exactly the flat arm; a spot check that the
// envelope is not the grouped tool's invention.
func TestGroupedEnvelope(t *testing.T) {
	rec := &recorder{reply: answer(issueResult)}
	ts := grouped(t, rec)
	ts.Execute(context.Background(), runtime.Call{ID: "call_1", Name: "forge_issue", Args: json.RawMessage(`{"action":"get","repo":"acme/widgets","issue_number":12,"forge_provider":"github"}`)})
	if len(rec.reqs) != 1 {
		t.Fatalf("%d requests", len(rec.reqs))
	}
	if got := rec.reqs[0].GetGetIssue(); got == nil || got.GetIssueNumber() != 12 || rec.reqs[0].GetForge() == nil {
		t.Errorf("request = %v", rec.reqs[0])
	}
}
