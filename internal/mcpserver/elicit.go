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
	// Parked reports whether a failed call's text is a pending_approval
	// of this session, and if so the approval's id and what approving it
	// would do, in the words shown to the person.
	Parked(ctx context.Context, text string) (id, message string, ok bool)
	// Approve runs the parked call; Deny refuses it with the reason.
	Approve(ctx context.Context, id string) error
	Deny(ctx context.Context, id, reason string) error
}

// decisionKey names the elicitation among a call's input requests.
const decisionKey = "forgetools.approval"

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

// decide runs a tool call through the person at the client when the
// gateway parks it. MCP's multi round-trip shape (which the SDK also
// plays for older clients, as a plain elicitation): the first pass answers
// with an elicitation for the client to fill in; the client calls again
// with the person's answer, and that pass applies it and repeats the call,
// which then answers the decision (the stored result, or the denial and
// its reason).
//
// Which approval an answer decides is read from the repeated call itself
// (the gateway names the same approval for the identical call), never
// from the request state the client echoes, so a client cannot point an
// answer at another approval. A client without elicitation, a cancelled
// form or any failure leaves the call parked for the console.
func decide(ctx context.Context, req *mcp.CallToolRequest, d Decider, call func() (string, bool), log *slog.Logger) *mcp.CallToolResult {
	text, isErr := call()
	if !isErr {
		return textResult(text, false)
	}
	id, message, ok := d.Parked(ctx, text)
	if !ok {
		return textResult(text, true)
	}
	if answer, ok := req.Params.InputResponses[decisionKey].(*mcp.ElicitResult); ok {
		if !apply(ctx, d, id, answer, log) {
			return textResult(text, true)
		}
		return textResult(call())
	}
	if !elicits(req.Session) {
		return textResult(text, true)
	}
	return &mcp.CallToolResult{
		InputRequests: mcp.InputRequestMap{decisionKey: &mcp.ElicitParams{Mode: "form", Message: message, RequestedSchema: decisionSchema}},
		RequestState:  id, // informational only: see above
	}
}

// elicits reports whether the client said it can fill in a form.
func elicits(s *mcp.ServerSession) bool {
	if s == nil {
		return false
	}
	p := s.InitializeParams()
	return p != nil && p.Capabilities != nil && p.Capabilities.Elicitation != nil
}

// apply records the person's answer, reporting whether it decided.
func apply(ctx context.Context, d Decider, id string, answer *mcp.ElicitResult, log *slog.Logger) bool {
	var err error
	switch answer.Action {
	case "accept":
		if approve, _ := answer.Content["approve"].(bool); approve {
			err = d.Approve(ctx, id)
			break
		}
		reason, _ := answer.Content["reason"].(string)
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
		log.Warn("the MCP client's decision on a parked call failed; it stays as it was", "approval", id, "action", answer.Action, "cause", err.Error())
		return false
	}
	log.Info("the person at the MCP client decided a parked call", "approval", id, "action", answer.Action)
	return true
}

func textResult(text string, isErr bool) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: isErr}
}
