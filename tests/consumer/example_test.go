// Package consumer_test shows how an agent runtime consumes the generated
// forge tools: the README's example, compiled and run as a test.
package consumer_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"connectrpc.com/connect"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1connect"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1tools"
	"github.com/forgetools/forgetools/runtime"
	"github.com/forgetools/forgetools/runtime/export"
)

// An agent runtime dials its session's gateway socket, builds a toolset
// over the generated table, hands the tool list to the model, and executes
// the model's tool calls. The gateway here is a small stand-in on a real
// Unix socket (see startGateway); in production it is `forgetools serve`.
func Example() {
	socket, stop := startGateway()
	defer stop()

	// One transport and one broker per agent session.
	transport, err := runtime.DialGateway(gatewayv1tools.ForgeTools, "unix://"+socket)
	if err != nil {
		log.Fatal(err)
	}
	// Writes to the forge's conversation run unattended; a push, or any
	// call that names a force push or history rewrite (risk high), waits
	// for a person.
	approver := runtime.ApproverFunc(func(ctx context.Context, r runtime.ApprovalRequest) error {
		if r.Approval == runtime.ApprovalPush || r.Risk == runtime.RiskHigh {
			return askHuman(ctx, r)
		}
		return nil
	})
	// This runtime does not wait for change notifications (runtime/events),
	// so it leaves the subscription tools out.
	tools, err := runtime.NewToolset(gatewayv1tools.ForgeTools, runtime.NewBroker(transport),
		runtime.WithDeny("forge_subscribe", "forge_unsubscribe", "forge_get_events"), runtime.WithApprover(approver),
		// Only the forges the gateway serves: one, so no selector at all.
		runtime.WithForges(runtime.Forge{Provider: "github", Host: "github.com"}))
	if err != nil {
		log.Fatal(err)
	}

	// What the model reads: merge this into an Anthropic Messages request
	// (no forge_provider or forge_host anywhere in it)
	// (export.MCP and export.OpenAI give the other shapes).
	req := export.Anthropic(tools)
	offered, _ := json.Marshal(req)
	fmt.Println(strings.SplitN(req.System[0].Text, "\n", 2)[0], strings.Contains(string(offered), "forge_provider"))
	fmt.Println(len(req.Tools), "tools, from", req.Tools[0].Name, "to", req.Tools[len(req.Tools)-1].Name)

	// A tool call as the model made it, and the text it reads back.
	ctx := context.Background()
	res := tools.Execute(ctx, runtime.Call{
		ID:   "toolu_01",
		Name: "forge_create_issue",
		Args: json.RawMessage(`{"repo": "acme/widgets", "title": "Crash on start"}`),
	})
	fmt.Println(res.IsError, res.Text)

	// Bad arguments never reach the gateway; the model reads why.
	res = tools.Execute(ctx, runtime.Call{
		ID:   "toolu_02",
		Name: "forge_get_issue",
		Args: json.RawMessage(`{"repo": " ", "issue_number": 0}`),
	})
	fmt.Println(res.IsError, res.Text)

	// A push reaches the approver, which says no here: nothing is sent.
	res = tools.Execute(ctx, runtime.Call{
		ID:   "toolu_03",
		Name: "forge_create_branch",
		Args: json.RawMessage(`{"repo": "acme/widgets", "branch": "fix-crash"}`),
	})
	fmt.Println(res.IsError, res.Text)

	// Output:
	// # forge tools false
	// 31 tools, from forge_get_issue to forge_rerun_ci
	// false Created issue #1 in acme/widgets: https://forge.example/acme/widgets/issues/1
	// true forge_get_issue failed: invalid_argument: repo: must not be blank; issue_number: must be between 1 and 2147483647
	// true forge_create_branch failed: permission_denied: not approved: no one approved this push (vcs:push, risk high)
}

// askHuman stands in for an agent runtime's approval prompt; in this
// example no one answers.
func askHuman(_ context.Context, r runtime.ApprovalRequest) error {
	return fmt.Errorf("no one approved this %s (%s, risk %s)", r.Approval, r.ActionClass, r.Risk)
}

// startGateway serves a stand-in AgentGateway on a Unix socket in a fresh
// directory: it files every forge_create_issue as issue #1 and answers
// anything else with an in-band unimplemented error.
func startGateway() (socket string, stop func()) {
	dir, err := os.MkdirTemp("", "forgetools-example-")
	if err != nil {
		log.Fatal(err)
	}
	socket = filepath.Join(dir, "gateway.sock")
	ln, err := net.Listen("unix", socket)
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle(gatewayv1connect.NewAgentGatewayHandler(standIn{}))
	srv := &http.Server{Handler: mux}
	go func() { _ = srv.Serve(ln) }()
	return socket, func() {
		_ = srv.Close()
		_ = os.RemoveAll(dir)
	}
}

type standIn struct {
	// WaitEvents is not in this example.
	gatewayv1connect.UnimplementedAgentGatewayHandler
}

func (standIn) Forge(_ context.Context, r *connect.Request[gatewayv1.ForgeCallRequest]) (*connect.Response[gatewayv1.ForgeCallResult], error) {
	res := &gatewayv1.ForgeCallResult{CallId: r.Msg.GetCallId()}
	if c := r.Msg.GetCreateIssue(); c != nil {
		res.Result = &gatewayv1.ForgeCallResult_Issue{Issue: &forgev1.Issue{
			Repo: c.GetRepo(), Number: 1, State: "open", Title: c.GetTitle(),
			Url: "https://forge.example/" + c.GetRepo() + "/issues/1",
		}}
	} else {
		res.Result = &gatewayv1.ForgeCallResult_Error{Error: &gatewayv1.ForgeCallError{
			Code: gatewayv1.ErrorCode_ERROR_CODE_UNIMPLEMENTED, Message: "not in this example",
		}}
	}
	return connect.NewResponse(res), nil
}
