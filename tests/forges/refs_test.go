package forges_test

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"

	"connectrpc.com/connect"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1connect"
)

// hostileRefs climb out of the repository in a request path (go-github
// and the Gitea SDK's branch read resolve or send "../" as it is), or hide
// the climb behind an escape a server may decode; each with the rule the
// refusal names.
var hostileRefs = []struct{ ref, rule string }{
	{"../../other/repo/git/refs", `contains ".."`},
	{"..", `contains ".."`},
	{"main/../../../../repos/acme/secret/branches/main", `contains ".."`},
	{"%2e%2e%2f%2e%2e%2fother", `contains '%'`},
	{"a/./b", `component "." starts with "."`},
	{"main@{1}", `contains "@{"`},
}

// refArms put a ref into each arm that takes one, in the field the
// refusal must name.
var refArms = []struct {
	field string
	call  func(repo, ref string) *gatewayv1.ForgeCallRequest
}{
	{"create_branch.from_ref", func(repo, ref string) *gatewayv1.ForgeCallRequest {
		return &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CreateBranch{CreateBranch: &gatewayv1.CreateBranchRequest{Repo: repo, Branch: "ok", FromRef: ref}}}
	}},
	{"create_branch.branch", func(repo, ref string) *gatewayv1.ForgeCallRequest {
		return &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CreateBranch{CreateBranch: &gatewayv1.CreateBranchRequest{Repo: repo, Branch: ref}}}
	}},
	{"read_file.ref", func(repo, ref string) *gatewayv1.ForgeCallRequest {
		return &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_ReadFile{ReadFile: &gatewayv1.ReadFileRequest{Repo: repo, Path: "README.md", Ref: ref}}}
	}},
	{"list_dir.ref", func(repo, ref string) *gatewayv1.ForgeCallRequest {
		return &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_ListDir{ListDir: &gatewayv1.ListDirRequest{Repo: repo, Ref: ref}}}
	}},
	{"list_commits.ref", func(repo, ref string) *gatewayv1.ForgeCallRequest {
		return &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_ListCommits{ListCommits: &gatewayv1.ListCommitsRequest{Repo: repo, Ref: ref}}}
	}},
	{"compare.head", func(repo, ref string) *gatewayv1.ForgeCallRequest {
		return &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_Compare{Compare: &gatewayv1.CompareRequest{Repo: repo, Base: "main", Head: ref}}}
	}},
	{"write_file.branch", func(repo, ref string) *gatewayv1.ForgeCallRequest {
		return &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_WriteFile{WriteFile: &gatewayv1.WriteFileRequest{Repo: repo, Branch: ref, Path: "x.txt", Content: "x\n", Message: "m"}}}
	}},
	{"commit_files.branch", func(repo, ref string) *gatewayv1.ForgeCallRequest {
		return &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CommitFiles{CommitFiles: &gatewayv1.CommitFilesRequest{Repo: repo, Branch: ref, Message: "m",
			ExpectedHeadSha: "abcdef1", Files: []*gatewayv1.FileChange{{Path: "x.txt", Content: "x\n"}}}}}
	}},
	{"create_pull_request.head_ref", func(repo, ref string) *gatewayv1.ForgeCallRequest {
		return &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CreatePullRequest{CreatePullRequest: &gatewayv1.CreatePullRequestRequest{Repo: repo, Title: "t", HeadRef: ref}}}
	}},
	{"update_pull_request.base_ref", func(repo, ref string) *gatewayv1.ForgeCallRequest {
		return &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_UpdatePullRequest{UpdatePullRequest: &gatewayv1.UpdatePullRequestRequest{Repo: repo, PullNumber: 1, BaseRef: &ref}}}
	}},
	{"list_pull_requests.head", func(repo, ref string) *gatewayv1.ForgeCallRequest {
		return &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_ListPullRequests{ListPullRequests: &gatewayv1.ListPullRequestsRequest{Repo: repo, Head: ref}}}
	}},
	{"list_ci_runs.ref", func(repo, ref string) *gatewayv1.ForgeCallRequest {
		return &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_ListCiRuns{ListCiRuns: &gatewayv1.ListCIRunsRequest{Repo: repo, Ref: ref}}}
	}},
	{"trigger_ci.ref", func(repo, ref string) *gatewayv1.ForgeCallRequest {
		return &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_TriggerCi{TriggerCi: &gatewayv1.TriggerCIRequest{Repo: repo, Workflow: "ci.yml", Ref: ref}}}
	}},
	{"search_code.ref", func(repo, ref string) *gatewayv1.ForgeCallRequest {
		return &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_SearchCode{SearchCode: &gatewayv1.SearchCodeRequest{Repo: repo, Query: "gadget", Ref: ref}}}
	}},
}

