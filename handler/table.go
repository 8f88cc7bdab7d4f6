package handler

import (
	"context"

	forgev1 "github.com/forgetools/forgetools/gen/forgetools/forge/v1"
	gatewayv1 "github.com/forgetools/forgetools/gen/forgetools/gateway/v1"
	"google.golang.org/protobuf/proto"
)

// Table is the server side of one annotated dispatch oneof.
type Table struct {
	// Name is the toolset name, e.g. "forge".
	Name string
	// Procedure is the Connect procedure that takes the dispatch request,
	// e.g. "/forgetools.gateway.v1.AgentGateway/Forge".
	Procedure string
	// NewRequest and NewResult return empty envelopes, for servers that
	// decode and encode the wire themselves.
	NewRequest func() proto.Message
	NewResult  func() proto.Message
	Arms       []*Arm
	// Split finds the arm of a request envelope: the arm, its request
	// message and the envelope fields. The arm is nil when the request
	// names none (or one this table does not know).
	Split func(req proto.Message) (*Arm, proto.Message, Envelope)
	// Error puts an in-band error into a result envelope.
	Error func(callID string, e *gatewayv1.ForgeCallError) proto.Message
}

// Envelope is what a request carries besides its arm.
type Envelope struct {
	CallID string
	// Forge is the selector; nil when the call names none.
	Forge *forgev1.ForgeRef
	// ClientRequestID is the idempotency key; "" when none was sent.
	ClientRequestID string
}

// Scope is what the gateway scopes an arm by, from the (param).scope
// option of one field of its request.
type Scope int

const (
	// ScopeNone: the arm declares no scope field; the gateway refuses it.
	ScopeNone Scope = iota
	// ScopeRepository: the field is the repository the call acts on.
	ScopeRepository
	// ScopeSubscription: the field is the id of a stored subscription,
	// whose forge and repository scope the call.
	ScopeSubscription
	// ScopeOwnState: the call acts on the caller's own gateway state (its
	// subscriptions and their events), not on a forge. The gateway sends
	// it to its state provider; see Call.InScope.
	ScopeOwnState
)

// Attribution is what the gateway does with the owner header in a text
// field, from its (param).attribution option.
type Attribution int

const (
	// Stamp replaces any header the agent wrote with the caller's own.
	Stamp Attribution = iota + 1
	// Strip removes a header the agent wrote and stamps none.
	Strip
)

// Text is one agent-authored text field of a request that the gateway
// stamps or strips.
type Text struct {
	// Path names the field for messages, by proto field names
	// ("comments[2].body").
	Path        string
	Value       *string
	Attribution Attribution
}

// Arm is one arm of the table: its names, the policy the proto declares
// for it, and the typed functions the generator wrote.
type Arm struct {
	// Name is the oneof field name, e.g. "create_issue".
	Name string
	// Tool is the model-facing tool name, e.g. "forge_create_issue".
	Tool string
	// Capability groups the arm's handler method, e.g. "issues".
	Capability string
	// Result names the result oneof arm the arm answers with, e.g. "issue".
	Result string
	// IdempotencyKey: the envelope's idempotency key applies to this arm.
	IdempotencyKey bool
	// OwnsResult: the call creates the artifact its result describes.
	OwnsResult bool
	// Approval, ActionClass and Risk are the arm's (tool) options, what the
	// gateway's approval policy decides on (with the call's escalations,
	// which raise Risk to RiskHigh).
	Approval    Approval
	ActionClass string
	Risk        Risk
	// Scope says what ScopeKey returns.
	Scope Scope
	// ScopeKey returns the value of the request's scope field; nil when
	// the arm has none.
	ScopeKey func(req proto.Message) string
	// ScopeWhenEmpty scopes a call whose scope field is empty
	// (ScopeOwnState); ScopeNone leaves Scope in charge.
	ScopeWhenEmpty Scope
	// Texts returns the request's stamped and stripped text fields, for
	// the gateway to rewrite in place (on its own copy of the request).
	Texts func(req proto.Message) []Text
	// Serve calls the arm's method on h, a provider; a provider without
	// the arm's capability gets an *UnimplementedError.
	Serve func(ctx context.Context, h any, c Call, req proto.Message) (proto.Message, error)
	// Wrap puts the arm's result message into a result envelope.
	Wrap func(callID string, res proto.Message) proto.Message
}

// Approval is what an arm may change, from its (tool).approval option: the
// level the gateway's approval policy keys on first.
type Approval int

const (
	// ApprovalUnspecified: the arm declares no level (the generator
	// refuses that for a tool, so only a hand-built table has it).
	ApprovalUnspecified Approval = iota
	// ApprovalRead: reads forge state, never changes it.
	ApprovalRead
	// ApprovalWrite: changes conversation or CI state (comments, issues,
	// reviews, CI runs).
	ApprovalWrite
	// ApprovalPush: changes the repository itself (branches, commits,
	// merges).
	ApprovalPush
)

// String is the level's policy name: "read", "write" or "push".
func (a Approval) String() string {
	switch a {
	case ApprovalRead:
		return "read"
	case ApprovalWrite:
		return "write"
	case ApprovalPush:
		return "push"
	}
	return "unspecified"
}

// Risk is an arm's risk tier, from its (tool).risk option; a call's own
// text can raise it (package escalate).
type Risk int

const (
	RiskUnspecified Risk = iota
	RiskLow
	RiskMedium
	RiskHigh
)

// String is the tier's policy name: "low", "medium" or "high".
func (r Risk) String() string {
	switch r {
	case RiskLow:
		return "low"
	case RiskMedium:
		return "medium"
	case RiskHigh:
		return "high"
	}
	return "unspecified"
}
