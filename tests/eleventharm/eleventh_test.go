// Package eleventharm_test executes a tool that exists only in a proto:
// forge_close_issue, the one arm of forgetools.example.v1.ForgeCallRequest.
// buf generate wrote its agent side (examplev1tools) and server side
// (examplev1handler); the unchanged runtime runs it (this file), and the
// unchanged gateway serves it over a real Unix socket through the generated
// dispatch to the local forge, which needs one method for it
// (gateway_test.go, provider_test.go).
package eleventharm_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/runtime"
	"github.com/forgetools/forgetools/tests/eleventharm/examplev1"
	"github.com/forgetools/forgetools/tests/eleventharm/examplev1/examplev1tools"
)

// fakeGateway is a fake transport that records the wire request and answers
// with a fixed result.
type fakeGateway struct {
	got    []*examplev1.ForgeCallRequest
	answer func(req *examplev1.ForgeCallRequest) *gatewayv1.ForgeCallResult
}

func (g *fakeGateway) Forge(_ context.Context, req proto.Message) (proto.Message, error) {
	r := req.(*examplev1.ForgeCallRequest)
	g.got = append(g.got, r)
	return g.answer(r), nil
}

func closed(req *examplev1.ForgeCallRequest) *gatewayv1.ForgeCallResult {
	c := req.GetCloseIssue()
	return &gatewayv1.ForgeCallResult{
		CallId: req.GetCallId(),
		Result: &gatewayv1.ForgeCallResult_Issue{Issue: &forgev1.Issue{
			Repo:   c.GetRepo(),
			Number: c.GetIssueNumber(),
			State:  "closed",
			Url:    "https://github.com/" + c.GetRepo() + "/issues/7",
		}},
	}
}

