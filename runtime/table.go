// Package runtime executes generated forge tools: it decodes a model's tool
// call with the generated decoder, validates it with protovalidate, asks the
// approver, builds the envelope, sends it through a Broker and renders the
// result for the model.
//
// Generated code (protoc-gen-forgetools) fills the types in this file; every
// behaviour shared by all tools lives in this package, once.
package runtime

import (
	"google.golang.org/protobuf/proto"

	"github.com/forgetools/forgetools/approval"
	"github.com/forgetools/forgetools/runtime/schema"
)

// Approval says what a tool may change: nothing (read), the forge's
// conversation or CI state (write), or the repository itself (push). It is
// the server side's level too (package approval).
type Approval = approval.Level

const (
	ApprovalRead = approval.Read
	// ApprovalWrite: comments, issues, reviews, CI runs.
	ApprovalWrite = approval.Write
	// ApprovalPush: branches, commits, merges. Distinct from ApprovalWrite
	// so an approval policy written for comments never covers a push.
	ApprovalPush = approval.Push
)

// Risk is how much harm a call can do, as the Approver sees it. A tool has
// one in the table; a call's own text can raise it (see ApprovalRequest).
type Risk = approval.Risk

const (
	RiskUnspecified = approval.RiskUnspecified
	RiskLow         = approval.RiskLow
	RiskMedium      = approval.RiskMedium
	RiskHigh        = approval.RiskHigh
)

// Hints are the MCP tool annotations that follow from a tool's approval.
type Hints struct {
	ReadOnly    bool
	Destructive bool
	Idempotent  bool
	OpenWorld   bool
}

// Args is a decoded tool call: the arm's request message and the optional
// forge selector.
type Args struct {
	// Request is the arm's request message (e.g. *CreateIssueRequest).
	Request proto.Message
	// Forge is the selector message (e.g. *ForgeRef); nil when the call
	// names no forge, so the envelope carries none.
	Forge proto.Message
}

// Envelope is what the runtime adds to an arm when it builds the dispatch
// request.
type Envelope struct {
	// CallID is the model's tool call id.
	CallID string
	// ClientRequestID is the broker's idempotency key; set only for tools
	// whose Tool.IdempotencyKey is true.
	ClientRequestID string
}

// Text is one agent-authored text field of a request, addressed by its
// parameter path (e.g. "comments[2].body"), for the TextPolicy.
type Text struct {
	Param string
	Value *string
}

// Tool is one generated tool: data plus small typed functions.
type Tool struct {
	// Name is the model-facing tool name, e.g. "forge_create_issue".
	Name string
	// Title is the display name for people, e.g. "Create issue" (MCP
	// annotations.title); may be empty.
	Title string
	// Description is the model-facing description, with its included
	// guidance snippets and the rules the schema cannot express.
	Description string
	Approval    Approval
	// ActionClass is what an approval policy keys on, e.g. "comms:external"
	// for the forge conversation, "vcs:push" for branches and commits.
	ActionClass string
	// Risk is the tool's risk tier before the call's text is looked at.
	Risk  Risk
	Hints Hints
	// InputSchema returns the JSON Schema (draft 2020-12) of the arguments:
	// a new value on every call, which the caller may rewrite.
	InputSchema func() *schema.Schema
	// ResultArm names the result oneof arm the tool expects.
	ResultArm string
	// IdempotencyKey reports whether the envelope carries the broker's key.
	IdempotencyKey bool
	// Ack is the one-line write acknowledgement template ("{field}" names a
	// field of the result arm's message); empty renders the result as a
	// fenced record.
	Ack string
	// ReplayAck is rendered instead of Ack when the result's url is empty:
	// the gateway replayed a create that an earlier attempt made.
	ReplayAck string
	// Group and Action place the tool in the grouped shape: it is the
	// action Action of the tool "<table>_<Group>" (see Table.Groups).
	// Both empty for a tool offered flat only.
	Group, Action string
	// Aliases are earlier names of the tool: a call under one still runs
	// it; exports list them only when asked (WithAliases).
	Aliases []string

	// Decode parses strict JSON arguments: unknown keys are rejected naming
	// the valid ones, and type errors name the parameter.
	Decode func(args []byte) (Args, error)
	// Build puts the arm into the dispatch envelope.
	Build func(a Args, e Envelope) proto.Message
	// Texts returns the agent-authored text fields of a decoded request.
	Texts func(req proto.Message) []Text
}

// Outcome is a dispatch result split into its arm.
type Outcome struct {
	// Arm is the name of the result oneof field that is set; "" if none.
	Arm string
	// Message is the arm's message; nil for the error arm and for none.
	Message proto.Message
	// Err is the in-band error when Arm is the error arm.
	Err *CallError
}

// CallError is the in-band error a gateway returns.
type CallError struct {
	// Code is the model-facing spelling, e.g. "not_found".
	Code         string
	Message      string
	RetryAfterMs uint64
}

// Guidance is one part of a toolset's instructions and when it applies.
type Guidance struct {
	Text string
	// Providers limits the part to a toolset serving a forge of one of
	// these providers ("github"); empty = always.
	Providers []string
	// Params limits the part to a toolset whose tools offer every one of
	// these selector parameters ("forge_host"); empty = always.
	Params []string
}

// Group is one tool of the grouped shape: "<table>_<Name>", dispatching
// on an action parameter to the tools whose Tool.Group is Name.
type Group struct {
	Name string
	// Title is the display name for people, e.g. "Issues"; may be empty.
	Title string
	// Description says what the group is for; the grouped tool's
	// description follows it with a line per action.
	Description string
}

// Table is everything one annotated dispatch oneof generates.
type Table struct {
	// Name is the toolset name, e.g. "forge".
	Name string
	// Instructions is the toolset-level guidance every export carries
	// once, in parts: a toolset narrowed to the forges a gateway serves
	// (WithForges) keeps the parts whose conditions hold.
	Instructions []Guidance
	Tools        []*Tool
	// Groups are the groups tools may name in Tool.Group, in the order
	// the grouped shape lists them.
	Groups []Group
	// Procedure is the Connect procedure that takes the dispatch request,
	// e.g. "/forgetools.gateway.v1.AgentGateway/Forge".
	Procedure string
	// NewResult returns an empty result envelope, for transports that decode
	// the wire themselves.
	NewResult func() proto.Message
	// Unwrap splits a result envelope into its arm.
	Unwrap func(result proto.Message) Outcome
	// Selector maps the selector message's fields to the flat parameters
	// they take in every tool (provider -> forge_provider).
	Selector map[string]string
	// ParamNames holds the parameter names that differ from their field
	// names, by full field name, so violations name what the model wrote.
	ParamNames map[string]string
}

// GroupTool is the name of a group's tool in the grouped shape: toolset
// "forge" and group "issue" make "forge_issue", as the plugin checks it.
func (t *Table) GroupTool(group string) string { return t.Name + "_" + group }
