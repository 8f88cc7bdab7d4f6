package cli

import (
	"context"
	"regexp"

	"github.com/forgetools/forgetools/gateway"
	"github.com/forgetools/forgetools/internal/approvalview"
	"github.com/forgetools/forgetools/internal/config"
	"github.com/forgetools/forgetools/internal/mcpserver"
)

// mcpOperator is the name decisions made at the MCP client are recorded
// under.
const mcpOperator = config.ApproverMCPClient

// decider lets the person at the MCP client decide id's parked calls, when
// the operator turned it on for id's account (approvers: [mcp_client]); nil
// otherwise. It is only ever built over an in-process gateway: an MCP
// server talking to a remote gateway's socket has no way to decide.
func (s *system) decider(id gateway.Identity) mcpserver.Decider {
	if !s.mcpApprovers[id.Account] {
		return nil
	}
	return mcpDecider{svc: s.svc, id: id}
}

// mcpDecider decides through the gateway's operator API, for one identity.
type mcpDecider struct {
	svc *gateway.Service
	id  gateway.Identity
}

// parkedLine finds the approval id in a pending_approval failure.
var parkedLine = regexp.MustCompile(`pending_approval: approval (ap-[a-z0-9]+): this call waits for an operator`)

// Parked answers only for a pending approval of the decider's own account
// and session, whatever the text says.
func (d mcpDecider) Parked(ctx context.Context, text string) (string, string, bool) {
	m := parkedLine.FindStringSubmatch(text)
	if m == nil {
		return "", "", false
	}
	a, err := d.svc.Approval(ctx, m[1])
	if err != nil || a.State != gateway.ApprovalPending || a.Account != d.id.Account || a.Session != d.id.Session {
		return "", "", false
	}
	return a.ID, approvalMessage(ctx, d.svc, a), true
}

func (d mcpDecider) Approve(ctx context.Context, id string) error {
	_, err := d.svc.Approve(ctx, id, mcpOperator, "")
	return err
}

func (d mcpDecider) Deny(ctx context.Context, id, reason string) error {
	_, err := d.svc.Deny(ctx, id, mcpOperator, reason)
	return err
}

// approvalMessage is what the person at the MCP client reads before
// deciding: the same view forgetools approvals show prints.
func approvalMessage(ctx context.Context, svc *gateway.Service, a gateway.Approval) string {
	return "The agent's call waits for your decision.\n\n" + approvalview.Render(ctx, svc, a)
}
