package server_test

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"connectrpc.com/connect"
	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/server"
	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1connect"
)

// The gateway on the real sandbox forge, sharing the gateway's database:
// every arm over a socket, and the concurrent create, on both backends.
func TestOnTheLocalForge(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		// Every arm runs here: the approval gate has its own tests.
		g := serveLocal(t, dsn, gateway.Account{Name: "demo", AgentHandle: "agent", OwnerHandle: "me", Scope: []string{"*"}, Sessions: []string{"demo"},
			Policy: gateway.Unattended()})
		st, client := g.store, g.client("demo")
		call := func(req *gatewayv1.ForgeCallRequest) *gatewayv1.ForgeCallResult {
			t.Helper()
			res := g.call(t, "demo", req)
			if fe := res.GetError(); fe != nil {
				t.Fatalf("%v: %s: %s", req, fe.Code, fe.Message)
			}
			return res
		}

		var wg sync.WaitGroup
		results := make([]*gatewayv1.ForgeCallResult, 50)
		for i := range results {
			wg.Go(func() {
				res, err := client.Forge(ctx, connect.NewRequest(createIssue("acme/web", "Once", "Body", "nonce:1")))
				if err != nil {
					t.Error(err)
					return
				}
				results[i] = res.Msg
			})
		}
		wg.Wait()
		created := 0
		for _, r := range results {
			if r.GetIssue().GetNumber() != 1 {
				t.Fatalf("concurrent create result %v", r)
			}
			if r.GetIssue().GetUrl() != "" {
				created++
			}
		}
		list := call(&gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_ListIssues{ListIssues: &gatewayv1.ListIssuesRequest{Repo: "acme/web"}}})
		if created != 1 || len(list.GetIssues().GetIssues()) != 1 {
			t.Fatalf("%d creates reported, %d issues on the forge; want 1 and 1", created, len(list.GetIssues().GetIssues()))
		}

		call(&gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CommentOnIssue{CommentOnIssue: &gatewayv1.CommentOnIssueRequest{Repo: "acme/web", IssueNumber: 1, Body: "Noted"}}})
		iss := call(getIssue("acme/web", 1)).GetIssue()
		if iss.GetBody() != "Body" || iss.GetAttribution().GetSessionId() != "demo" ||
			len(iss.GetComments()) != 1 || iss.GetComments()[0].GetAttribution().GetAgentHandle() != "agent" {
			t.Fatalf("read back %v", iss)
		}

		// A pull request's head is a branch of the repository.
		call(&gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CreateBranch{CreateBranch: &gatewayv1.CreateBranchRequest{Repo: "acme/web", Branch: "feature"}}})
		pr := call(createPR("acme/web", "Change", "nonce:2")).GetPullRequest()
		call(&gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_SubmitReview{SubmitReview: &gatewayv1.SubmitReviewRequest{
			Repo: "acme/web", PullNumber: pr.GetNumber(), Verdict: gatewayv1.Verdict_VERDICT_REQUEST_CHANGES, Body: "Tests?",
			Comments: []*gatewayv1.ReviewCommentInput{{Path: "a.go", Line: 1, Body: "here"}}}}})
		got := call(&gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_GetPullRequest{GetPullRequest: &gatewayv1.GetPullRequestRequest{Repo: "acme/web", PullNumber: pr.GetNumber()}}}).GetPullRequest()
		if len(got.GetReviews()) != 1 || got.GetReviews()[0].GetBody() != "Tests?" || got.GetReviews()[0].GetAttribution() == nil {
			t.Fatalf("PR read back %v", got)
		}

		sub := call(subscribe("acme/web", gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_PULL_REQUEST, pr.GetNumber())).GetSubscribed()
		call(unsubscribe(sub.GetSubscriptionId()))

		owned, err := st.Owned(ctx, "demo")
		if err != nil || len(owned) != 4 { // issue, comment, PR, review
			t.Fatalf("ownership = %v, %v", owned, err)
		}
	})
}

// localGateway is a gateway on the real sandbox forge, sharing the
// gateway's database, served on Unix sockets.
type localGateway struct {
	store *store.Store
	dir   string
}

// serveLocal serves accounts on the local forge with the store at dsn until
// the test ends.
func serveLocal(t *testing.T, dsn string, accounts ...gateway.Account) *localGateway {
	t.Helper()
	svc, st, _ := localService(t, dsn, nil, accounts...)
	return &localGateway{store: st, dir: listenSockets(t, svc)}
}

// listenSockets serves svc on its sessions' sockets until the test ends,
// and returns their directory.
func listenSockets(t *testing.T, svc *gateway.Service) string {
	t.Helper()
	return listenSocketsWith(t, svc, server.Options{Logger: slog.New(slog.DiscardHandler)})
}

// listenSocketsWith is listenSockets with the server's options (further
// handlers, say).
func listenSocketsWith(t *testing.T, svc *gateway.Service, opts server.Options) string {
	t.Helper()
	srv := server.New(svc, opts)
	dir, err := os.MkdirTemp("", "ftlocal")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if _, err := srv.ListenSockets(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Shutdown(context.Background()) })
	return dir
}

func (g *localGateway) client(session string) gatewayv1connect.AgentGatewayClient {
	return unixClient(filepath.Join(g.dir, session+".sock"))
}

// call sends req on session's socket and fails the test on a Connect error.
func (g *localGateway) call(t *testing.T, session string, req *gatewayv1.ForgeCallRequest) *gatewayv1.ForgeCallResult {
	t.Helper()
	res, err := g.client(session).Forge(context.Background(), connect.NewRequest(req))
	if err != nil {
		t.Fatalf("Forge on %s: %v", session, err)
	}
	return res.Msg
}
