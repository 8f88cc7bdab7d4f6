package e2e_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// streamRE reads the approval stream a parked line names.
var streamRE = regexp.MustCompile(`watch forge_get_events \(subscription ([^)\s]+)\)`)

// TestMCPApprovalDecisionNotification: over `forgetools mcp` a parked push
// names the account's approval stream; an MCP client subscribed to its
// resource hears of the decision an operator makes with `forgetools
// approvals` in another process, reads it (the approval id, the decision),
// and the same call made again returns the real result.
func TestMCPApprovalDecisionNotification(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	got := updates(make(chan string, 10))
	cs := e.mcpClient(got.options())
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()

	branch := `{"repo":"demo/app","branch":"waits"}`
	text := wantCall(t, cs, "forge_create_branch", branch, true, `forge_create_branch failed: pending_approval: approval ap-[a-z2-7]+: .*or watch forge_get_events \(subscription [^)\s]+\): .*`)
	id, stream := approvalID.FindStringSubmatch(text)[1], streamRE.FindStringSubmatch(text)[1]
	uri := "forge://subscriptions/" + stream
	if err := cs.Subscribe(ctx, &mcp.SubscribeParams{URI: uri}); err != nil {
		t.Fatalf("resources/subscribe %s: %v", uri, err)
	}

	e.run("approvals", "approve", id, "--operator", "ops", "--reason", "go ahead").want(t, 0, `Approved `+id+` \(forge_create_branch on demo/app\); the call ran\.`)
	if u := got.next(t, "the approval"); u != uri {
		t.Fatalf("updated %q, want %q", u, uri)
	}
	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil || len(read.Contents) != 1 {
		t.Fatalf("resources/read: %+v, %v", read, err)
	}
	for _, want := range []string{"type: state\n", "kind: approval\n", "state: approved\n", "repo: demo/app\n", id, "operator ops approved forge_create_branch on demo/app: go ahead"} {
		if !strings.Contains(read.Contents[0].Text, want) {
			t.Errorf("the decision resource lacks %q:\n%s", want, read.Contents[0].Text)
		}
	}
	wantCall(t, cs, "forge_create_branch", branch, false, `Created branch waits in .*`)
}