func toolset(t *testing.T, g *fakeGateway, opts ...runtime.Option) *runtime.Toolset {
	t.Helper()
	ts, err := runtime.NewToolset(examplev1tools.ForgeTools, runtime.NewBroker(runtime.TransportFunc(g.Forge)), opts...)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

func TestTheEleventhToolIsInTheTable(t *testing.T) {
	ts := toolset(t, &fakeGateway{})
	tools := ts.Tools()
	if len(tools) != 1 || tools[0].Name != "forge_close_issue" {
		t.Fatalf("want forge_close_issue alone, got %d tools", len(tools))
	}
	tool, ok := ts.Lookup("forge_close_issue")
	if !ok || tool.Approval != runtime.ApprovalWrite || tool.ResultArm != "issue" || tool.IdempotencyKey {
		t.Fatalf("forge_close_issue: %+v", tool)
	}
	want := runtime.Hints{ReadOnly: false, Destructive: false, Idempotent: true, OpenWorld: true}
	if tool.Hints != want {
		t.Errorf("hints %+v, want %+v", tool.Hints, want)
	}
	var schema struct {
		Properties map[string]struct {
			Enum []string `json:"enum"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(tool.InputSchema().JSON(), &schema); err != nil {
		t.Fatal(err)
	}
	if strings.Join(schema.Required, ",") != "repo,issue_number" {
		t.Errorf("required = %v", schema.Required)
	}
	if got := strings.Join(schema.Properties["reason"].Enum, ","); got != "completed,not_planned" {
		t.Errorf("reason enum = %s", got)
	}
	for _, p := range []string{"comment", "forge_provider", "forge_host"} {
		if _, ok := schema.Properties[p]; !ok {
			t.Errorf("schema has no %s", p)
		}
	}
}

func TestExecuteTheEleventhTool(t *testing.T) {
	g := &fakeGateway{answer: closed}
	var seen []string
	policy := runtime.TextPolicyFunc(func(_ context.Context, _ *runtime.Tool, param, text string) (string, error) {
		seen = append(seen, param)
		return strings.TrimSpace(text), nil
	})
	ts := toolset(t, g, runtime.WithTextPolicy(policy))

	res := ts.Execute(context.Background(), runtime.Call{
		ID:   "call-7",
		Name: "forge_close_issue",
		Args: json.RawMessage(`{"repo": "acme/widgets", "issue_number": 7.0, "reason": "not_planned", "comment": "  Duplicate of #3.  "}`),
	})
	if res.IsError || res.Text != "Closed issue #7 in acme/widgets: https://github.com/acme/widgets/issues/7" {
		t.Fatalf("result = %+v", res)
	}
	if len(g.got) != 1 {
		t.Fatalf("%d wire requests, want 1", len(g.got))
	}
	want := &examplev1.ForgeCallRequest{
		CallId: "call-7",
		Call: &examplev1.ForgeCallRequest_CloseIssue{CloseIssue: &examplev1.CloseIssueRequest{
			Repo:        "acme/widgets",
			IssueNumber: 7,
			Reason:      examplev1.CloseReason_CLOSE_REASON_NOT_PLANNED,
			Comment:     "Duplicate of #3.", // rewritten by the text policy
		}},
	}
	if !proto.Equal(g.got[0], want) {
		t.Errorf("wire request:\n got %v\nwant %v", g.got[0], want)
	}
	if strings.Join(seen, ",") != "comment" {
		t.Errorf("text policy saw %v, want the comment", seen)
	}
}

func TestTheEleventhToolTakesTheSelector(t *testing.T) {
	g := &fakeGateway{answer: closed}
	res := toolset(t, g).Execute(context.Background(), runtime.Call{
		ID:   "call-8",
		Name: "forge_close_issue",
		Args: json.RawMessage(`{"repo": "ENG", "issue_number": 7, "forge_provider": "linear", "forge_host": null}`),
	})
	if res.IsError {
		t.Fatal(res.Text)
	}
	want := &forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_LINEAR}
	if !proto.Equal(g.got[0].GetForge(), want) {
		t.Errorf("selector = %v, want %v", g.got[0].GetForge(), want)
	}
}

func TestTheEleventhToolRefusesBadArguments(t *testing.T) {
	for _, tc := range []struct{ args, want string }{
		{`{"repo": "acme/widgets", "issue_number": 0}`, "issue_number"},
		{`{"repo": " ", "issue_number": 7}`, "repo"},
		{`{"repo": "acme/widgets", "issue_number": 7, "reason": "wontfix"}`, "completed, not_planned"},
		{`{"repo": "acme/widgets", "issue_number": "7"}`, "issue_number: expected an integer, got string"},
		{`{"repo": "acme/widgets", "number": 7}`, `unknown parameter "number"`},
	} {
		g := &fakeGateway{answer: closed}
		res := toolset(t, g).Execute(context.Background(), runtime.Call{ID: "c", Name: "forge_close_issue", Args: json.RawMessage(tc.args)})
		if !res.IsError || !strings.HasPrefix(res.Text, "forge_close_issue failed: invalid_argument: ") || !strings.Contains(res.Text, tc.want) {
			t.Errorf("%s: result %+v, want an invalid_argument failure naming %q", tc.args, res, tc.want)
		}
		if len(g.got) != 0 {
			t.Errorf("%s: a refused call reached the gateway", tc.args)
		}
	}
}

func TestTheEleventhToolReportsInBandErrors(t *testing.T) {
	g := &fakeGateway{answer: func(req *examplev1.ForgeCallRequest) *gatewayv1.ForgeCallResult {
		return &gatewayv1.ForgeCallResult{CallId: req.GetCallId(), Result: &gatewayv1.ForgeCallResult_Error{Error: &gatewayv1.ForgeCallError{
			Code:         gatewayv1.ErrorCode_ERROR_CODE_NOT_FOUND,
			Message:      "no issue 7",
			RetryAfterMs: 250,
		}}}
	}}
	res := toolset(t, g).Execute(context.Background(), runtime.Call{ID: "c", Name: "forge_close_issue", Args: json.RawMessage(`{"repo": "acme/widgets", "issue_number": 7}`)})
	if !res.IsError || res.Text != "forge_close_issue failed: not_found: no issue 7; retry after 250ms" {
		t.Fatalf("result = %+v", res)
	}
}
