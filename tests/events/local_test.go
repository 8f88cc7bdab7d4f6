// Package events_test is change notifications on the local forge, end to
// end: the forge's own writes become events, read over a real Unix socket
// through the gateway (typed, and rendered as the model reads them), and a
// Go runtime waits for them with runtime/events.
package events_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/forgetools/forgetools/enumname"
	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/gateway/server"
	"github.com/forgetools/forgetools/gateway/store"
	"github.com/forgetools/forgetools/gateway/store/storetest"
	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"github.com/forgetools/forgetools/gen/forgetools/gateway/v1/gatewayv1tools"
	"github.com/forgetools/forgetools/providers/local"
	"github.com/forgetools/forgetools/runtime"
	"github.com/forgetools/forgetools/runtime/events"
	"github.com/forgetools/forgetools/subscriptions"
	"github.com/forgetools/forgetools/subscriptions/feed"
	"github.com/forgetools/forgetools/toolserver"
)

// gw is a gateway on the local forge, served over real Unix sockets:
// account agent (sessions agent-1, agent-2) and account other (other-1).
type gw struct {
	t       *testing.T
	local   *local.Forge
	sockets map[string]string // session -> unix:// target
}

func start(t *testing.T, dsn string) *gw {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	fd := feed.New(st, feed.Options{})
	t.Cleanup(fd.Close)
	f, err := local.New(ctx, st.DB(), local.Options{Dialect: string(st.Dialect()), GitDir: t.TempDir(), Recorder: fd})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := gateway.New(gateway.Config{
		Store: st, State: subscriptions.State(st),
		Forges: []gateway.Forge{{Provider: subscriptions.Serve(f, st)}},
		Accounts: []gateway.Account{
			// Pushes run unattended: these tests are about events.
			{Name: "agent", AgentHandle: "fixer", OwnerHandle: "alice", Scope: []string{"*"}, Sessions: []string{"agent-1", "agent-2"}, Policy: gateway.Unattended()},
			{Name: "other", AgentHandle: "helper", OwnerHandle: "bob", Scope: []string{"*"}, Sessions: []string{"other-1"}, Policy: gateway.Unattended()},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	path, wait := fd.Handler(gateway.CallerFrom)
	srv := server.New(svc, server.Options{Handlers: map[string]http.Handler{path: wait}})
	dir, err := os.MkdirTemp("", "ftev")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	paths, err := srv.ListenSockets(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	g := &gw{t: t, local: f, sockets: map[string]string{}}
	for i, s := range []string{"agent-1", "agent-2", "other-1"} {
		g.sockets[s] = "unix://" + paths[i]
	}
	return g
}

// forge sends one typed call over session's socket.
func (g *gw) call(session string, req *gatewayv1.ForgeCallRequest) *gatewayv1.ForgeCallResult {
	g.t.Helper()
	tr, err := runtime.DialGateway(gatewayv1tools.ForgeTools, g.sockets[session])
	if err != nil {
		g.t.Fatal(err)
	}
	res, err := tr.Forge(context.Background(), req)
	if err != nil {
		g.t.Fatalf("%s: %v", session, err)
	}
	out := res.(*gatewayv1.ForgeCallResult)
	if e := out.GetError(); e != nil {
		g.t.Fatalf("%s: %s: %s", session, e.GetCode(), e.GetMessage())
	}
	return out
}

// tool runs a tool as the model would over session's socket.
func (g *gw) tool(session, name, args string) string {
	g.t.Helper()
	tr, err := runtime.DialGateway(gatewayv1tools.ForgeTools, g.sockets[session])
	if err != nil {
		g.t.Fatal(err)
	}
	ts, err := runtime.NewToolset(gatewayv1tools.ForgeTools, runtime.NewBroker(tr))
	if err != nil {
		g.t.Fatal(err)
	}
	res := ts.Execute(context.Background(), runtime.Call{ID: "c1", Name: name, Args: json.RawMessage(args)})
	if res.IsError {
		g.t.Fatalf("%s %s: %s", name, args, res.Text)
	}
	return res.Text
}

func getEvents(sub string, after *uint64) *gatewayv1.ForgeCallRequest {
	return &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_GetEvents{GetEvents: &gatewayv1.GetEventsRequest{SubscriptionId: sub, After: after}}}
}

// summary is an event as "type:detail own".
func summary(e *forgev1.Event) string {
	detail := e.GetActor()
	for _, d := range []string{e.GetVerdict(), e.GetState(), e.GetChecksState()} {
		if d != "" {
			detail += "/" + d
		}
	}
	if e.GetOwn() {
		detail += " own"
	}
	return enumname.Of(e.GetType()) + ":" + detail
}

func summaries(l *forgev1.EventList) []string {
	var out []string
	for _, e := range l.GetEvents() {
		out = append(out, summary(e))
	}
	return out
}

// openPullRequest has the agent push a branch, open a pull request from
// it and subscribe to the pull request.
func (g *gw) openPullRequest() (number uint64, sub string) {
	g.t.Helper()
	g.call("agent-1", &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CreateBranch{CreateBranch: &gatewayv1.CreateBranchRequest{
		Repo: "acme/web", Branch: "fix"}}})
	pr := g.call("agent-1", &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CreatePullRequest{CreatePullRequest: &gatewayv1.CreatePullRequestRequest{
		Repo: "acme/web", Title: "Fix the crash", HeadRef: "fix", BaseRef: "main"}}}).GetPullRequest()
	s := g.call("agent-1", &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_Subscribe{Subscribe: &gatewayv1.SubscribeRequest{
		Repo: "acme/web", Kind: gatewayv1.SubscriptionKind_SUBSCRIPTION_KIND_PULL_REQUEST, Number: pr.GetNumber()}}}).GetSubscribed()
	return pr.GetNumber(), s.GetSubscriptionId()
}

