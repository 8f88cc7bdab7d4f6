package e2e_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/forgetools/forgetools/gateway/store/storetest"
)

var subscribedRE = regexp.MustCompile(`subscription (\S+)$`)

// updates collects the notifications/resources/updated a client receives.
type updates chan string

func (u updates) options() *mcp.ClientOptions {
	return &mcp.ClientOptions{ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
		u <- req.Params.URI
	}}
}

// next waits for the next notification; commandTimeout detects a hang, it
// is not a performance assertion.
func (u updates) next(t *testing.T, what string) string {
	t.Helper()
	select {
	case uri := <-u:
		return uri
	case <-time.After(commandTimeout):
		t.Fatalf("no notifications/resources/updated after %s", what)
		return ""
	}
}

// subscribeResource pushes a branch and opens a pull request from it,
// subscribes to it with the tool and to its resource over MCP, and returns
// the subscription id and URI. With approve, the branch's push waits for
// an operator first (the default policy): approve decides the approval
// the model read, and the same call made again reads the branch.
func subscribeResource(t *testing.T, cs *mcp.ClientSession, repo string, approve func(id string)) (id, uri string) {
	t.Helper()
	branch := `{"repo":"` + repo + `","branch":"watched"}`
	if approve != nil {
		text := wantCall(t, cs, "forge_create_branch", branch, true, `forge_create_branch failed: pending_approval: approval ap-[a-z2-7]+: .*`)
		approve(approvalID.FindStringSubmatch(text)[1])
	}
	wantCall(t, cs, "forge_create_branch", branch, false, `Created branch watched in .*`)
	wantCall(t, cs, "forge_create_pull_request", `{"repo":"`+repo+`","title":"Watch me","head_ref":"watched","base_ref":"main"}`, false, `Opened PR #1 in .*`)
	text := wantCall(t, cs, "forge_subscribe", `{"repo":"`+repo+`","kind":"pull_request","number":1}`, false, `Subscribed to pull_request #1 in .*: subscription \S+`)
	id = subscribedRE.FindStringSubmatch(text)[1]
	uri = "forge://subscriptions/" + id
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
		t.Fatalf("resources/subscribe %s: %v", uri, err)
	}
	return id, uri
}

// TestMCPResourceNotifications: an SDK client subscribed to a
// subscription's resource hears of a write on the local forge, whether the
// MCP session made it or another process did, and reads the resource as
// forge_get_events renders it.
func TestMCPResourceNotifications(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	got := updates(make(chan string, 10))
	cs := e.mcpClient(got.options())
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()

	templates, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil || len(templates.ResourceTemplates) != 1 || templates.ResourceTemplates[0].URITemplate != "forge://subscriptions/{subscription_id}" {
		t.Fatalf("resources/templates/list: %+v, %v", templates, err)
	}
	// Over `forgetools mcp` (stdio) on the embedded default the push parks
	// until `forgetools approvals approve`.
	id, uri := subscribeResource(t, cs, "demo/app", func(id string) {
		e.run("approvals", "approve", id).want(t, 0, `Approved `+id+` \(forge_create_branch on demo/app\); the call ran\.`)
	})

	// A review of the pull request, made through this MCP session on the
	// local forge.
	wantCall(t, cs, "forge_submit_review", `{"repo":"demo/app","pull_number":1,"verdict":"request_changes","body":"Add a test."}`, false,
		`Submitted request_changes review on PR #1 .*`)
	if u := got.next(t, "a review through MCP"); u != uri {
		t.Fatalf("updated %q, want %q", u, uri)
	}

	// resources/read is forge_get_events for the subscription, fences aside.
	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil || len(read.Contents) != 1 || read.Contents[0].URI != uri || read.Contents[0].MIMEType != "text/plain" {
		t.Fatalf("resources/read: %+v, %v", read, err)
	}
	tool, _ := callText(t, cs, "forge_get_events", `{"subscription_id":"`+id+`"}`)
	resource := result{stdout: read.Contents[0].Text + "\n"}.record(t)
	if want := (result{stdout: tool + "\n"}).record(t); resource != want {
		t.Fatalf("resources/read:\n%s\nforge_get_events:\n%s", resource, want)
	}
	for _, line := range []string{"type: review\nown: true\nactor: demo\n", "verdict: request_changes\n", "<<<body-NONCE\nAdd a test.\n>>>NONCE\n"} {
		if !strings.Contains(resource, line) {
			t.Errorf("the resource lacks %q:\n%s", line, resource)
		}
	}

	// A write by another process on the same store reaches it too.
	e.call("forge_comment_on_pull_request", `{"repo":"demo/app","pull_number":1,"body":"From the CLI."}`).want(t, 0, `Commented on PR #1 .*`)
	if u := got.next(t, "a comment from another process"); u != uri {
		t.Fatalf("updated %q, want %q", u, uri)
	}

	// A subscription the session does not have is no resource.
	missing := "forge://subscriptions/no-such-subscription"
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: missing}); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("resources/read of an unknown subscription: %v", err)
	}
}

