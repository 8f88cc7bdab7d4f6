package mcpserver

import (
	"context"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Decider lets the person at the MCP client decide a call the gateway
// parked for an operator, through MCP elicitation. Only an in-process
// gateway has one, and only for an account whose operator turned it on
// (approvers: [mcp_client]): a client may answer an elicitation on its own,
// and an agent talking to a remote gateway's socket must hold no way to
// decide its own calls. The console and forgetools approvals always work.
type Decider interface {
	// Parked reports whether a failed call's text is a pending_approval,
	// and if so the approval's id and what approving it would do, in the
	// words shown to the person.
	Parked(ctx context.Context, text string) (id, message string, ok bool)
	// Approve runs the parked call; Deny refuses it with the reason.
	Approve(ctx context.Context, id string) error
	Deny(ctx context.Context, id, reason string) error
}

// decisionSchema is the form the person fills in: approve or not, and a
// reason the agent reads when it is not.
var decisionSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"approve": map[string]any{"type": "boolean", "title": "Approve and run it",
			"description": "Yes runs the parked call once, exactly as stored; no denies it."},
		"reason": map[string]any{"type": "string", "title": "Reason", "description": "Why not (the agent reads it)."},
	},
	"required": []string{"approve"},
}

// elicit asks the person at the client to decide the call res parked, and
// reports whether a decision was made (so the caller repeats the call,
// which then answers the decision). A client without elicitation, a
// cancelled form or any failure leaves the call parked for the console.
func elicit(ctx context.Context, req *mcp.CallToolRequest, d Decider, text string, log *slog.Logger) bool {
	id, message, ok := d.Parked(ctx, text)
	if !ok || req.Session == nil {
		return false
	}
	if p := req.Session.InitializeParams(); p == nil || p.Capabilities == nil || p.Capabilities.Elicitation == nil {
		return false
	}
	res, err := req.Session.Elicit(ctx, &mcp.ElicitParams{Message: message, RequestedSchema: decisionSchema})
	if err != nil {
		log.Warn("asking the MCP client to decide a parked call failed; it stays parked", "approval", id, "cause", err.Error())
		return false
	}
	switch res.Action {
	case "accept":
		if approve, _ := res.Content["approve"].(bool); approve {
			err = d.Approve(ctx, id)
			break
		}
		reason, _ := res.Content["reason"].(string)
		if reason == "" {
			reason = "denied at the MCP client"
		}
		err = d.Deny(ctx, id, reason)
	case "decline":
		err = d.Deny(ctx, id, "declined at the MCP client")
	default: // cancel: no decision
		return false
	}
	if err != nil {
		log.Warn("the MCP client's decision on a parked call failed", "approval", id, "action", res.Action, "cause", err.Error())
		return false
	}
	log.Info("the person at the MCP client decided a parked call", "approval", id, "action", res.Action)
	return true
}