// The local-forge test: a comment, a review, a merge and a CI run
// each produce exactly one event, in order, and the agent's own writes are
// marked.
func TestLocalForgeWritesBecomeEvents(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		ctx := context.Background()
		g := start(t, dsn)
		n, sub := g.openPullRequest()

		g.call("agent-1", &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CommentOnPullRequest{CommentOnPullRequest: &gatewayv1.CommentOnPullRequestRequest{
			Repo: "acme/web", PullNumber: n, Body: "Ready for review."}}})
		g.call("other-1", &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_SubmitReview{SubmitReview: &gatewayv1.SubmitReviewRequest{
			Repo: "acme/web", PullNumber: n, Verdict: gatewayv1.Verdict_VERDICT_APPROVE}}})
		if err := g.local.SetChecks(ctx, "acme/web", n, "success"); err != nil {
			t.Fatal(err)
		}
		if err := g.local.SetState(ctx, "acme/web", n, "merged"); err != nil {
			t.Fatal(err)
		}

		page := g.call("agent-2", getEvents(sub, nil)).GetEvents()
		want := []string{"comment:agent own", "review:other/approve", "checks:operator/success", "state:operator/merged"}
		if got := summaries(page); strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("events:\n got %v\nwant %v", got, want)
		}
		for i, e := range page.GetEvents() {
			if e.GetSubscriptionId() != sub || e.GetRepo() != "acme/web" || e.GetNumber() != n || e.GetKind() != "pull_request" ||
				(i > 0 && e.GetCursor() <= page.GetEvents()[i-1].GetCursor()) {
				t.Fatalf("event %d: %v", i, e)
			}
		}
		// The agent's comment carries its attribution, parsed as a claim.
		if c := page.GetEvents()[0]; c.GetBody() != "Ready for review." || c.GetAttribution().GetAgentHandle() != "fixer" {
			t.Fatalf("own comment: body %q, attribution %v", c.GetBody(), c.GetAttribution())
		}
		// The other account subscribed to nothing: nothing for it.
		if other := g.call("other-1", getEvents("", nil)).GetEvents(); len(other.GetEvents()) != 0 {
			t.Fatalf("other's events: %v", summaries(other))
		}
	})
}