// TestMCPResourceNotificationsThroughGateway: an MCP server in front of a
// running serve waits on its WaitEvents RPC over the session's socket,
// and the gateway refuses a forge selector on a read of the caller's own
// state.
func TestMCPResourceNotificationsThroughGateway(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	srv := e.serve(2, "--config", writeConfig(t, aliceConfig), "--store", storetest.SQLite(t), "--socket-dir", socketDir(t))
	got := updates(make(chan string, 10))
	cs := e.mcpClient(got.options(), "--gateway", srv.Sockets[0])
	_, uri := subscribeResource(t, cs, "demo/app", nil)

	// The other session of the account writes, through its own socket.
	e.call("forge_comment_on_pull_request", `{"repo":"demo/app","pull_number":1,"body":"Seen from alice-2."}`, "--gateway", srv.Sockets[1]).
		want(t, 0, `Commented on PR #1 .*`)
	if u := got.next(t, "a comment through the other session's socket"); u != uri {
		t.Fatalf("updated %q, want %q", u, uri)
	}

	// A remote gateway's tools keep the selector; the gateway refuses it on
	// a read of the caller's own state.
	e.call("forge_get_events", `{"forge_provider":"local"}`, "--gateway", srv.Sockets[1]).
		want(t, 1, `forge_get_events failed: invalid_argument: forge_get_events without a subscription reads your own state across every forge: omit forge_provider and forge_host`)
}

// approvalID finds the approval id in a parked call's line.
var approvalID = regexp.MustCompile(`pending_approval: approval (ap-[a-z2-7]+):`)

// TestCallGetEvents: `forgetools call forge_get_events` shows a
// subscription's events until a page is acknowledged.
func TestCallGetEvents(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// The embedded default parks the push; an operator approves it.
	id := e.call("forge_create_branch", `{"repo":"demo/app","branch":"h"}`).want(t, 1, `forge_create_branch failed: pending_approval: approval (ap-[a-z2-7]+): .*`)[1]
	e.run("approvals", "approve", id).want(t, 0, `Approved `+id+` \(forge_create_branch on demo/app\); the call ran\.`)
	e.call("forge_create_branch", `{"repo":"demo/app","branch":"h"}`).want(t, 0, `Created branch h .*`)
	e.call("forge_create_pull_request", `{"repo":"demo/app","title":"T","head_ref":"h","base_ref":"main"}`).want(t, 0, `Opened PR #1 .*`)
	e.call("forge_subscribe", `{"repo":"demo/app","kind":"pull_request","number":1}`).want(t, 0, `Subscribed to pull_request #1 in demo/app: subscription \S+`)
	e.call("forge_comment_on_pull_request", `{"repo":"demo/app","pull_number":1,"body":"One."}`).want(t, 0, `Commented .*`)

	// The page holds the operator's decision (the account's approval
	// stream) and the comment.
	first := e.call("forge_get_events", `{}`).record(t)
	if again := e.call("forge_get_events", `{}`).record(t); again != first || !strings.Contains(first, "\nevents: 2\n") ||
		!strings.Contains(first, "kind: approval\ntype: state\n") || !strings.Contains(first, "approval "+id+": operator operator approved forge_create_branch on demo/app") {
		t.Fatalf("an unacknowledged page did not come back:\n%s\nthen:\n%s", first, again)
	}
	cursor := regexp.MustCompile(`(?m)^next_cursor: (\d+)$`).FindStringSubmatch(first)
	if cursor == nil {
		t.Fatalf("no next_cursor:\n%s", first)
	}
	if rest := e.call("forge_get_events", `{"after":`+cursor[1]+`}`).record(t); !strings.Contains(rest, "\nevents: none\n") {
		t.Fatalf("after acknowledging:\n%s", rest)
	}
	// In-process the tools are narrowed to the one forge served, so there
	// is no selector to give (TestMCPResourceNotificationsThroughGateway
	// gives one to a running gateway).
	e.call("forge_get_events", `{"forge_provider":"local"}`).
		want(t, 1, `forge_get_events failed: invalid_argument: unknown parameter "forge_provider"; valid parameters: subscription_id, after, limit`)
}