// socketClient is a hostile agent: a Connect client of its own on the
// session's socket, sending whatever it likes with no runtime in between.
func (e *env) socketClient() gatewayv1connect.AgentGatewayClient {
	transport := &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", e.socket)
	}}
	e.t.Cleanup(transport.CloseIdleConnections)
	return gatewayv1connect.NewAgentGatewayClient(&http.Client{Transport: transport}, "http://gateway")
}

// An agent speaking to the gateway's socket directly, skipping the
// runtime, sends refs that climb out of the repository to every arm that
// takes a ref, on every forge: each is invalid_argument naming the field
// and the rule, before scope (an out-of-scope repository answers the same),
// before the approval gate (pushes here wait for an operator, and none is
// parked) and before any provider: no fake sees a request.
func TestHostileRefsRefusedBeforeAnyForge(t *testing.T) {
	e := start(t, withPolicy("{}"))
	client := e.socketClient()
	requests := func() int {
		return len(e.github.Requests()) + len(e.ghe.Requests()) + len(e.gitlab.Requests()) + len(e.gitea.Requests()) + len(e.forgejo.Requests())
	}
	send := func(forge *forgev1.ForgeRef, req *gatewayv1.ForgeCallRequest) *gatewayv1.ForgeCallResult {
		t.Helper()
		req.CallId, req.Forge = "hostile", forge
		res, err := client.Forge(context.Background(), connect.NewRequest(req))
		if err != nil {
			t.Fatalf("Forge over the socket: %v", err)
		}
		e.seen = append(e.seen, res.Msg.String())
		return res.Msg
	}
	before := requests()
	forges := []struct {
		provider forgev1.ForgeProvider
		repos    []string // in scope, then out of it
	}{
		{forgev1.ForgeProvider_FORGE_PROVIDER_GITHUB, []string{"octocat/Hello-World", "other/secret"}},
		{forgev1.ForgeProvider_FORGE_PROVIDER_GITLAB, []string{deploy, "platform/infra/secrets/vault"}},
		{forgev1.ForgeProvider_FORGE_PROVIDER_GITEA, []string{gadgets}},
		{forgev1.ForgeProvider_FORGE_PROVIDER_FORGEJO, []string{gadgets}},
		{forgev1.ForgeProvider_FORGE_PROVIDER_LOCAL, []string{"demo/app"}},
	}
	refused := 0
	for _, forge := range forges {
		for _, repo := range forge.repos {
			for _, arm := range refArms {
				for _, h := range hostileRefs {
					res := send(&forgev1.ForgeRef{Provider: forge.provider}, arm.call(repo, h.ref))
					fe := res.GetError()
					if fe == nil || fe.GetCode() != gatewayv1.ErrorCode_ERROR_CODE_INVALID_ARGUMENT ||
						!strings.HasPrefix(fe.GetMessage(), arm.field+": ") || !strings.Contains(fe.GetMessage(), h.rule) {
						t.Errorf("%s on %s %s with %q: %v", arm.field, forge.provider, repo, h.ref, res)
						continue
					}
					refused++
				}
			}
		}
	}
	t.Logf("%d hostile calls refused in the gateway", refused)
	if n := requests() - before; n != 0 {
		t.Errorf("%d requests reached the forges for refs git refuses", n)
	}
	// The gate was live all along: a push with a good ref waits for an
	// operator, and a good ref on a read reaches the forge.
	res := send(&forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_GITEA}, refArms[0].call(gadgets, "main"))
	if res.GetError().GetCode() != gatewayv1.ErrorCode_ERROR_CODE_PENDING_APPROVAL {
		t.Errorf("create_branch from main on Gitea: %v, want pending_approval", res)
	}
	res = send(&forgev1.ForgeRef{Provider: forgev1.ForgeProvider_FORGE_PROVIDER_GITEA}, refArms[2].call(gadgets, "feature"))
	if res.GetError() != nil || requests() == before {
		t.Errorf("read_file at feature on Gitea: %v (%d requests)", res, requests()-before)
	}
}