// The page comes back until the agent acknowledges it with next_cursor;
// each session has its own cursor.
func TestCursorAdvancesOnlyWhenAcknowledged(t *testing.T) {
	storetest.Run(t, func(t *testing.T, dsn string) {
		g := start(t, dsn)
		n, _ := g.openPullRequest()
		for i := range 3 {
			g.call("other-1", &gatewayv1.ForgeCallRequest{Call: &gatewayv1.ForgeCallRequest_CommentOnPullRequest{CommentOnPullRequest: &gatewayv1.CommentOnPullRequestRequest{
				Repo: "acme/web", PullNumber: n, Body: fmt.Sprintf("comment %d", i)}}})
		}
		page := func(session, args string) (string, uint64) {
			text := g.tool(session, "forge_get_events", args)
			m := regexp.MustCompile(`(?m)^next_cursor: (\d+)$`).FindStringSubmatch(text)
			var next uint64
			if m != nil {
				fmt.Sscan(m[1], &next)
			}
			return regexp.MustCompile(`[0-9a-f]{8,}`).ReplaceAllString(text, "X"), next
		}
		first, next := page("agent-1", `{"limit":2}`)
		if !strings.Contains(first, "comment 0") || !strings.Contains(first, "comment 1") || strings.Contains(first, "comment 2") ||
			!strings.Contains(first, "\nmore: true") {
			t.Fatalf("first page:\n%s", first)
		}
		if again, _ := page("agent-1", `{"limit":2}`); again != first {
			t.Fatalf("the unacknowledged page changed:\n%s\nthen:\n%s", first, again)
		}
		second, _ := page("agent-1", fmt.Sprintf(`{"limit":2,"after":%d}`, next))
		if !strings.Contains(second, "comment 2") || strings.Contains(second, "comment 1") || strings.Contains(second, "\nmore: true") {
			t.Fatalf("second page:\n%s", second)
		}
		// agent-2 has read nothing yet.
		if other, _ := page("agent-2", `{}`); !strings.Contains(other, "comment 0") {
			t.Fatalf("agent-2:\n%s", other)
		}
	})
}

// A Go runtime waits for events over the socket: nothing pending returns
// empty, a write wakes a waiter, and Watch reports news once per arrival.
func TestRuntimeWaitsForEvents(t *testing.T) {
	ctx := context.Background()
	g := start(t, storetest.SQLite(t))
	n, sub := g.openPullRequest()
	w, err := events.Dial(g.sockets["agent-1"])
	if err != nil {
		t.Fatal(err)
	}
	res, err := w.WaitEvents(ctx, &gatewayv1.WaitEventsRequest{TimeoutMs: 1})
	if err != nil || len(res.GetSubscriptionIds()) != 0 || res.GetCursor() != 0 {
		t.Fatalf("nothing pending: %v, %v", res, err)
	}
	if _, err := w.WaitEvents(ctx, &gatewayv1.WaitEventsRequest{SubscriptionId: "nope"}); err == nil || !strings.Contains(err.Error(), "not_found") {
		t.Fatalf("an unknown subscription: %v", err)
	}

	done := make(chan events.Pending, 1)
	go func() {
		p, err := events.Wait(ctx, w, sub)
		if err != nil {
			t.Error(err)
		}
		done <- p
	}()
	review := func() {
		if _, err := g.local.SubmitReview(ctx, toolserver.Call{Account: "reviewer"}, &gatewayv1.SubmitReviewRequest{
			Repo: "acme/web", PullNumber: n, Verdict: gatewayv1.Verdict_VERDICT_REQUEST_CHANGES, Body: "Add a test."}); err != nil {
			t.Fatal(err)
		}
	}
	review()
	if p := <-done; len(p.SubscriptionIDs) != 1 || p.SubscriptionIDs[0] != sub || p.Cursor == 0 {
		t.Fatalf("Wait = %+v", p)
	}

	wctx, cancel := context.WithCancel(ctx)
	news, stopped := events.Watch(wctx, w, "")
	first := <-news // the unacknowledged review
	review()
	second := <-news
	if second.Cursor <= first.Cursor {
		t.Fatalf("Watch: %+v then %+v", first, second)
	}
	cancel()
	for range news {
	}
	if err := stopped(); err != nil {
		t.Fatalf("a watch ended by its context: %v", err)
	}
}
